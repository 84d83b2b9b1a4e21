// undici's Dispatcher base class, loaded on its own (see dispatcher.ts): the package's main
// module is typed, this file of it is not.
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici'
  const DispatcherClass: typeof Dispatcher
  export default DispatcherClass
}
