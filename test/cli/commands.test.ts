/**
 * Every command explains itself (SPEC §22), run as a user runs it — a child process — from the
 * sources: `--help` lists every command; every command answers `--help` and `-h`; an unknown
 * command or option prints one clear line and the usage on stderr and exits 2.
 */
import { describe, expect, test } from 'vitest'
import { commands, mainHelp, mcpHelp, serveHelp } from '../../src/cli/help.js'
import { runCli } from './run-cli.js'

// Each run starts node and compiles the sources with tsx: seconds each on a loaded machine.
const slow = 90_000

describe('agent-doubles --help', () => {
  test('lists every command, serve and mcp included, with a summary each', async () => {
    const help = await runCli('--help')
    expect(help).toEqual({ code: 0, stdout: `${mainHelp.trimEnd()}\n`, stderr: '' })
    for (const name of ['serve', 'mcp', 'help']) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'))
    expect(Object.keys(commands)).toEqual(['serve', 'mcp', 'help'])
    const [short, command] = await Promise.all([runCli('-h'), runCli('help')])
    expect(short).toEqual(help)
    expect(command).toEqual(help)
  }, slow)

  test.each([
    ['serve', serveHelp, /^Usage: agent-doubles serve /],
    ['mcp', mcpHelp, /^Usage: agent-doubles mcp --config file\.json/],
  ])('%s answers --help, -h and `help <command>` with its own help, exit 0', async (name, text, usage) => {
    // --help wins over other arguments, even ones that would be wrong.
    const [long, short, command, mixed] = await Promise.all([
      runCli(name, '--help'), runCli(name, '-h'), runCli('help', name), runCli(name, '--config', 'missing.json', '-h'),
    ])
    expect(long).toEqual({ code: 0, stdout: `${text.trimEnd()}\n`, stderr: '' })
    expect(long.stdout).toMatch(usage)
    expect(short).toEqual(long)
    expect(command).toEqual(long)
    expect(mixed).toEqual(long)
  }, slow)
})

describe('bad command lines: one clear line, the usage, exit 2', () => {
  test('an unknown command names itself and the commands there are', async () => {
    const result = await runCli('srve')
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`[agent-doubles] unknown command "srve" (the commands are serve, mcp, help)\n\n${mainHelp.trimEnd()}\n`)
  }, slow)

  test('an unknown top-level option, no command, or help about a command that does not exist', async () => {
    const [option, none, help] = await Promise.all([runCli('--verbose'), runCli(), runCli('help', 'nope')])
    expect(option).toEqual({ code: 2, stdout: '', stderr: `[agent-doubles] unknown option --verbose\n\n${mainHelp.trimEnd()}\n` })
    expect(none).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^\[agent-doubles\] no command given\n\nagent-doubles — /) })
    expect(help).toMatchObject({ code: 2, stderr: expect.stringMatching(/^\[agent-doubles\] help: unknown command "nope"\n\n/) })
  }, slow)

  test('serve: an unknown option or a stray argument', async () => {
    const [option, stray] = await Promise.all([runCli('serve', '--prot', '80'), runCli('serve', 'now')])
    expect(option).toMatchObject({ code: 2, stdout: '' })
    expect(option.stderr).toMatch(/^\[agent-doubles\] serve: unknown option --prot\n\nUsage: agent-doubles serve \[--port N\]/)
    expect(stray).toMatchObject({ code: 2, stdout: '' })
    expect(stray.stderr).toMatch(/^\[agent-doubles\] serve: unexpected argument "now"\n\nUsage: agent-doubles serve/)
  }, slow)

  test('mcp: an unknown option, a stray argument, or no --config', async () => {
    const [option, stray, none] = await Promise.all([runCli('mcp', '--port', '3'), runCli('mcp', 'extra', '--config', 'x.json'), runCli('mcp')])
    expect(option).toEqual({ code: 2, stdout: '', stderr: '[agent-doubles] mcp: unknown option --port\n\nUsage: agent-doubles mcp --config file.json\n' })
    expect(stray).toMatchObject({ code: 2, stderr: expect.stringMatching(/^\[agent-doubles\] mcp: unexpected argument "extra"\n\nUsage: agent-doubles mcp/) })
    expect(none).toEqual({ code: 2, stdout: '', stderr: '[agent-doubles] mcp: --config file.json is required\n\nUsage: agent-doubles mcp --config file.json\n' })
  }, slow)

  test('a config that cannot be read is a failure (exit 1) that names the file, not a usage error', async () => {
    const result = await runCli('mcp', '--config', '/nonexistent/weather.json')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^\[agent-doubles\] agent-doubles mcp: cannot read --config \/nonexistent\/weather\.json: ENOENT/)
  }, slow)
})
