import type { Preset } from "@agent-hooks/core/Preset"
import * as Presets from "@agent-hooks/core/Presets"
import { existsSync, statSync } from "node:fs"
import { dirname, join } from "node:path"

/** The preset's project or local settings files (or folders of them) for `dir`. */
const projectFiles = (preset: Preset, dir: string, env: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> => {
  try {
    return preset
      .discover({ projectDir: dir, cwd: dir, env: env as Record<string, string | undefined> })
      .filter((file) => file.scope === "project" || file.scope === "local")
      .map((file) => (file.path.endsWith("/*.json") ? file.path.slice(0, -"/*.json".length) : file.path))
  } catch {
    return []
  }
}

/**
 * The project a command started in `cwd` belongs to, found as git finds its repository: `cwd`, or
 * the nearest folder above it that holds the preset's project or local settings, or a `.git`.
 * The search never enters a folder the user does not own or that anybody may write to (a shared
 * /tmp may hold anyone's `.claude/settings.json`), and never climbs above the home folder; with
 * nothing found, `cwd`.
 *
 * @internal
 */
export const projectRoot = (cwd: string, preset: Preset | undefined, env: Readonly<Record<string, string | undefined>>): string =>
  foundProjectRoot(cwd, preset, env) ?? cwd

/**
 * `projectRoot`'s search, `undefined` when it found nothing (no folder from `cwd` up, within the
 * stops, holds the preset's project settings or a `.git`).
 *
 * @internal
 */
export const foundProjectRoot = (
  cwd: string,
  preset: Preset | undefined,
  env: Readonly<Record<string, string | undefined>>
): string | undefined => {
  const dialect = preset ?? Presets.byName("agent-hooks")
  const uid = process.getuid?.()
  const home = env["HOME"]
  for (let dir = cwd; ; ) {
    try {
      const stat = statSync(dir)
      // another user's folder, or one anybody may write to (/tmp): never a project found upward
      if (dir !== cwd && ((uid !== undefined && stat.uid !== uid) || (stat.mode & 0o002) !== 0)) return undefined
    } catch {
      return undefined
    }
    if (existsSync(join(dir, ".git")) || (dialect !== undefined && projectFiles(dialect, dir, env).some((file) => existsSync(file))))
      return dir
    const up = dirname(dir)
    if (dir === home || up === dir) return undefined
    dir = up
  }
}
