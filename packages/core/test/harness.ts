/**
 * The engine on the scripted spawner and an in-memory file system, shared by the core's engine
 * tests: no real process, the TestClock for timeouts and the kill ladder.
 */
import * as HookEngine from "@agent-hooks/core/HookEngine"
import type { HookError } from "@agent-hooks/core/HookError"
import type { ProcessRequest } from "@agent-hooks/core/ProcessSpawner"
import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import type { ScriptedRun } from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import { Effect, FileSystem, Layer, Path, PlatformError } from "effect"

export const notFound = (path: string) =>
  PlatformError.systemError({ _tag: "NotFound", module: "FileSystem", method: "readFileString", pathOrDescriptor: path })

/**
 * An in-memory file system holding `files` (path → JSON document), for loading a plan without an
 * engine; `executable`: every other path stats as an executable file (scripts and programs are there).
 */
export const memoryFs = (files: Record<string, unknown>, options: { readonly executable?: boolean } = {}) =>
  FileSystem.layerNoop({
    readFileString: (path) => (path in files ? Effect.succeed(JSON.stringify(files[path])) : Effect.fail(notFound(path))),
    readDirectory: (path) => Effect.fail(notFound(path)),
    ...(options.executable === true ? { stat: () => Effect.succeed({ type: "File", mode: 0o755 } as FileSystem.File.Info) } : {}),
    makeDirectory: () => Effect.void,
    writeFileString: () => Effect.void
  })

/** The command a scripted request runs (`/bin/sh -c <command>`), or the exec-form file. */
export const commandOf = (request: ProcessRequest): string => (request.file === "/bin/sh" ? request.args.at(-1)! : request.file)

export interface Harness {
  readonly spawner: ScriptedProcessSpawner.ScriptedLayer
  readonly written: Map<string, string>
  readonly layer: Layer.Layer<HookEngine.HookEngine, HookError>
  /** The in-memory file system and Path, for loading a plan without an engine. */
  readonly files: Layer.Layer<FileSystem.FileSystem | Path.Path>
}

/** Settings files (path → document), a script for the commands, engine options. */
export const harness = (
  files: Record<string, unknown>,
  script: (command: string, request: ProcessRequest) => ScriptedRun = () => ({}),
  options: Partial<HookEngine.EngineOptions> = {}
): Harness => {
  const spawner = ScriptedProcessSpawner.layer((request) => script(commandOf(request), request))
  const written = new Map<string, string>()
  const fs = FileSystem.layerNoop({
    readFileString: (path) => (path in files ? Effect.succeed(JSON.stringify(files[path])) : Effect.fail(notFound(path))),
    readDirectory: (path) => Effect.fail(notFound(path)),
    makeDirectory: () => Effect.void,
    writeFileString: (path, text) => Effect.sync(() => void written.set(path, (written.get(path) ?? "") + text))
  })
  const layer = HookEngine.layer({
    settings: Object.keys(files),
    projectDir: "/project",
    env: { HOME: "/home/user", PATH: "/bin" },
    managedDir: "/managed",
    ...options
  }).pipe(Layer.provide(Layer.mergeAll(spawner, fs, Path.layer)))
  return { spawner, written, layer, files: Layer.mergeAll(fs, Path.layer) }
}

export const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra })
export const group = (matcher: string | undefined, ...hooks: ReadonlyArray<unknown>) =>
  matcher === undefined ? { hooks } : { matcher, hooks }
export const settings = (hooks: Record<string, ReadonlyArray<unknown>>, extra: Record<string, unknown> = {}) => ({ hooks, ...extra })
export const bash = (command: string) => ({ tool_name: "Bash", tool_input: { command } })
export const permission = (decision: string, reason: string) => ({
  stdout: JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason }
  })
})

export const withEngine = <A, E>(h: Harness, f: (engine: HookEngine.HookEngine["Service"]) => Effect.Effect<A, E>) =>
  Effect.scoped(HookEngine.HookEngine.use(f).pipe(Effect.provide(h.layer)))
