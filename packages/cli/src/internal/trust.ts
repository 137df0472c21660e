import { readdirSync } from "node:fs"
import { join } from "node:path"
import * as Trust from "@agent-hooks/core/Trust"
import type { Preset } from "@agent-hooks/core/Preset"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import { Failed } from "../ExitCode.ts"
import { discoveredFiles } from "./discovered.ts"
import { checkPreset } from "./engine.ts"

/** Options of `agent-hooks trust`. */
export interface TrustOptions {
  readonly projectDir: Option.Option<string>
  readonly preset: string
  readonly agent: Option.Option<string>
}

/** The files of a folder whose names end with `suffix`, alphabetically (none when it does not exist). */
const filesIn = (folder: string, suffix: string): ReadonlyArray<string> => {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith(suffix) && !name.startsWith("."))
      .sort()
      .map((name) => join(folder, name))
  } catch {
    return []
  }
}

/**
 * `agent-hooks trust`: approves the project's current project and local settings files (their exact
 * content), so their hooks run where trust is required. Writes only the approvals file.
 *
 * @internal
 */
export const trust = (options: TrustOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const preset: Preset = yield* checkPreset(options.preset)
    const path = yield* Path.Path
    const cwd = process.cwd()
    const projectDir = path.resolve(
      cwd,
      Option.getOrElse(options.projectDir, () => cwd)
    )
    const store = Trust.storePath(process.env, path)
    if (store === undefined) return yield* new Failed({ message: "cannot tell where approvals go: set HOME or AGENT_HOOKS_HOME" })
    const files = discoveredFiles(preset, { projectDir, cwd, env: process.env, agent: Option.getOrUndefined(options.agent) })
      .filter((file) => file.scope === "project" || file.scope === "local")
      // a folder of files (Kiro's .kiro/hooks/*.json, Cline's hook scripts): each of its files
      .flatMap((file) => (file.folder === undefined ? [file.path] : filesIn(file.path, file.folder.suffix)))
    const recorded = yield* Trust.approve(store, files, projectDir).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
    if (recorded.length === 0) {
      yield* Console.log(`no project settings files in ${projectDir} (looked for: ${files.join(", ")})`)
      return
    }
    for (const file of recorded) yield* Console.log(`approved ${file.path} (sha256 ${file.fingerprint.slice(0, 12)})`)
    yield* Console.log(`approvals are kept in ${store}; a change to a file holds its hooks back again until it is approved`)
  }).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
