/**
 * Presets: config dialects. A preset says where its files live, how they are shaped, which event
 * and environment-variable names it uses, and which of its rules differ from Claude Code's; its
 * decoder turns each file into the one canonical model (`Settings.DecodedSettings`), so the
 * engine runs every dialect the same way.
 *
 * Built in here: `agent-hooks` (the canonical format, the default) and `claude` (Claude Code's own
 * files, unchanged). Other dialects (`wingman`, `orchestration`, `pigo`, `wave`, `gemini`) live in
 * `Presets.ts`.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/preset.ts"
import type { Preset } from "./PresetModel.ts"

/**
 * The preset interface, defined in `PresetModel` (its home), re-exported here.
 *
 * @since 0.1.0
 */
export type { DispatchAdditions, DispatchContext, Preset, PresetContext, PresetExpansion, PresetFile, PresetIO } from "./PresetModel.ts"

/**
 * The canonical format: `~/.agent-hooks/settings.json` (or `$AGENT_HOOKS_HOME/settings.json`),
 * `<project>/.agent-hooks/settings.json`, `<project>/.agent-hooks/settings.local.json`; managed policy
 * in `$AGENT_HOOKS_MANAGED_DIR` (default `/etc/agent-hooks`).
 *
 * @since 0.1.0
 * @category presets
 */
export const agentHooks: Preset = internal.agentHooks

/**
 * Claude Code's own files, read unchanged: `~/.claude/settings.json` (or
 * `$CLAUDE_CONFIG_DIR/settings.json`), `<project>/.claude/settings.json`,
 * `<project>/.claude/settings.local.json`, managed policy in `/etc/claude-code`.
 *
 * @since 0.1.0
 * @category presets
 */
export const claude: Preset = internal.claude

/**
 * Builds a preset whose files have the canonical (Claude Code) shape, at other paths.
 *
 * @since 0.1.0
 * @category constructors
 */
export const canonical: (
  options: Pick<Preset, "name" | "description" | "discover" | "managedDir"> & Partial<Pick<Preset, "events" | "projectDirEnv">>
) => Preset = internal.canonical
