/**
 * `agent-doubles serve`: a FakeProxy in the foreground, for agents written in any language
 * (SPEC §5.9, §15). Prints the URL, serves the control API, closes cleanly on SIGINT/SIGTERM.
 * @module
 */
import { parseArgs } from 'node:util'
import { PREFIX } from '../internal/describe.js'
import { llmFromRulesFile, llmFromScriptFile } from '../llm/load-script.js'
import { ScriptedLLM } from '../llm/scripted-llm.js'
import { FakeProxy, type FakeProxyOptions } from '../server/fake-proxy.js'
import { serveHelp, serveUsage } from './help.js'
import { parseChaosFlag, parseLatencyFlag, parseRateLimitFlag } from './chaos-flag.js'

export { serveUsage as usage } from './help.js'

const OPTIONS = {
  port: { type: 'string' },
  agents: { type: 'string' },
  strict: { type: 'boolean' },
  script: { type: 'string' },
  transcript: { type: 'string' },
  rules: { type: 'string' },
  record: { type: 'string' },
  'upstream-openai': { type: 'string' },
  'upstream-anthropic': { type: 'string' },
  chaos: { type: 'string' },
  latency: { type: 'string' },
  'rate-limit': { type: 'string' },
  'request-timeout': { type: 'string' },
  'max-body-values': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** A bad command line: the message, then the usage. */
export function usageError(message: string, usage = serveUsage): TypeError {
  return new TypeError(`${PREFIX} ${message}\n\n${usage}`)
}

/** `parseArgs`, with its errors rewritten as one clear line and the usage. */
function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS })
  } catch (error) {
    const code = (error as { code?: string }).code
    const message = error instanceof Error ? error.message : String(error)
    const name = /'(-[^' ]+)/.exec(message)?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usageError(`serve: unknown option ${name ?? message}`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw usageError(`serve: ${name ?? 'an option'} needs a value`)
    throw usageError(`serve: ${message}`)
  }
}

/** `--request-timeout ms`: a positive whole number of milliseconds, as `requestTimeoutMs` takes. */
function parseRequestTimeout(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw usageError(`serve: --request-timeout must be a positive whole number of milliseconds, got ${JSON.stringify(text)}`)
  }
  return ms
}

/** `--max-body-values n`: a positive whole number, as `maxBodyValues` takes. */
function parseMaxBodyValues(text: string): number {
  const count = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw usageError(`serve: --max-body-values must be a positive whole number, got ${JSON.stringify(text)}`)
  }
  return count
}

/**
 * Parses the arguments (starting with `serve`), starts the proxy, prints its URL with `log`
 * and resolves with it; resolves with `undefined` after printing the help for `--help`.
 * @throws {TypeError} the arguments are wrong (the message ends with the usage).
 */
export async function serve(argv: string[], log: (line: string) => void = console.log): Promise<FakeProxy | undefined> {
  const { values, positionals } = parse(argv)
  if (positionals[0] !== 'serve') throw usageError(`expected the command serve, got ${positionals[0] === undefined ? 'none' : JSON.stringify(positionals[0])}`)
  if (positionals.length > 1) throw usageError(`serve: unexpected argument ${JSON.stringify(positionals[1])}`)
  if (values.help) {
    log(serveHelp.trimEnd())
    return undefined
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (values.port === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw usageError(`serve: --port must be an integer from 0 to 65535, got ${values.port}`)
  }
  const brains = (['script', 'transcript', 'rules'] as const).filter((name) => values[name] !== undefined)
  if (brains.length > 1) throw usageError(`serve: --${brains.join(' and --')} each choose the brain; give one`)

  const options: FakeProxyOptions = { controlApi: true }
  if (values.agents) options.agents = values.agents.split(',').map((name) => name.trim()).filter(Boolean)
  if (values.strict) options.strict = true
  if (values.script) options.llm = await llmFromScriptFile(values.script, 'serve --script')
  if (values.transcript) options.llm = await ScriptedLLM.fromTranscript(values.transcript)
  if (values.rules) options.llm = await llmFromRulesFile(values.rules, 'serve --rules')
  const flagError = (message: string): TypeError => usageError(`serve: ${message}`)
  if (values.chaos !== undefined) options.chaos = parseChaosFlag(values.chaos, flagError)
  if (values.latency !== undefined) options.latency = parseLatencyFlag(values.latency, flagError)
  if (values['rate-limit'] !== undefined) options.rateLimit = parseRateLimitFlag(values['rate-limit'], flagError)
  if (values['request-timeout'] !== undefined) options.requestTimeoutMs = parseRequestTimeout(values['request-timeout'])
  if (values['max-body-values'] !== undefined) options.maxBodyValues = parseMaxBodyValues(values['max-body-values'])
  const upstream = {
    ...(values['upstream-openai'] ? { openai: values['upstream-openai'] } : {}),
    ...(values['upstream-anthropic'] ? { anthropic: values['upstream-anthropic'] } : {}),
  }
  if (values.record && Object.keys(upstream).length === 0) {
    throw usageError('serve: --record needs --upstream-openai URL or --upstream-anthropic URL to forward to')
  }
  if (!values.record && Object.keys(upstream).length > 0) {
    throw usageError('serve: --upstream-openai and --upstream-anthropic need --record file.jsonl')
  }
  if (values.record) {
    Object.assign(options, { upstream, record: values.record })
  }

  const proxy = await new FakeProxy(options).start({ port })
  log(proxy.url)
  return proxy
}
