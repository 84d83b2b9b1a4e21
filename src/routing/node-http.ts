/**
 * The guard on `node:http` and `node:https`: `request` and `get` of both modules are replaced
 * (and ESM named imports of them re-synced), so `https.request('https://api.openai.com/…')` and
 * the clients built on these modules are routed or refused like any `fetch`.
 *
 * The modules are one per process: the hook is stacked (see `process-hook.ts`) on the `http`
 * module, and the last one out puts the original functions back.
 * @module
 */
import http from 'node:http'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import type { Socket } from 'node:net'
import { answeringSocket } from './answer.js'
import type { Decide } from './decision.js'
import { withHost } from './host-header.js'
import { stackedHook, type StackedHook } from './process-hook.js'

type RequestFn = typeof http.request
type Callback = (response: http.IncomingMessage) => void
type Module = { request: RequestFn; get: RequestFn }

interface Originals {
  http: Module
  https: Module
}

interface HttpHook extends StackedHook {
  originals: Originals
  installed: Originals
}

const KEY = Symbol.for('agent-doubles.node-http-hook')
const modules = { http: http as unknown as Module, https: https as unknown as Module }

/** What a `request(url?, options?, callback?)` call asks for, read as Node reads it. */
interface ResolvedCall {
  url: URL | undefined
  options: http.RequestOptions
  callback: Callback | undefined
}

/** A WHATWG URL from this realm or another: Node takes it as a URL too. */
function isUrlLike(value: unknown): value is URL {
  return value instanceof URL || (typeof value === 'object' && value !== null && typeof (value as URL).href === 'string' && typeof (value as URL).protocol === 'string' && typeof (value as URL).searchParams === 'object')
}

/** The URL `options` point at, or `undefined` for a Unix socket or options Node would refuse. */
function optionsUrl(options: http.RequestOptions, defaultProtocol: string): URL | undefined {
  if (options.socketPath) return undefined
  const protocol = options.protocol ?? defaultProtocol
  const hostname = options.hostname ?? options.host ?? 'localhost'
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname
  const port = options.port === undefined || options.port === null || options.port === '' ? '' : `:${options.port}`
  try {
    return new URL(`${protocol}//${host}${port}${options.path ?? '/'}`)
  } catch {
    return undefined
  }
}

function resolveCall(args: unknown[], defaultProtocol: string): ResolvedCall | undefined {
  const [input, second, third] = args
  let options: http.RequestOptions
  let callback: unknown
  try {
    const fromUrl = typeof input === 'string' ? urlOptions(new URL(input)) : isUrlLike(input) ? urlOptions(input) : undefined
    if (fromUrl) {
      if (typeof second === 'function') [options, callback] = [fromUrl, second]
      else [options, callback] = [{ ...fromUrl, ...(second as http.RequestOptions | undefined) }, third]
    } else {
      if (input !== undefined && (input === null || typeof input !== 'object')) return undefined
      ;[options, callback] = typeof second === 'function' ? [{ ...(input as object) }, second] : [{ ...(input as object), ...(second as object | undefined) }, third]
    }
  } catch {
    return undefined // Node throws the same error for it
  }
  return { url: optionsUrl(options, defaultProtocol), options, callback: typeof callback === 'function' ? (callback as Callback) : undefined }
}

/** Node's own reading of a URL into request options (`urlToHttpOptions`, without importing its quirks). */
function urlOptions(url: URL): http.RequestOptions {
  const options: http.RequestOptions = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    path: `${url.pathname || '/'}${url.search}`,
  }
  if (url.port !== '') options.port = Number(url.port)
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
  return options
}

/**
 * The same request to `from`, aimed at `target`; an agent (or socket factory) of the other
 * protocol is dropped for the target's default one.
 */
function routedOptions(options: http.RequestOptions, from: URL, target: URL): http.RequestOptions {
  const { host: _host, hostname: _hostname, port: _port, path: _path, protocol: _protocol, agent, createConnection, defaultPort, ...rest } = options
  const sameProtocol = from.protocol === target.protocol
  const routed: http.RequestOptions = {
    ...rest,
    protocol: target.protocol,
    hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
    path: `${target.pathname}${target.search}`,
    headers: withHost(options.headers, target.host),
  }
  if (target.port !== '') routed.port = Number(target.port)
  if (agent !== undefined && sameProtocol) routed.agent = agent
  // A socket factory of the other protocol (the `ws` package's TLS one for `wss://`) would speak
  // TLS to a plain server: the target's protocol makes its own socket.
  if (createConnection !== undefined && sameProtocol) routed.createConnection = createConnection
  if (defaultPort !== undefined && sameProtocol) routed.defaultPort = defaultPort
  return routed
}

function guardedRequest(hook: HttpHook, scheme: keyof Originals): RequestFn {
  const defaultProtocol = `${scheme}:`
  return function request(this: unknown, ...args: unknown[]) {
    const original = hook.originals[scheme].request as (...a: unknown[]) => http.ClientRequest
    const decide = hook.deciders.at(-1)
    const call = decide && resolveCall(args, defaultProtocol)
    if (!decide || !call?.url) return original.apply(this, args)
    const decision = decide(call.url, (call.options.method ?? 'GET').toUpperCase())
    if (decision.action === 'pass') return original.apply(this, args)
    if (decision.action === 'route') {
      const send = hook.originals[decision.url.protocol === 'https:' ? 'https' : 'http'].request
      return send(routedOptions(call.options, call.url, decision.url), call.callback)
    }
    // A request that never gets a socket: Node emits the error on it, and nothing is sent; or,
    // with an answer, a socket that only answers it.
    const { agent: _agent, ...options } = call.options
    const { answer } = decision
    const refused: http.RequestOptions = {
      ...options,
      createConnection: () => {
        if (answer) return answeringSocket(answer) as unknown as Socket
        throw decision.error
      },
    }
    return original.call(this, refused, call.callback)
  } as RequestFn
}

function guardedGet(request: RequestFn): RequestFn {
  return function get(...args: unknown[]) {
    const req = (request as (...a: unknown[]) => http.ClientRequest)(...args)
    req.end()
    return req
  } as RequestFn
}

function createHook(): HttpHook {
  const originals: Originals = {
    http: { request: modules.http.request, get: modules.http.get },
    https: { request: modules.https.request, get: modules.https.get },
  }
  const hook: HttpHook = { originals, installed: originals, deciders: [] }
  const httpRequest = guardedRequest(hook, 'http')
  const httpsRequest = guardedRequest(hook, 'https')
  hook.installed = {
    http: { request: httpRequest, get: guardedGet(httpRequest) },
    https: { request: httpsRequest, get: guardedGet(httpsRequest) },
  }
  return hook
}

function setFunctions(from: Originals, to: Originals): void {
  for (const scheme of ['http', 'https'] as const) {
    for (const name of ['request', 'get'] as const) {
      // Someone who replaced ours keeps theirs.
      if (modules[scheme][name] === from[scheme][name]) modules[scheme][name] = to[scheme][name]
    }
  }
  syncBuiltinESMExports()
}

/**
 * Puts `decide` in front of `http.request`, `http.get`, `https.request` and `https.get` until
 * the returned function runs.
 */
export const hookNodeHttp: (decide: Decide) => () => void = stackedHook(http, KEY, {
  create: createHook,
  put: (hook) => setFunctions(hook.originals, hook.installed),
  takeOff: (hook) => setFunctions(hook.installed, hook.originals),
})
