import { Session, type ClientFault, type SessionContext } from './session.js'
export class RealtimeSession extends Session {
  constructor(context: SessionContext) {
    super(context, 'openai-realtime')
  }
  protected onEvent(): void {}
  protected sendFault(fault: ClientFault): void {
    this.send({ type: 'error', error: { type: 'invalid_request_error', ...fault } })
  }
  protected onClosed(): void {}
}
