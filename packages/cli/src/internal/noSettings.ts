import * as Presets from "@agent-hooks/core/Presets"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type { Preset } from "@agent-hooks/core/Preset"
import { existsSync } from "node:fs"
import { discoveredFiles } from "./discovered.ts"

/**
 * When the engine read no settings file at all, the line that says so (for stderr), naming the
 * `--preset` that would read a file that does exist (`.claude/settings.json`: `--preset claude`).
 * `undefined` when some file was read. A host whose hooks live in another dialect's file must not
 * get "allowed" from hooks that were never loaded, without a word.
 *
 * @internal
 */
export const noSettingsLine = (
  engine: HookEngine.HookEngine["Service"],
  preset: Preset,
  context: { readonly projectDir: string; readonly cwd: string; readonly agent?: string | undefined }
): string | undefined => {
  const files = engine.settings.files
  if (files.some((file) => file.found)) return undefined
  const looked = files.map((file) => file.path)
  const base = `agent-hooks: no settings found${looked.length > 0 ? ` (looked for ${looked.join(", ")})` : ""}`
  for (const other of Presets.all) {
    if (other.name === preset.name) continue
    let discovered: ReadonlyArray<{ readonly path: string; readonly scope: string }> = []
    try {
      discovered = discoveredFiles(other, { ...context, env: process.env })
    } catch {
      continue
    }
    const existing = discovered.find((file) => file.scope !== "managed" && existsSync(file.path))
    if (existing !== undefined) return `${base}; ${existing.path} exists: --preset ${other.name} reads it`
  }
  return base
}
