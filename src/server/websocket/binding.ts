/**
 * The server side of the WebSocket transports that `FakeProxy.start()` loads (with `ws`): the
 * hub and the upgrade handler, lane routing included.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ProxyState } from '../handle-request.js'
import { laneHeaderOf, noLaneAnswer, type LaneTable } from '../lanes.js'
import { LiveSession } from './live-session.js'
import { RealtimeSession } from './realtime-session.js'
import { ResponsesSession } from './responses-session.js'
import { WebSocketHub, turnAwayUpgrade } from './upgrade.js'

/** A hub serving the three transports of SPEC §18. */
export function webSocketHub(): WebSocketHub {
  return new WebSocketHub({
    'openai-responses': (context) => new ResponsesSession(context),
    'openai-realtime': (context) => new RealtimeSession(context),
    'gemini-live': (context) => new LiveSession(context),
  })
}

/**
 * The server's `upgrade` listener: the lane the URL (or the `x-agent-doubles-lane` header) names,
 * as for HTTP, then the hub. An upgrade that reaches no lane is refused and recorded on the
 * proxy itself, as a turned-away HTTP request is.
 */
export function upgradeHandler(hub: WebSocketHub, lanes: LaneTable, root: ProxyState): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const choice = lanes.choose(req.url ?? '/', root, laneHeaderOf(req))
    if (choice.kind === 'lane') return hub.accept(req, socket, head, choice.state, choice.url)
    const path = choice.url.split('?')[0] ?? '/'
    const { status, message } = noLaneAnswer(choice, 'WebSocket')
    turnAwayUpgrade(req, socket, root, status, path, message)
  }
}
