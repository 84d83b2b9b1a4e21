// The socket-forwarding loop both ends of the namespace bridge share: netns-relay.mjs inside the
// namespace (a runtime's TCP connection to a Unix socket) and netns.ts outside it (that Unix
// socket to the test's server). Plain JavaScript: the relay runs on bare Node, without a loader.

/**
 * Pipes `inner` and `outer` into each other, both tracked in `sockets` while open: when either
 * ends or fails, both are destroyed and forgotten.
 * @param {import('node:net').Socket} inner
 * @param {import('node:net').Socket} outer
 * @param {Set<import('node:net').Socket>} sockets
 */
export function splice(inner, outer, sockets) {
  sockets.add(inner).add(outer)
  const end = () => {
    inner.destroy()
    outer.destroy()
    sockets.delete(inner)
    sockets.delete(outer)
  }
  inner.on('error', end).on('close', end)
  outer.on('error', end).on('close', end)
  inner.pipe(outer)
  outer.pipe(inner)
}
