// Runs inside a fresh network namespace that holds only loopback (see netns-exec.sh): listens on
// 127.0.0.1:<port> there, relays every connection to the test's FakeProxy through a Unix socket
// (a path on the file system, which every namespace reaches), then runs the runtime and exits
// with its status. The runtime sees the FakeProxy's own URL, and nothing else.
import { spawn } from 'node:child_process'
import { connect, createServer } from 'node:net'

const bridge = process.env.AGENT_DOUBLES_NETNS_BRIDGE
const port = Number(process.env.AGENT_DOUBLES_NETNS_PORT)
const [command, ...args] = process.argv.slice(2)
if (!bridge || !Number.isInteger(port) || !command) {
  console.error('netns-relay: AGENT_DOUBLES_NETNS_BRIDGE, AGENT_DOUBLES_NETNS_PORT and a command are needed')
  process.exit(2)
}

const sockets = new Set()
const relay = createServer({ noDelay: true }, (inner) => {
  const outer = connect(bridge)
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
})
relay.listen(port, '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit', env: process.env })
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`netns-relay: cannot run ${command}: ${error.message}`)
    process.exitCode = 127
    relay.close()
    for (const socket of sockets) socket.destroy()
  })
  child.on('exit', (code, signal) => {
    relay.close()
    for (const socket of sockets) socket.destroy()
    if (signal) process.kill(process.pid, signal)
    else process.exitCode = code ?? 1
  })
})
