import { make as makeSpawner, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { handlePipes, makeOutputPipe, nodeFiles, watchGroup } from "@agent-hooks/core/SpawnerKit"
import type { GroupWatch, OutputPipe } from "@agent-hooks/core/SpawnerKit"
import { spawn as spawnChild } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import { accessSync, closeSync, constants, existsSync, openSync, readSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { HelperRuntime } from "../NodeProcessSpawner.ts"
import * as direct from "./processSpawner.ts"

/** The helper's script, next to this module (`.ts` from the sources, `.js` from the build). */
const HELPER_SCRIPT = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./spawnHelperMain.ts" : "./spawnHelperMain.js", import.meta.url)
)

const groups = process.platform !== "win32"

/** For what must not throw (releasing a handle a runtime may not have made). */
const quietly = (f: () => void): void => {
  try {
    f()
  } catch {
    // nothing to release
  }
}

const kill = (pid: number, group: GroupWatch | undefined) => {
  // A group seen empty is not signalled: its number may be another hook's group by now (a reused pid).
  if (group?.gone() === true) return
  try {
    process.kill(groups ? -pid : pid, "SIGKILL")
  } catch {
    // already gone
  }
}

/**
 * The helper's young generation: 1 MB semi-spaces instead of V8's 16 MB. The helper makes short-lived
 * garbage with every hook (frames, events), and with the default V8 grows its heap to fit that rate
 * and never gives it back: over 12 000 hooks its resident memory went from 75 to 183 MB, and every
 * fork copies the page tables of that memory, so its hooks got slower as the session went on (five
 * at once: 2.9x one hook at the start, 3.4x by then). With 1 MB it stayed at 69-76 MB.
 */
const HELPER_V8_FLAGS = ["--max-semi-space-size=1"]

/** The command that starts the helper. @internal */
export interface HelperProgram {
  readonly command: string
  readonly args: ReadonlyArray<string>
}

/** The first bytes of an executable file: ELF, Mach-O (both orders, 32 and 64 bits), PE. */
const isBinary = (file: string): boolean => {
  const head = new Uint8Array(4)
  let fd: number | undefined
  try {
    fd = openSync(file, "r")
    if (readSync(fd, head, 0, 4, 0) < 4) return false
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  const word = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0
  return (
    word === 0x7f454c46 ||
    word === 0xfeedface ||
    word === 0xfeedfacf ||
    word === 0xcefaedfe ||
    word === 0xcffaedfe ||
    (head[0] === 0x4d && head[1] === 0x5a)
  )
}

/**
 * Bun's executable from the `bun` npm package, as Node resolves it from this package (installed
 * beside it, as `npm install bun` in the host's project does), never a `bun` looked up on PATH nor
 * one found from the working directory: which program spawns every hook must not depend on the
 * environment the host was started in, nor on the project it works in.
 */
const bunFromPackage = (): string => {
  let dir: string
  try {
    dir = dirname(createRequire(import.meta.url).resolve("bun/package.json"))
  } catch {
    throw new Error(
      'spawnHelper runtime "bun": the npm package `bun` is not installed beside @agent-hooks/node. ' +
        "Install it (`npm install bun`), or give the path of a Bun executable as spawnHelper.executable."
    )
  }
  const file = join(dir, "bin", "bun.exe")
  if (!isBinary(file)) {
    throw new Error(
      `spawnHelper runtime "bun": ${file} is not an executable but the \`bun\` package's placeholder (it was installed ` +
        "without its install script, as with --ignore-scripts). Reinstall it with scripts, or give the path of a Bun " +
        "executable as spawnHelper.executable."
    )
  }
  return file
}

/**
 * How the helper script is started. Node (the default: this process's own executable) gets a small
 * young generation, and strips the types of the `.ts` source itself (22.18+); a Deno host runs it
 * with `deno run`; Bun runs it without flags (it then spawns with `Bun.spawn`).
 * @internal
 */
export const helperProgram = (options: HelperRuntime = {}): HelperProgram => {
  const runtime = options.runtime ?? "node"
  const executable = options.executable
  if (executable !== undefined) {
    if (typeof executable !== "string" || executable === "")
      throw new Error(`spawnHelper.executable: expected the path of an executable, got ${JSON.stringify(executable)}`)
    // A path is checked now, so the engine's creation fails instead of every hook (a bare name is looked up on PATH when started).
    if (/[\\/]/.test(executable)) {
      try {
        accessSync(executable, constants.X_OK)
      } catch (cause) {
        throw new Error(`spawnHelper.executable: ${executable} is not an executable file (${(cause as Error).message})`)
      }
    }
  }
  if (runtime === "bun") return { command: executable ?? bunFromPackage(), args: [HELPER_SCRIPT] }
  if (runtime !== "node") throw new Error(`spawnHelper runtime: expected "node" or "bun", got ${JSON.stringify(runtime)}`)
  if (executable === undefined && "Deno" in globalThis) {
    // --no-config: no deno.json found above the script (a project's, when node_modules is in it) maps its imports.
    return {
      command: process.execPath,
      args: ["run", "-A", "--no-lock", "--no-config", `--v8-flags=${HELPER_V8_FLAGS.join(",")}`, HELPER_SCRIPT]
    }
  }
  return { command: executable ?? process.execPath, args: [...HELPER_V8_FLAGS, HELPER_SCRIPT] }
}

interface Hook {
  readonly request: ProcessRequest
  /** The hook's pid once the helper reported it started. */
  pid: number | undefined
  /** Its process group, watched from the host (the same user's processes), once started. */
  group?: GroupWatch
  /** Sent again to a new helper after the first one died before it began to start it. */
  retried?: boolean
  /** The helper said it is starting the hook (before its fork): from then on it may be running. */
  starting?: boolean
  readonly started: (result: { readonly pid: number } | { readonly error: unknown }) => void
  readonly stdout: OutputPipe
  readonly stderr: OutputPipe
  readonly exited: Deferred.Deferred<ProcessExit>
}

/** The host side: one helper process at a time, started on the first spawn, restarted if it dies. */
export class Helper {
  private readonly program: HelperProgram
  constructor(program: HelperProgram = helperProgram()) {
    this.program = program
  }

  private child: ChildProcess | undefined
  private hooks = new Map<number, Hook>()
  private nextId = 1
  private inbox: Buffer = Buffer.alloc(0)
  /** The environment of the last spawn sent to this helper: the next spawn with the same one says so instead of sending it again. */
  private lastEnv: ProcessRequest["env"] | undefined
  private corked = false

  private ensure(): ChildProcess {
    if (this.child !== undefined) return this.child
    const child = spawnChild(this.program.command, [...this.program.args], {
      // Started in its own folder, not the host's working directory (often a cloned project): Bun runs the
      // preloads of a bunfig.toml and loads the .env files it finds there. Each hook gets its own cwd.
      cwd: dirname(HELPER_SCRIPT),
      stdio: ["pipe", "pipe", "inherit"],
      // Its own small heap: none of the host's flags (a big --max-old-space-size is what we avoid), a small young generation.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }
    })
    this.child = child
    this.inbox = Buffer.alloc(0)
    this.lastEnv = undefined
    child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk))
    child.stdin!.on("error", () => {})
    // Why the helper could not be started (its executable is missing, say): said in the hooks' errors.
    let startError: Error | undefined
    // 'close', not 'exit': what the helper wrote before it died is read first.
    const gone = () => {
      if (this.child !== child) return
      this.child = undefined
      const hooks = [...this.hooks]
      this.hooks.clear()
      for (const [id, hook] of hooks) {
        if (hook.pid === undefined && !hook.starting && !hook.retried) {
          // The helper died before it began to start the hook: asked of the next helper (once).
          hook.retried = true
          this.hooks.set(id, hook)
          this.sendSpawn(id, hook.request)
        } else if (hook.pid === undefined && startError !== undefined) {
          this.fail(hook, new Error(`the spawn helper could not be started (${this.program.command}: ${startError.message})`))
        } else if (hook.pid === undefined) {
          // It may have run (a hook can end its helper as it starts): never run twice, said instead.
          this.fail(
            hook,
            new Error(
              hook.starting
                ? "the spawn helper exited while it was starting the hook (which may have run); it is not started again"
                : "the spawn helper exited twice before it started the hook; it is not started again"
            )
          )
        } else {
          // Started: the helper cannot clean up any more, so the host kills the group itself.
          kill(hook.pid, hook.group)
          this.fail(hook, new Error("the spawn helper exited"))
        }
      }
      this.refresh()
    }
    child.on("close", gone)
    child.on("error", (error) => {
      if (child.pid === undefined) startError = error
      gone()
    })
    this.refresh()
    return child
  }

  private fail(hook: Hook, error: unknown) {
    hook.started({ error })
    hook.stdout.end()
    hook.stderr.end()
    Deferred.doneUnsafe(hook.exited, Effect.succeed({ exitCode: null, signal: "SIGKILL" }))
  }

  /** The helper keeps the host alive only while hooks are in flight. */
  private refresh() {
    const child = this.child
    if (child === undefined) return
    const busy = this.hooks.size > 0
    for (const handle of [child, child.stdin, child.stdout] as Array<{ ref?: () => void; unref?: () => void } | null>) {
      quietly(() => (busy ? handle?.ref?.() : handle?.unref?.()))
    }
  }

  private receive(chunk: Buffer) {
    this.inbox = this.inbox.byteLength === 0 ? chunk : Buffer.concat([this.inbox, chunk])
    let offset = 0
    while (this.inbox.byteLength - offset >= 9) {
      const type = this.inbox.readUInt8(offset)
      const id = this.inbox.readUInt32LE(offset + 1)
      const length = this.inbox.readUInt32LE(offset + 5)
      if (this.inbox.byteLength - offset < 9 + length) break
      // A copy: the inbox buffer is reused.
      const payload = Uint8Array.prototype.slice.call(this.inbox, offset + 9, offset + 9 + length)
      offset += 9 + length
      const hook = this.hooks.get(id)
      if (hook === undefined) continue
      const json = () => JSON.parse(Buffer.from(payload).toString("utf8"))
      switch (type) {
        case 8:
          hook.starting = true
          break
        case 1:
          hook.pid = json().pid
          hook.group = watchGroup(process.kill, hook.pid)
          hook.started({ pid: hook.pid! })
          break
        case 2: {
          const { code, message } = json()
          this.hooks.delete(id)
          this.refresh()
          hook.started({ error: Object.assign(new Error(message), { code }) })
          break
        }
        case 3:
          hook.stdout.push(payload)
          break
        case 4:
          hook.stderr.push(payload)
          break
        case 5:
          hook.stdout.end()
          break
        case 6:
          hook.stderr.end()
          break
        case 7:
          // Looked at once: a group already empty is never signalled (its number could be reused before the release).
          if (groups) hook.group?.alive()
          Deferred.doneUnsafe(hook.exited, Effect.succeed(json() as ProcessExit))
          break
      }
    }
    this.inbox = offset === this.inbox.byteLength ? Buffer.alloc(0) : this.inbox.subarray(offset)
  }

  private sendSpawn(id: number, request: ProcessRequest) {
    // One more byte than the cap, so the reader can tell that the cap was reached.
    const { file, args, cwd, env, stdin } = request
    const stdinPipe = this.ensure().stdin!
    // The hooks of one dispatch share one environment (the host's, a few kilobytes): sent once.
    const sameEnv = env === this.lastEnv
    this.lastEnv = env
    this.send(
      { t: "spawn", id, file, args, cwd, ...(sameEnv ? { sameEnv: true } : { env }), stdin, cap: request.maxOutputBytes + 1 },
      stdinPipe
    )
  }

  private send(message: unknown, stdin = this.ensure().stdin!) {
    const json = JSON.stringify(message)
    const frame = Buffer.allocUnsafe(4 + Buffer.byteLength(json))
    frame.writeUInt32LE(frame.byteLength - 4, 0)
    frame.write(json, 4)
    // The frames of one tick (the spawns of a dispatch) go to the helper in one write.
    if (!this.corked) {
      this.corked = true
      stdin.cork()
      process.nextTick(() => {
        this.corked = false
        stdin.uncork()
      })
    }
    stdin.write(frame)
  }

  readonly spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
    Effect.acquireRelease(
      Effect.callback<{ readonly id: number; readonly hook: Hook; readonly pid: number }, unknown>((resume) => {
        const id = this.nextId++
        const hook: Hook = {
          request,
          pid: undefined,
          started: (result) =>
            "error" in result ? resume(Effect.fail(result.error)) : resume(Effect.succeed({ id, hook, pid: result.pid })),
          stdout: makeOutputPipe(),
          stderr: makeOutputPipe(),
          exited: Deferred.makeUnsafe<ProcessExit>()
        }
        try {
          // Said in the hook's "could not start", instead of a helper that dies at once with a stack trace.
          if (this.child === undefined && this.program.args.includes(HELPER_SCRIPT) && !existsSync(HELPER_SCRIPT)) {
            throw new Error(
              `the spawn helper's script ${HELPER_SCRIPT} is missing (a build or bundle of @agent-hooks/node that left it out); reinstall the package`
            )
          }
          this.ensure()
        } catch (cause) {
          return resume(Effect.fail(cause))
        }
        this.hooks.set(id, hook)
        this.refresh()
        this.sendSpawn(id, request)
      }),
      ({ id, hook }) =>
        Effect.sync(() => {
          // Always: SIGKILL to whatever is left of the group, the pipes closed, no waiting.
          // A group seen empty is not signalled again (its number may be reused): the hook alone.
          if (this.hooks.delete(id) && this.child !== undefined)
            this.send({ t: "release", id, ...(hook.group?.gone() === true ? { group: false } : {}) })
          hook.stdout.end()
          hook.stderr.end()
          this.refresh()
        })
    ).pipe(
      Effect.map(
        ({ id, hook, pid }): ProcessHandle => ({
          pid,
          exited: Deferred.await(hook.exited),
          ...handlePipes(hook),
          kill: (signal: KillSignal) =>
            Effect.sync(() => {
              if (this.hooks.has(id) && this.child !== undefined)
                this.send({ t: "kill", id, signal, ...(hook.group?.gone() === true ? { group: false } : {}) })
            }),
          // The helper sends the exit as soon as it has it, maybe before the output it has yet to read:
          // with the group empty, the runner waits for the ends the helper sends after that output.
          ...(groups ? { groupAlive: () => hook.group?.alive() ?? false } : {})
        })
      )
    )

  /** Ends the helper (EOF on its stdin: it kills what is left and exits). */
  readonly close = (): void => {
    const child = this.child
    this.child = undefined
    child?.stdin?.end()
    // Deno throws here for a helper that never started (it has no process handle); closing must not.
    quietly(() => child?.unref())
  }

  /** The helper's pid, for tests. */
  get pid(): number | undefined {
    return this.child?.pid
  }
}

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "node-helper", processGroups: groups }

