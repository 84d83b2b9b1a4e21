/**
 * Waiting for room in a response: what every answer written piece by piece does when a write
 * reports a full buffer (SSE and the other stream framings, JSON in pieces, a forwarded upstream body).
 * @module
 */
import type { ServerResponse } from 'node:http'

/**
 * Settles when `res` (or its socket) can take more, or is gone (`close`), leaving no listener
 * behind. Node 22+ does not flag (or later `drain`) a response for what it took while its socket
 * was corked, so the socket is waited on when it is the one that is full.
 */
export function drainedOrClosed(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve()
  const drains: NodeJS.EventEmitter = res.socket?.writableNeedDrain ? res.socket : res
  return new Promise((resolve) => {
    const done = (): void => {
      drains.off('drain', done)
      res.off('close', done)
      resolve()
    }
    drains.on('drain', done)
    res.on('close', done)
  })
}

/** A promise that settles when `res` closes (answer sent, client gone, or socket destroyed). */
export function closed(res: ServerResponse): Promise<void> {
  if (res.closed || res.destroyed) return Promise.resolve()
  return new Promise((resolve) => res.once('close', () => resolve()))
}
