import type { Preset, PresetContext, PresetFile } from "@agent-hooks/core/Preset"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * The files a preset discovers, with a folder of hook files (`.github/hooks/*.json`) expanded to
 * the `.json` files in it, in name order, as the engine reads them: so that `trust` approves those
 * files and the "no settings found" hint finds them.
 *
 * @internal
 */
export const discoveredFiles = (preset: Preset, context: PresetContext): ReadonlyArray<PresetFile> =>
  preset.discover(context).flatMap((file) => {
    if (!file.path.endsWith("/*.json")) return [file]
    const folder = dirname(file.path)
    try {
      return readdirSync(folder)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => ({ ...file, path: join(folder, name) }))
    } catch {
      return []
    }
  })
