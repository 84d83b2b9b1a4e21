/**
 * The official MCP SDK, loaded when a FakeMcpServer starts — never when `agent-doubles` is
 * imported: it is an optional peer dependency, so that users who never fake an MCP server do not
 * install it or pay for loading it.
 * @module
 */
import { PREFIX } from '../internal/describe.js'
import type { JsonSchemaCompiler } from './tool-set.js'

type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js')
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js')
type HttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')

/** The parts of the SDK the fake uses. @internal */
export interface McpSdk {
  Server: ServerModule['Server']
  StreamableHTTPServerTransport: HttpModule['StreamableHTTPServerTransport']
  schemas: Pick<
    TypesModule,
    | 'ListToolsRequestSchema'
    | 'CallToolRequestSchema'
    | 'ListResourcesRequestSchema'
    | 'ListResourceTemplatesRequestSchema'
    | 'ReadResourceRequestSchema'
    | 'ListPromptsRequestSchema'
    | 'GetPromptRequestSchema'
  >
  /** Compiles JSON Schemas with the SDK's own Ajv validator, as its clients and servers do. */
  compile: JsonSchemaCompiler
}

/** The package users must install to start a FakeMcpServer. */
export const MCP_SDK_PACKAGE = '@modelcontextprotocol/sdk'

let loading: Promise<McpSdk> | undefined

/**
 * Loads the SDK once per process.
 * @throws {Error} naming the package to install when it is missing or too old.
 */
export function loadMcpSdk(owner: string): Promise<McpSdk> {
  loading ??= importSdk().catch((error: unknown) => {
    loading = undefined
    throw missingPeerError(owner, error)
  })
  return loading
}

async function importSdk(): Promise<McpSdk> {
  const [server, types, http, ajv] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ])
  const validator = new ajv.AjvJsonSchemaValidator()
  return {
    Server: server.Server,
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    schemas: types,
    compile: (schema) => validator.getValidator(schema as never),
  }
}

/**
 * The error `start()` rejects with when the SDK cannot be loaded: a missing or too old package
 * is named with the command that installs it; any other failure is passed on as its cause.
 */
export function missingPeerError(owner: string, error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code
  const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED'
  if (missing && String((error as Error).message).includes(MCP_SDK_PACKAGE)) {
    return new Error(
      `${PREFIX} ${owner}: start() needs the optional peer dependency ${MCP_SDK_PACKAGE} (1.22 or later); ` +
        `install it with: npm install --save-dev ${MCP_SDK_PACKAGE}`,
      { cause: error },
    )
  }
  return new Error(`${PREFIX} ${owner}: loading ${MCP_SDK_PACKAGE} failed: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  })
}
