/**
 * `agent-doubles serve`: a FakeProxy in the foreground, for agents written in any language
 * (SPEC §5.9). Prints the URL, closes cleanly on SIGINT/SIGTERM.
 * @module
 */
import { parseArgs } from 'node:util'
import { FakeProxy, type FakeProxyOptions } from '../proxy/fake-proxy.js'
import { ScriptedLLM } from '../llm/scripted-llm.js'

/** The usage line printed on bad arguments. */
export const usage = `Usage: agent-doubles serve [--port N] [--agents a,b] [--strict] [--transcript file.jsonl] [--rules file.json]
                          [--record file.jsonl --upstream-openai URL --upstream-anthropic URL]`

/** Parses the arguments, starts the proxy, and resolves with it (tests call this directly). */
export async function serve(argv: string[], log: (line: string) => void = console.log): Promise<FakeProxy> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      agents: { type: 'string' },
      strict: { type: 'boolean' },
      transcript: { type: 'string' },
      rules: { type: 'string' },
      record: { type: 'string' },
      'upstream-openai': { type: 'string' },
      'upstream-anthropic': { type: 'string' },
    },
  })
  if (positionals[0] !== 'serve' || positionals.length > 1) throw new TypeError(usage)
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(`[agent-doubles] serve: --port must be an integer from 0 to 65535, got ${values.port}`)
  }

  const options: FakeProxyOptions = {}
  if (values.agents) options.agents = values.agents.split(',').map((name) => name.trim()).filter(Boolean)
  if (values.strict) options.strict = true
  if (values.transcript && values.rules) throw new TypeError('[agent-doubles] serve: give --transcript or --rules, not both')
  if (values.transcript) options.llm = await ScriptedLLM.fromTranscript(values.transcript)
  if (values.rules) options.llm = await ScriptedLLM.fromRules(values.rules)
  const upstream = {
    ...(values['upstream-openai'] ? { openai: values['upstream-openai'] } : {}),
    ...(values['upstream-anthropic'] ? { anthropic: values['upstream-anthropic'] } : {}),
  }
  if (values.record && Object.keys(upstream).length === 0) {
    throw new TypeError('[agent-doubles] serve: --record needs --upstream-openai URL or --upstream-anthropic URL to forward to')
  }
  if (!values.record && Object.keys(upstream).length > 0) {
    throw new TypeError('[agent-doubles] serve: --upstream-openai and --upstream-anthropic need --record file.jsonl')
  }
  if (values.record) {
    Object.assign(options, { upstream, record: values.record })
  }

  const proxy = await new FakeProxy(options).start({ port })
  log(proxy.url)
  return proxy
}
