import type * as HookEngine from "@agent-hooks/core/HookEngine"

/**
 * When the engine read no settings file at all, the line that says so (for stderr, also under
 * `--quiet`), naming the `--preset` that would read a file of another dialect that does exist
 * (`.claude/settings.json`: `--preset claude`), as the engine found it (`LoadedSettings.unread`).
 * `undefined` when some file was read. A host whose hooks live in another dialect's file must not
 * get "allowed" from hooks that were never loaded, without a word.
 *
 * @internal
 */
export const noSettingsLine = (engine: HookEngine.HookEngine["Service"]): string | undefined => {
  const files = engine.settings.files
  if (files.some((file) => file.found)) return undefined
  const looked = files.map((file) => file.path)
  const base = `agent-hooks: no settings found${looked.length > 0 ? ` (looked for ${looked.join(", ")})` : ""}`
  const other = engine.settings.unread?.[0]
  return other === undefined ? base : `${base}; ${other.path} exists: --preset ${other.preset} reads it`
}
