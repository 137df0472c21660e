// The spawn helper: a small Node process that spawns hooks on behalf of a big host (its own heap
// stays small, so fork is cheap) and relays stdin, stdout, stderr, exit and signals.
//
//   node spawnHelperMain.(ts|js)      (started by spawnHelper.ts; no arguments)
//
// Host to helper (our stdin): frames of [u32 length][JSON], one of
//   { t: "spawn", id, file, args, cwd, env, stdin, cap }   cap: bytes to relay per stream (more is read and dropped);
//                                                        `sameEnv: true` instead of `env`: the previous spawn's environment
//   { t: "kill", id, signal }                            signal the hook's process group (falling back to the child)
//   { t: "release", id }                                 SIGKILL the group, stop reading, forget the hook
//   `group: false` in either: the host saw the group empty, so the child alone is signalled (the
//   group's number may be another's by now, a reused pid)
// Helper to host (our stdout): frames of [u8 type][u32 id][u32 length][payload]:
//   1 spawned {pid} · 2 spawn error {code, message} · 3 stdout bytes · 4 stderr bytes
//   5 stdout end · 6 stderr end · 7 exit {exitCode, signal} · 8 starting (sent before the fork: a
//   helper that dies after it may have started the hook, which is then never started again)
// Dies with the host: EOF on stdin (the host exited, even by SIGKILL) kills every hook group and exits.
// Only node:* imports: it must start fast and stay small. Run by Bun, it spawns with Bun.spawn (vfork, and no
// Node-style stream wrappers around the pipes); run by Node or Deno, with node:child_process.
import { spawn } from "node:child_process"

interface SpawnMessage {
  readonly t: "spawn"
  readonly id: number
  readonly file: string
  readonly args: Array<string>
  readonly cwd: string
  readonly env?: Record<string, string>
  readonly sameEnv?: true
  readonly stdin: string
  readonly cap: number
}
type Message =
  | SpawnMessage
  | { readonly t: "kill"; readonly id: number; readonly signal: NodeJS.Signals; readonly group?: false }
  | { readonly t: "release"; readonly id: number; readonly group?: false }

/** A started hook, whichever way it was spawned. */
interface Running {
  readonly pid: number | undefined
  /** Signals the child alone (may throw: the child is gone). */
  readonly kill: (signal: NodeJS.Signals) => void
  /** Stops reading its pipes. */
  readonly stop: () => void
}

/** `Bun.spawn` and its subprocess, the subset used here (Bun 1.4.5). */
interface BunSubprocess {
  readonly pid: number
  readonly stdout: ReadableStream<Uint8Array>
  readonly stderr: ReadableStream<Uint8Array>
  readonly exited: Promise<number>
  readonly exitCode: number | null
  readonly signalCode: NodeJS.Signals | null
  kill(signal?: string): void
}
type BunSpawn = (cmd: Array<string>, options: object) => BunSubprocess
const bunSpawn: BunSpawn | undefined = (globalThis as { Bun?: { spawn: BunSpawn } }).Bun?.spawn

const groups = process.platform !== "win32"
const children = new Map<number, Running>()
const out = process.stdout

const SPAWNED = 1
const STARTING = 8
// The frames of one tick go to the host in one write (our stdout is a pipe: each write is a system call).
let corked = false
const send = (type: number, id: number, payload: Uint8Array = new Uint8Array(0)): boolean => {
  const frame = Buffer.allocUnsafe(9 + payload.byteLength)
  frame.writeUInt8(type, 0)
  frame.writeUInt32LE(id, 1)
  frame.writeUInt32LE(payload.byteLength, 5)
  frame.set(payload, 9)
  if (type === SPAWNED || type === STARTING) {
    // At once, not with the tick's other frames: "starting" must reach the host before the fork (a
    // hook that ends the helper is then never started again), and "spawned" gives the host the pid
    // it needs to kill the hook's group if the helper dies.
    if (corked) {
      corked = false
      out.uncork()
    }
    return out.write(frame)
  }
  if (!corked) {
    corked = true
    out.cork()
    process.nextTick(() => {
      corked = false
      out.uncork()
    })
  }
  return out.write(frame)
}
const sendJson = (type: number, id: number, value: unknown) => send(type, id, Buffer.from(JSON.stringify(value)))

const signal = (child: Running, sig: NodeJS.Signals, group = true) => {
  const pid = child.pid
  if (pid === undefined) return
  // ESRCH (the group is gone, or the child left it): the child alone. No stack trace is taken for
  // that common failure (most of a release's cost).
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    if (groups && group) return void process.kill(-pid, sig)
  } catch {
    // the child alone, below
  } finally {
    Error.stackTraceLimit = limit
  }
  try {
    child.kill(sig)
  } catch {
    // already gone
  }
}

// Streams paused, and readers waiting, while our stdout is full (the host reads slower than hooks write).
const paused = new Set<NodeJS.ReadableStream>()
let waiting: Array<() => void> = []
out.on("drain", () => {
  for (const stream of paused) stream.resume()
  paused.clear()
  const wake = waiting
  waiting = []
  for (const resume of wake) resume()
})
const drained = () => new Promise<void>((resolve) => waiting.push(resolve))

