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

/**
 * Host mode's answer when no policy file exists at all (the user's, the project's, a managed one):
 * what was looked for, that host mode then blocks every call it can block (a guard that has no
 * policy did not judge), and the command that writes one (`agent-hooks init`, and the file it writes).
 * `undefined` when some file was read.
 *
 * @internal
 */
export const noPolicyLine = (engine: HookEngine.HookEngine["Service"], agent: string): string | undefined => {
  const files = engine.settings.files
  if (files.some((file) => file.found)) return undefined
  const project = files.find((file) => file.scope === "project")?.path
  const user = files.find((file) => file.scope === "user")?.path
  return (
    `no agent-hooks policy: none of ${files.map((file) => file.path).join(", ")} exists, so host mode blocks every call it can block (with no policy, nothing judges them). ` +
    `Write one: \`agent-hooks init\`${project === undefined ? "" : ` writes ${project} (this project)`}` +
    `${user === undefined ? "" : `; a policy for every project goes in ${user} (the same format)`}. ` +
    `Then check with \`agent-hooks doctor --host ${agent}\``
  )
}
