/**
 * The texts `agent-doubles --help`, `agent-doubles serve --help` and `agent-doubles mcp --help`
 * print. One place, so the command list and each command's usage never disagree.
 * @module
 */

/** The commands, in the order `--help` lists them, with their one-line summaries. */
export const commands = {
  serve: 'run a FakeProxy (fake LLM gateway) in the foreground, for agents in any language',
  mcp: 'run a FakeMcpServer over stdio, for MCP clients that spawn their servers',
  help: 'show this help, or a command\'s help (agent-doubles help serve)',
} as const

/** A command's name. */
export type CommandName = keyof typeof commands

/** The whole command's usage line. */
export const mainUsage = 'Usage: agent-doubles <command> [options]'

/** The whole command's help. */
export const mainHelp = `agent-doubles — test doubles for LLM agents

${mainUsage}

Commands:
${Object.entries(commands).map(([name, summary]) => `  ${name.padEnd(13)}${summary}`).join('\n')}

Options:
  -h, --help     show this help (every command also answers --help and -h)
  -v, --version  print the version

Both serve and mcp exit on SIGINT/SIGTERM and when the process that started them goes away
(so an npx wrapper stopped by a test harness leaves no orphan behind).
Run \`agent-doubles <command> --help\` for a command's options.
`

/** The usage lines of `serve`, printed with every bad-argument error. */
export const serveUsage = `Usage: agent-doubles serve [--port N] [--agents a,b] [--strict]
                          [--script file | --transcript file.jsonl | --rules file.json]
                          [--record file.jsonl --upstream-openai URL --upstream-anthropic URL]
                          [--chaos seed:rate[:kinds]] [--latency ttftMs[:tps[:jitter]]]
                          [--rate-limit rpm[:tpm]] [--request-timeout ms] [--max-body-values N]`

/** `serve --help`. */
export const serveHelp = `${serveUsage}

Runs a FakeProxy on 127.0.0.1, prints its URL on the first line of output, and closes cleanly on
SIGINT/SIGTERM or when its parent process goes away. The control API under /_agent-doubles/ is on.

Options:
  --port N               port to listen on (default: a free port)
  --agents a,b           agent names enrolled (default: every valid name)
  --strict               refuse model requests that name no agent (agent_required)
  --script file          the brain: a JSONL transcript (.jsonl) or a JSON script (.json:
                         a reply map or an array of replies)
  --transcript file      the brain: a JSONL transcript to replay
  --rules file.json      the brain: a rules file ([{ match, reply, times? }])
  --record file.jsonl    record mode: forward to the upstreams and append each turn to the file
  --upstream-openai URL  where OpenAI-dialect requests are forwarded (with --record)
  --upstream-anthropic URL
                         where Anthropic requests are forwarded (with --record)
  --chaos seed:rate[:kinds]
                         seeded chaos: each model request gets, with probability rate, one of
                         kinds (comma-separated misbehaviours, provider errors, disconnect,
                         stall, malformed; default: every misbehaviour, rate_limit, overloaded,
                         server_error, disconnect, malformed)
  --latency ttftMs[:tokensPerSecond[:jitter]]
                         paced streams: the first delta after ttftMs, the rest at the token rate
  --rate-limit rpm[:tpm] rate_limit errors past rpm requests or tpm tokens a minute
  --request-timeout ms   time a request's headers and body have to arrive before a 408
                         and the connection is closed (default: 60000)
  --max-body-values N    the most JSON values a request body may hold; a body with more gets
                         the route's 400 before it is parsed (default: 300000)
  -h, --help             show this help

Control API (JSON):
  GET  /_agent-doubles/health          { ok: true }
  GET  /_agent-doubles/requests        the requests that got through, oldest first
  GET  /_agent-doubles/refusals        the refusals, oldest first
  POST /_agent-doubles/reset           clear records and plans; the script starts over
  PUT  /_agent-doubles/script          a transcript (application/x-ndjson), or a JSON script or
                                       rules file (application/json)
  POST /_agent-doubles/refuse          { code, times?, message? }
  POST /_agent-doubles/provider-error  { name, times?, message?, retryAfterS? }
  POST /_agent-doubles/misbehave       { kind, times?, at?, text?, tool? }
  POST /_agent-doubles/chaos           { seed?, rate, kinds? }; DELETE turns it off
`

/** The usage line of `mcp`, printed with every bad-argument error. */
export const mcpUsage = 'Usage: agent-doubles mcp --config file.json'

/** `mcp --help`. */
export const mcpHelp = `${mcpUsage}

Serves a FakeMcpServer over stdio (stdin/stdout carry the MCP protocol; errors go to stderr),
for MCP clients that spawn their servers. Stops when stdin ends, on SIGINT/SIGTERM, or when its
parent process goes away.

Options:
  --config file.json     the server: the options of fakeMcpServer() as JSON — name, version,
                         instructions, tools ({ name: { inputSchema, responses } }), resources,
                         prompts
  -h, --help             show this help
`