/** @internal */
export const makeWith = (helper: Helper): ProcessSpawner["Service"] =>
  makeSpawner({ capabilities, start: helper.spawn, ...nodeFiles(fs, tmpdir) })

/** A helper for the layer's life; its program is resolved when the layer is built (a bad option fails there). */
const scopedHelper = (runtime: HelperRuntime | undefined) =>
  Effect.acquireRelease(
    Effect.sync(() => new Helper(helperProgram(runtime))),
    (helper) => Effect.sync(helper.close)
  )

/** @internal */
export const layerWith = (runtime?: HelperRuntime): Layer.Layer<ProcessSpawner> =>
  Layer.effect(ProcessSpawner, Effect.map(scopedHelper(runtime), makeWith))

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = layerWith()

/** @internal */
export const DEFAULT_HELPER_THRESHOLD_BYTES = 256 * 1024 * 1024

/**
 * Per spawn: straight from the host while its resident memory is below `thresholdBytes`
 * (fork is cheap then), through the helper above it. @internal
 */
export const autoLayer = (thresholdBytes: number = DEFAULT_HELPER_THRESHOLD_BYTES, runtime?: HelperRuntime): Layer.Layer<ProcessSpawner> =>
  Layer.effect(
    ProcessSpawner,
    Effect.map(scopedHelper(runtime), (helper) => {
      const viaHelper = makeWith(helper)
      return ProcessSpawner.of({
        capabilities: direct.capabilities,
        spawn: (request) => (process.memoryUsage.rss() > thresholdBytes ? viaHelper.spawn(request) : direct.make.spawn(request))
      })
    })
  )
