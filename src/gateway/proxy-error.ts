/**
 * `ProxyError`, its subclasses per refusal code, and `proxyError(err)`, which finds the proxy's
 * refusal inside an error thrown by `openai`, `@anthropic-ai/sdk`, the AI SDK or `ProxyClient`.
 * The classes and the reader live in two files that this one joins, so neither imports the other
 * back.
 * @module
 */
export * from './proxy-error-classes.js'
export { proxyError } from './read-proxy-error.js'
