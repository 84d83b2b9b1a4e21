/**
 * The server side of the WebSocket transports that `FakeProxy.start()` loads (with `ws`): the
 * hub and the upgrade handler, lane routing included.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ProxyState } from '../handle-request.js'
import type { LaneTable } from '../lanes.js'
import { LiveSession } from './live-session.js'
import { RealtimeSession } from './realtime-session.js'
import { ResponsesSession } from './responses-session.js'
import { WebSocketHub, refuseUpgrade } from './upgrade.js'

/** A hub serving the three transports of SPEC §18. */
export function webSocketHub(): WebSocketHub {
  return new WebSocketHub({
    'openai-responses': (context) => new ResponsesSession(context),
    'openai-realtime': (context) => new RealtimeSession(context),
    'gemini-live': (context) => new LiveSession(context),
  })
}

/** The server's `upgrade` listener: the lane the URL names (as for HTTP), then the hub. */
export function upgradeHandler(hub: WebSocketHub, lanes: LaneTable, root: ProxyState): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const choice = lanes.choose(req.url ?? '/', root)
    if (choice.kind === 'lane') return hub.accept(req, socket, head, choice.state, choice.url)
    const path = choice.url.split('?')[0] ?? '/'
    if (choice.kind === 'closed') {
      return refuseUpgrade(socket, 404, path, `[agent-doubles] FakeProxy lane ${choice.name === undefined ? `~${choice.id}` : `"${choice.name}" (~${choice.id})`} is closed; a lane lives as long as the test that took it`)
    }
    refuseUpgrade(
      socket,
      409,
      path,
      `[agent-doubles] FakeProxy: this WebSocket names no lane and ${choice.tests.length} tests are running (${choice.tests.map((name) => JSON.stringify(name)).join(', ')}); build the client from fakeProxy.url (the test's own lane)`,
    )
  }
}
