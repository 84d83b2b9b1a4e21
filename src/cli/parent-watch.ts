/**
 * Noticing that the process which started the CLI has gone away, so `serve` and `mcp` never
 * outlive their harness as orphans (SPEC §22).
 *
 * Why more than `process.ppid`: `npx agent-doubles serve` runs as `npm exec` → `sh -c` → node.
 * A harness that SIGTERMs the `npx` process kills `npm exec` (and usually the `sh`), but when the
 * `sh` survives, node's parent is still alive and nothing changes for it. So the watch covers the
 * parent and the grandparent: node notices when either ends (gone, a zombie, or its pid reused by
 * another process), or when it is re-parented. An IPC channel's disconnect counts too.
 * @module
 */
import { readFileSync } from 'node:fs'

/** How often the ancestry is looked at. Cheap: two small reads of /proc. */
const POLL_MS = 250

/** A process we watch: its pid and, where /proc tells it, its start time (to see pid reuse). */
interface Watched {
  pid: number
  started: string | undefined
}

/** Fields 3.. of `/proc/<pid>/stat` (after the parenthesised command name), or undefined. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** The process as it is now, or undefined when it is gone (or a zombie) where that can be told. */
function look(pid: number): Watched | undefined {
  const fields = statFields(pid)
  if (fields) return fields[0] === 'Z' || fields[0] === 'X' ? undefined : { pid, started: fields[19] }
  if (process.platform === 'linux') return undefined
  try {
    process.kill(pid, 0)
    return { pid, started: undefined }
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? { pid, started: undefined } : undefined
  }
}

/** The parent of `pid` from /proc, or undefined. */
function parentOf(pid: number): number | undefined {
  const fields = statFields(pid)
  return fields ? Number(fields[1]) : undefined
}

/** Whether a watched process is still the same live process. */
function alive(watched: Watched): boolean {
  const now = look(watched.pid)
  return now !== undefined && now.started === watched.started
}

/**
 * Calls `onGone` once when the parent or grandparent process ends, the process is re-parented,
 * or its IPC channel disconnects. The poll timer is unref'd (it never keeps the process alive).
 * Init (pid 1) is never watched: a CLI started by init has no harness to outlive.
 * @returns a function that stops watching.
 */
export function watchParent(onGone: (reason: string) => void): () => void {
  const parent = process.ppid
  const watched: Watched[] = []
  for (let pid: number | undefined = parent, depth = 0; pid !== undefined && pid > 1 && depth < 2; depth++) {
    const found = look(pid)
    if (!found) break
    watched.push(found)
    pid = parentOf(pid)
  }
  let stopped = false
  const gone = (reason: string) => {
    if (stopped) return
    stop()
    onGone(reason)
  }
  const timer = setInterval(() => {
    if (process.ppid !== parent) return gone(`its parent process ${parent} went away`)
    const lost = watched.find((each) => !alive(each))
    if (lost) gone(`its ${lost.pid === parent ? 'parent' : 'grandparent'} process ${lost.pid} went away`)
  }, POLL_MS)
  timer.unref()
  const onDisconnect = () => gone('its IPC channel closed')
  if (process.channel) process.once('disconnect', onDisconnect)
  function stop() {
    stopped = true
    clearInterval(timer)
    process.off('disconnect', onDisconnect)
  }
  return stop
}
