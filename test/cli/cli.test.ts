/**
 * The built command (`node dist/cli.js`, what `npx agent-doubles` runs) from a child process:
 * help, version, bad arguments, and a running `serve` driven as a suite in another language
 * drives it — model traffic through the real openai SDK, the control API through curl.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import OpenAI from 'openai'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const cli = `${root}dist/cli.js`
const transcript = `${root}test/transcripts/weather.jsonl`
const replies = `${root}test/cli/scripts/replies.json`
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }
const exec = promisify(execFile)

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first (npm test does)`)
})

/** Runs the command to its end. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [cli, ...args])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

const children = new Set<ChildProcess>()
afterEach(async () => {
  await Promise.all([...children].map(stop))
})

/** Starts `serve` and resolves with the URL it prints first. */
async function serve(...args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  const lines = createInterface({ input: child.stdout! })
  const [url] = (await once(lines, 'line')) as [string]
  return { url, child }
}

/** SIGINT, then the exit code. */
async function stop(child: ChildProcess): Promise<number | null> {
  children.delete(child)
  if (child.exitCode !== null) return child.exitCode
  const exited = once(child, 'exit') as Promise<[number | null]>
  child.kill('SIGINT')
  return (await exited)[0]
}

/** One curl call; resolves with the status and the parsed JSON body. */
async function curl(url: string, ...args: string[]): Promise<{ status: number; body: any }> {
  const { stdout } = await exec('curl', ['-sS', '-w', '\n%{http_code}', ...args, url])
  const at = stdout.lastIndexOf('\n')
  return { status: Number(stdout.slice(at + 1)), body: JSON.parse(stdout.slice(0, at)) }
}

const openai = (url: string) => new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })
const ask = (client: OpenAI, text: string) =>
  client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] })

