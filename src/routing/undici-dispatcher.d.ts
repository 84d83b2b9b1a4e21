// undici's Dispatcher base class and its Agent, each loaded on its own (see dispatcher.ts): the
// package's main module is typed, these files of it are not.
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici'
  const DispatcherClass: typeof Dispatcher
  export default DispatcherClass
}
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici'
  const AgentClass: typeof Agent
  export default AgentClass
}
