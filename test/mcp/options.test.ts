import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { FakeMcpServer, fakeMcpServer } from '../../src/index.js'
import { missingPeerError } from '../../src/mcp/sdk.js'

describe('bad arguments are TypeErrors naming the double, the value and what was expected', () => {
  test('options', () => {
    expect(() => fakeMcpServer({ nmae: 'x' } as never)).toThrow(/\[agent-doubles\] FakeMcpServer: unknown option "nmae"; expected one of name, version/)
    expect(() => fakeMcpServer({ tools: [] as never })).toThrow(/option tools must be an object of tool definitions by name, got an array of 0/)
    expect(() => fakeMcpServer('weather' as never)).toThrow(/options must be an object, got "weather"/)
  })

  test('tool definitions', () => {
    expect(() => fakeMcpServer({ tools: { t: 'sunny' as never } })).toThrow(/FakeMcpServer tool "t": the definition must be an object/)
    expect(() => fakeMcpServer({ tools: { t: { respones: 'x' } as never } })).toThrow(/FakeMcpServer tool "t": unknown option "respones"/)
    expect(() => fakeMcpServer({ tools: { t: { inputSchema: 'string' as never } } })).toThrow(/inputSchema must be a Standard Schema .* or a JSON Schema object, got "string"/)
    expect(() => fakeMcpServer({ tools: { t: { inputSchema: { type: 'string' } as never } } })).toThrow(/an object schema .*as MCP requires/)
    expect(() => fakeMcpServer({ tools: { t: { inputSchema: z.string() } } })).toThrow(/inputSchema must describe an object, as MCP requires; it describes "string"/)
    expect(() => fakeMcpServer({ tools: { t: { cycle: 'yes' as never } } })).toThrow(/option cycle must be a boolean, got "yes"/)
    expect(() => fakeMcpServer().tool('', {})).toThrow(/FakeMcpServer tool\(\): name must be a non-empty string, got ""/)
  })

  test('resources and prompts', () => {
    expect(() => fakeMcpServer({ resources: { 'file:///a': { text: 'a', blob: 'YQ==' } } })).toThrow(/resource "file:\/\/\/a": the resource must be given exactly one of text and blob/)
    expect(() => fakeMcpServer({ resources: { 'file:///a': 3 as never } })).toThrow(/must be a string or \{ text \| blob/)
    expect(() => fakeMcpServer({ prompts: { p: {} as never } })).toThrow(/prompt "p": messages must be an array of \{ role, content \}/)
    expect(() => fakeMcpServer({ prompts: { p: { messages: [{ role: 'system', content: 'x' }] as never } } })).toThrow(/prompt "p": option messages must be/)
  })

  test('lifecycle misuse is an Error saying what to do', async () => {
    const mcp = new FakeMcpServer()
    expect(() => mcp.url).toThrow(/url read while it is not running; await mcp.start\(\) first/)
    await expect(mcp.listChanged()).rejects.toThrow(/listChanged\(\) called while it is not running/)
    await expect(mcp.start({ port: -1 })).rejects.toThrow(/option port must be an integer from 0 to 65535, got -1/)
    await mcp.start()
    try {
      await expect(mcp.start()).rejects.toThrow(/start\(\) called while it is running \(at http:\/\/127\.0\.0\.1:\d+\/mcp\)/)
      expect(mcp).toBeInstanceOf(FakeMcpServer)
    } finally {
      await mcp.close()
    }
    await mcp.close()
    expect(() => mcp.url).toThrow(/not running/)
  })

  test('`await using` closes it', async () => {
    let url: string
    {
      await using mcp = await fakeMcpServer().start()
      url = mcp.url
    }
    await expect(fetch(url)).rejects.toThrow()
  })
})

describe('a missing @modelcontextprotocol/sdk', () => {
  test('names the package and the command that installs it', () => {
    const notFound = Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk' imported from /app/dist/index.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    const error = missingPeerError('FakeMcpServer', notFound)
    expect(error.message).toBe(
      '[agent-doubles] FakeMcpServer: start() needs the optional peer dependency @modelcontextprotocol/sdk (1.22 or later); ' +
        'install it with: npm install --save-dev @modelcontextprotocol/sdk',
    )
    expect(error.cause).toBe(notFound)
  })

  test('an older SDK without the entry points the fake needs is named the same way', () => {
    const tooOld = Object.assign(new Error("Package subpath './validation/ajv' is not defined by \"exports\" in /app/node_modules/@modelcontextprotocol/sdk/package.json"), {
      code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    })
    expect(missingPeerError('FakeMcpServer', tooOld).message).toContain('1.22 or later')
  })

  test('any other failure is passed on as the cause', () => {
    const broken = new SyntaxError('Unexpected token')
    const error = missingPeerError('FakeMcpServer', broken)
    expect(error.message).toBe('[agent-doubles] FakeMcpServer: loading @modelcontextprotocol/sdk failed: Unexpected token')
    expect(error.cause).toBe(broken)
  })
})
