import type { Socket } from 'node:net'

/** Pipes `inner` and `outer` into each other, both tracked in `sockets` while open (see splice.mjs). */
export function splice(inner: Socket, outer: Socket, sockets: Set<Socket>): void