describe('agent-doubles (child process)', () => {
  test('--help and -h print the commands; --version prints the package version', async () => {
    const help = await run('--help')
    expect(help).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toContain('Usage: agent-doubles <command> [options]')
    expect(help.stdout).toContain('serve ')
    expect((await run('-h')).stdout).toBe(help.stdout)
    expect(await run('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  test('serve --help prints its options and the control API, and exits 0', async () => {
    const help = await run('serve', '--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: agent-doubles serve \[--port N\]/)
    for (const flag of ['--script', '--rules', '--transcript', '--record', 'PUT  /_agent-doubles/script']) expect(help.stdout).toContain(flag)
  })

  test('bad arguments print one clear line and the usage on stderr, and exit 2', async () => {
    const unknownFlag = await run('serve', '--prot', '8080')
    expect(unknownFlag).toMatchObject({ code: 2, stdout: '' })
    expect(unknownFlag.stderr).toMatch(/^\[agent-doubles\] serve: unknown option --prot\n\nUsage: agent-doubles serve/)
    expect(unknownFlag.stderr).not.toContain('ERR_PARSE_ARGS')

    const unknownCommand = await run('start')
    expect(unknownCommand.code).toBe(2)
    expect(unknownCommand.stderr).toMatch(/^\[agent-doubles\] unknown command "start" \(the commands are serve, mcp, help\)\n\nagent-doubles — /)

    const nothing = await run()
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('no command given')
  })

  test('serve --script answers from a JSON script; the control API reads, resets and plans refusals', async () => {
    const { url, child } = await serve('--port', '0', '--script', replies)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const client = openai(url)

    expect(await curl(`${url}/_agent-doubles/health`)).toEqual({ status: 200, body: { ok: true } })
    expect((await ask(client, 'weather in Paris?')).choices[0].message.content).toBe('Paris is sunny today.')

    const requests = await curl(`${url}/_agent-doubles/requests`)
    expect(requests.status).toBe(200)
    expect(requests.body).toHaveLength(1)
    expect(requests.body[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', dialect: 'openai-chat', model: 'gpt-4o' })
    expect(JSON.parse(requests.body[0].body)).toMatchObject({ messages: [{ role: 'user', content: 'weather in Paris?' }] })

    // A planned refusal is what the SDK throws, and is listed with its request.
    const refuse = await curl(`${url}/_agent-doubles/refuse`, '-X', 'POST', '-H', 'content-type: application/json', '-d', '{"code":"rate_limited","times":1}')
    expect(refuse).toEqual({ status: 200, body: { ok: true } })
    await expect(ask(client, 'again')).rejects.toMatchObject({ status: 429, code: 'rate_limited' })
    const refusals = await curl(`${url}/_agent-doubles/refusals`)
    expect(refusals.body).toEqual([expect.objectContaining({ code: 'rate_limited', status: 429, request: expect.objectContaining({ path: '/v1/chat/completions' }) })])

    // The refusal did not use a turn: the script's second reply comes next.
    expect((await ask(client, 'and tomorrow?')).choices[0].message.content).toBe('Bring sunglasses.')

    // Reset clears the records and starts the script over.
    expect(await curl(`${url}/_agent-doubles/reset`, '-X', 'POST')).toEqual({ status: 200, body: { ok: true } })
    expect((await curl(`${url}/_agent-doubles/requests`)).body).toEqual([])
    expect((await curl(`${url}/_agent-doubles/refusals`)).body).toEqual([])
    expect((await ask(client, 'once more')).choices[0].message.content).toBe('Paris is sunny today.')

    expect(await stop(child)).toBe(0)
  })

  test('PUT script loads a transcript (x-ndjson) or a JSON script (json) into the running serve', async () => {
    const { url } = await serve()
    const client = openai(url)

    const put = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: application/x-ndjson', '--data-binary', `@${transcript}`)
    expect(put).toEqual({ status: 200, body: { ok: true } })
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the weather in Paris?' }] })
    expect(first.choices[0].message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } })

    const json = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: application/json', '-d', '{"hello":"Hi from the script"}')
    expect(json.status).toBe(200)
    expect((await ask(client, 'hello there')).choices[0].message.content).toBe('Hi from the script')
  })

  test('the control API answers bad input with a clear JSON error', async () => {
    const { url } = await serve()
    const badCode = await curl(`${url}/_agent-doubles/refuse`, '-X', 'POST', '-H', 'content-type: application/json', '-d', '{"code":"nope"}')
    expect(badCode.status).toBe(400)
    expect(badCode.body.error.message).toMatch(/unknown refusal code "nope"; valid codes: .*rate_limited/)

    const badField = await curl(`${url}/_agent-doubles/refuse`, '-X', 'POST', '-H', 'content-type: application/json', '-d', '{"code":"rate_limited","count":2}')
    expect(badField).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('unknown field count') } } })

    const badType = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: text/plain', '-d', 'hi')
    expect(badType).toMatchObject({ status: 415, body: { error: { message: expect.stringContaining('application/x-ndjson') } } })

    const badTranscript = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: application/x-ndjson', '-d', '{"request":')
    expect(badTranscript.status).toBe(400)
    expect(badTranscript.body.error.message).toMatch(/line 1/)

    const badJson = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: application/json', '-d', '{oops')
    expect(badJson).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('not valid JSON') } } })

    // A rules file needs ScriptedLLM.fromRules (SPEC §14): 501 naming it in a build without it.
    const rules = await curl(`${url}/_agent-doubles/script`, '-X', 'PUT', '-H', 'content-type: application/json', '-d', '[{"match":{"lastUser":"hi"},"reply":"hello"}]')
    if (rules.status === 501) expect(rules.body.error.message).toMatch(/rules files need ScriptedLLM\.fromRules/)
    else expect(rules).toEqual({ status: 200, body: { ok: true } })

    const wrongMethod = await curl(`${url}/_agent-doubles/requests`, '-X', 'DELETE')
    expect(wrongMethod).toMatchObject({ status: 405, body: { error: { message: expect.stringContaining('use GET') } } })

    const unknown = await curl(`${url}/_agent-doubles/nope`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.message).toContain('POST /_agent-doubles/reset')
  })

  test('POST provider-error calls proxy.providerError, or answers 501 naming what is missing', async () => {
    const { url } = await serve()
    const answer = await curl(`${url}/_agent-doubles/provider-error`, '-X', 'POST', '-H', 'content-type: application/json', '-d', '{"name":"overloaded","times":1}')
    if (answer.status === 501) {
      expect(answer.body.error.message).toMatch(/provider errors need FakeProxy\.providerError/)
      return
    }
    expect(answer).toEqual({ status: 200, body: { ok: true } })
    await expect(ask(openai(url), 'hi')).rejects.toMatchObject({ status: 503 })
  })

  test('serve --transcript replays; SIGTERM closes it and the process exits 0', async () => {
    const { url, child } = await serve('--transcript', transcript, '--agents', 'researcher')
    const models = await openai(url).models.list()
    expect(models.data.length).toBeGreaterThan(0)
    const exited = once(child, 'exit') as Promise<[number | null]>
    children.delete(child)
    child.kill('SIGTERM')
    expect((await exited)[0]).toBe(0)
  })
})

describe('runCli (in-process)', () => {
  const io = () => {
    const out: string[] = []
    const err: string[] = []
    return { out, err, io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) } }
  }

  test('--version prints what it is given; an unknown top-level option is named', async () => {
    const a = io()
    expect(await runCli(['-v'], a.io, () => '9.9.9')).toEqual({ code: 0 })
    expect(a.out).toEqual(['9.9.9'])
    const b = io()
    expect(await runCli(['--verbose'], b.io, () => '9.9.9')).toEqual({ code: 2 })
    expect(b.err[0]).toMatch(/^\[agent-doubles\] unknown option --verbose\n/)
  })
})