/** Bun: reads a pipe to its end, relaying up to `cap` bytes (more is read and dropped), then says it ended. */
const pump = async (id: number, reader: ReadableStreamDefaultReader<Uint8Array>, data: number, end: number, cap: number) => {
  let left = cap
  try {
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      if (left <= 0) continue // past the cap: read and dropped, never relayed
      const part = chunk.value.byteLength > left ? chunk.value.subarray(0, left) : chunk.value
      left -= part.byteLength
      if (!send(data, id, part)) await drained()
    }
  } catch {
    // cancelled (released) or broken: ended either way
  }
  send(end, id)
}

const relay = (id: number, stream: NodeJS.ReadableStream | null, data: number, end: number, cap: number) => {
  if (stream === null) return void send(end, id)
  let left = cap
  stream.on("data", (chunk: Buffer) => {
    if (left <= 0) return // past the cap: read and dropped, never relayed
    const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk
    left -= part.byteLength
    if (!send(data, id, part)) {
      stream.pause()
      paused.add(stream)
    }
  })
  stream.on("error", () => {})
  let ended = false
  const done = () => (ended ? undefined : ((ended = true), send(end, id)))
  stream.on("end", done)
  stream.on("close", done)
}

const startOnBun = (m: SpawnMessage, env: Record<string, string>, spawnOnBun: BunSpawn) => {
  let child: BunSubprocess
  try {
    child = spawnOnBun([m.file, ...m.args], {
      cwd: m.cwd,
      env,
      // Bun writes the bytes and closes stdin, swallowing EPIPE; an empty payload is /dev/null (EOF).
      stdin: m.stdin === "" ? "ignore" : Buffer.from(m.stdin),
      stdout: "pipe",
      stderr: "pipe",
      detached: groups,
      windowsHide: true
    })
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException
    return void sendJson(2, m.id, { code: error.code, message: error.message })
  }
  const readers = [child.stdout.getReader(), child.stderr.getReader()] as const
  children.set(m.id, {
    pid: child.pid,
    kill: (sig) => child.kill(sig),
    stop: () => {
      for (const reader of readers) reader.cancel().catch(() => {})
    }
  })
  sendJson(SPAWNED, m.id, { pid: child.pid })
  void pump(m.id, readers[0], 3, 5, m.cap)
  void pump(m.id, readers[1], 4, 6, m.cap)
  // On the direct child's exit, not when the pipes close (a grandchild may hold them).
  void child.exited.then(() => sendJson(7, m.id, { exitCode: child.signalCode === null ? child.exitCode : null, signal: child.signalCode }))
}

let lastEnv: Record<string, string> = {}
const start = (m: SpawnMessage) => {
  const env = m.sameEnv === true ? lastEnv : (m.env ?? {})
  lastEnv = env
  send(STARTING, m.id)
  if (bunSpawn !== undefined) return startOnBun(m, env, bunSpawn)
  let child: ReturnType<typeof spawn>
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: groups, windowsHide: true })
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException
    return void sendJson(2, m.id, { code: error.code, message: error.message })
  }
  children.set(m.id, {
    get pid() {
      return child.pid
    },
    kill: (sig) => child.kill(sig),
    stop: () => {
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy()
    }
  })
  child.stdin?.on("error", () => {})
  // A pid: the hook is running already (it may end the helper at once), so the host hears of it
  // now, not after the 'spawn' event; a start that failed has none and gets an 'error' instead.
  let started = child.pid !== undefined
  if (started) sendJson(SPAWNED, m.id, { pid: child.pid })
  child.on("error", (cause: NodeJS.ErrnoException) => {
    if (started) return
    started = true
    children.delete(m.id)
    sendJson(2, m.id, { code: cause.code, message: cause.message })
  })
  child.on("spawn", () => {
    if (!started) {
      started = true
      sendJson(SPAWNED, m.id, { pid: child.pid })
    }
    child.stdin?.end(m.stdin)
    relay(m.id, child.stdout, 3, 5, m.cap)
    relay(m.id, child.stderr, 4, 6, m.cap)
    child.on("exit", (exitCode, sig) => sendJson(7, m.id, { exitCode: sig === null ? exitCode : null, signal: sig }))
  })
}

const handle = (m: Message) => {
  if (m.t === "spawn") return start(m)
  const child = children.get(m.id)
  if (child === undefined) return
  if (m.t === "kill") return signal(child, m.signal, m.group !== false)
  children.delete(m.id)
  signal(child, "SIGKILL", m.group !== false)
  child.stop()
}

let buffered: Buffer = Buffer.alloc(0)
process.stdin.on("data", (chunk: Buffer) => {
  buffered = buffered.byteLength === 0 ? chunk : Buffer.concat([buffered, chunk])
  while (buffered.byteLength >= 4) {
    const length = buffered.readUInt32LE(0)
    if (buffered.byteLength < 4 + length) break
    handle(JSON.parse(buffered.toString("utf8", 4, 4 + length)) as Message)
    buffered = buffered.subarray(4 + length)
  }
})
const shutdown = () => {
  for (const child of children.values()) signal(child, "SIGKILL")
  process.exit(0)
}
// The host is gone (EOF on the pipe it held, whatever way it died): take every hook group along.
process.stdin.on("end", shutdown)
process.stdin.on("error", shutdown)
out.on("error", shutdown)
// A terminal's Ctrl-C reaches the host, which decides; the helper follows the host, not the terminal.
process.on("SIGINT", () => {})
process.on("SIGHUP", () => {})
