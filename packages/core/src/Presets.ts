/**
 * The built-in presets: one per seed system, each decoding its own files into the canonical model.
 *
 * | preset | files | events |
 * |---|---|---|
 * | `agent-hooks` (default) | `~/.agent-hooks/settings.json`, `.agent-hooks/settings.json`, `.agent-hooks/settings.local.json` | the catalog |
 * | `claude` | `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, managed | the catalog |
 * | `wingman` | `.wingman/wingman.config.json`, `.wingman/agents/<agent>/agent.json` | PreToolUse, PostToolUse, Stop |
 * | `orchestration` | `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json` | PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd |
 * | `pigo` | `~/.pigo/config.json` (`$PIGO_HOME`) | agent_start, turn_start, tool_start, tool_end, turn_end, agent_end |
 * | `wave` | `~/.wave/settings.json`, `.wave/settings.json`, `.wave/settings.local.json` | Wave's 13 catalog events |
 * | `gemini` | `~/.gemini/settings.json`, `.gemini/settings.json`, `/etc/gemini-cli/settings.json` | BeforeTool, AfterTool, BeforeAgent, ... |
 *
 * See `docs/presets/` for each dialect's rules and how they differ from Claude Code's.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type { SettingsError } from "./HookError.ts"
import type { LoadedSettings } from "./SettingsModel.ts"
import type { Preset } from "./PresetModel.ts"
import * as PresetModule from "./Preset.ts"
import * as canonicalInternal from "./internal/presets/canonical.ts"
import * as antigravityInternal from "./internal/agents/antigravity/dialect.ts"
import * as clineInternal from "./internal/agents/cline/dialect.ts"
import * as codexInternal from "./internal/agents/codex/dialect.ts"
import * as copilotInternal from "./internal/agents/copilot/dialect.ts"
import * as cursorInternal from "./internal/agents/cursor/dialect.ts"
import * as kiroInternal from "./internal/agents/kiro/dialect.ts"
import * as windsurfInternal from "./internal/agents/windsurf/dialect.ts"
import * as geminiInternal from "./internal/agents/gemini/dialect.ts"
import * as orchestrationInternal from "./internal/dialects/orchestration/dialect.ts"
import * as pigoInternal from "./internal/dialects/pigo/dialect.ts"
import * as qwenInternal from "./internal/agents/qwen/dialect.ts"
import * as registry from "./internal/presets/registry.ts"
import * as vscodeInternal from "./internal/agents/vscode/dialect.ts"
import * as waveInternal from "./internal/dialects/wave/dialect.ts"
import * as wingmanInternal from "./internal/dialects/wingman/dialect.ts"

/**
 * The canonical format (the default).
 *
 * @since 0.1.0
 * @category presets
 */
export const agentHooks: Preset = PresetModule.agentHooks

/**
 * Claude Code's own files, unchanged.
 *
 * @since 0.1.0
 * @category presets
 */
export const claude: Preset = PresetModule.claude

/**
 * Wingman: `.wingman/wingman.config.json` (global) then `.wingman/agents/<agent>/agent.json` (with
 * `agent`), concatenated without deduplication and run in order; default timeout 60 s, clamped to 1..600 s;
 * Wingman's matcher patterns (an invalid regex matches exactly); PostToolUse and Stop cannot block.
 *
 * @since 0.1.0
 * @category presets
 */
export const wingman: Preset = wingmanInternal.wingman

/**
 * The Claude Code orchestration design: exec-form `command` + `args`, `env` with `${FILE_PATH}`,
 * `${COMMAND}`, `${TOOL_NAME}`, `${ARGS}` (substituted verbatim), timeouts in milliseconds,
 * `continueOnError`, `Bash(git push:*)` matchers, a JSONL execution log, and an optional command
 * allowlist (`"allowedCommands": "default"` or a list; off by default).
 *
 * @since 0.1.0
 * @category presets
 */
export const orchestration: Preset = orchestrationInternal.orchestration

/**
 * pigo: `plugins[]` with `name`, `enabled`, `hooks` keyed by pigo's six events; `match.tool`,
 * `blocking` (default true; false runs in the background), timeouts in seconds (default 10); any
 * non-zero exit (or a timeout) of a blocking `tool_start` hook cancels the tool with stderr as the
 * reason; context in `PIGO_*` variables, each capped at 10 000 characters.
 *
 * @since 0.1.0
 * @category presets
 */
export const pigo: Preset = pigoInternal.pigo

/**
 * Wave: Claude Code's shape in `~/.wave/settings.json`, `.wave/settings.json` and
 * `.wave/settings.local.json`; `WAVE_PROJECT_DIR`; the hooks of one event run in order.
 *
 * @since 0.1.0
 * @category presets
 */
export const wave: Preset = waveInternal.wave

/**
 * Gemini CLI: its settings files, its event names (`BeforeTool`, `AfterTool`, `BeforeAgent`, ...),
 * timeouts in milliseconds (converted to seconds), `hooksConfig.enabled` / `disabled`,
 * `GEMINI_PROJECT_DIR`.
 *
 * @since 0.1.0
 * @category presets
 */
export const gemini: Preset = geminiInternal.gemini

/**
 * The Gemini CLI preset with a choice of output rules. `geminiCompat: "documented"` (the default,
 * `gemini`) follows Gemini CLI's reference docs: exit 2 blocks with stderr as the reason, any other
 * non-zero exit is a warning and the action proceeds, stderr is never read as JSON, and a Claude
 * Code style `hookSpecificOutput.permissionDecision` is honoured. `geminiCompat: "source"` follows
 * Gemini CLI's source: stdout, else stderr, is parsed as JSON at any exit code, exit 1 is a warning
 * and any other non-zero exit denies.
 *
 * @since 0.1.0
 * @category presets
 */
export const geminiWith: (options?: { readonly geminiCompat?: "documented" | "source" | undefined }) => Preset = geminiInternal.geminiWith

/**
 * Codex CLI: `hooks.json` in `~/.codex` (`$CODEX_HOME`) and `.codex`; Claude Code's shape and names
 * plus `Interrupt`; `commandWindows` on Windows; answers read strictly as Codex reads them (an
 * unknown key, `ask` or a bare `allow` fails the hook, which fails open unless failing closed).
 *
 * @since 0.2.0
 * @category presets
 */
export const codex: Preset = codexInternal.codex

/**
 * Cursor: hooks.json v1 at user (`~/.cursor`), project (`.cursor`) and enterprise scope; 21
 * camelCase events; a command runs from its hooks.json folder; `failClosed`; `permission`,
 * `followup_message` and `continue` answers.
 *
 * @since 0.2.0
 * @category presets
 */
export const cursor: Preset = cursorInternal.cursor

/**
 * GitHub Copilot CLI: every `*.json` in `~/.copilot/hooks` and `.github/hooks`; 14 camelCase events;
 * `bash` / `powershell` per platform; `cwd`, `env`, `timeoutSec` (30 s); flat `permissionDecision` answers.
 *
 * @since 0.2.0
 * @category presets
 */
export const copilot: Preset = copilotInternal.copilot

/**
 * VS Code agent hooks: `.github/hooks/*.json`, Claude Code's settings files and `~/.copilot/hooks`;
 * eight events; matchers ignored (every hook runs for every tool); `windows` / `linux` / `osx`
 * commands; 30 s.
 *
 * @since 0.2.0
 * @category presets
 */
export const vscode: Preset = vscodeInternal.vscode

/**
 * Qwen Code: `~/.qwen/settings.json`, `.qwen/settings.json`, `/etc/qwen-code/settings.json`; Claude
 * Code's shape, its own events (which cannot block), Gemini CLI's tool names, 60 s.
 *
 * @since 0.2.0
 * @category presets
 */
export const qwen: Preset = qwenInternal.qwen

/**
 * Every built-in preset, the default first.
 *
 * @since 0.1.0
 * @category presets
 */
export const all: ReadonlyArray<Preset> = registry.all

/**
 * A built-in preset by name (`undefined` for an unknown name).
 *
 * @since 0.1.0
 * @category presets
 */
export const byName: (name: string) => Preset | undefined = registry.byName

/**
 * A preset given by name (`"wingman"`) or as an object; the engine's `preset` option goes through
 * it. An unknown name is a `SettingsError` that lists the built-in names.
 *
 * @since 0.1.0
 * @category presets
 */
export const resolve: (preset: Preset | string | undefined) => Effect.Effect<Preset, SettingsError> = registry.resolve

/**
 * The canonical settings document (`agent-hooks` format) for settings loaded with a preset: a dialect
 * event whose rules differ from its catalog event keeps its name and its rules as the file's own
 * declaration under `"events"` (what can block, which exit codes block, how output is read, the
 * matcher field, the default timeout...); notes (user-level hooks left in the user's file, a
 * home-folder execution log left out, the dialect's own input fields); and the hooks it refuses,
 * whose outcome no declaration can keep (a programmatic hook, an event with no rules, a rule that
 * would give a catalog event a way to block it lacks). Timeouts are in seconds.
 *
 * @since 0.1.0
 * @category migration
 */
export const toCanonical: (
  settings: LoadedSettings,
  preset: Preset
) => {
  readonly settings: Record<string, unknown>
  readonly notes: ReadonlyArray<string>
  /**
   * Hooks whose outcome the canonical format cannot keep (`<file> at <path> (<event>): <why>`); `migrate` refuses them
   * unless `--lossy`.
   */
  readonly refused: ReadonlyArray<string>
} = canonicalInternal.toCanonical

/**
 * Kiro (IDE 1.0, CLI v3): every `~/.kiro/hooks/*.json` and `.kiro/hooks/*.json` in the v1 format
 * (`name`, `trigger`, `matcher`, `action`); exit 2 blocks the pre hooks, stdout on exit 0 is context.
 *
 * @since 0.2.0
 * @category presets
 */
export const kiro: Preset = kiroInternal.kiro

/**
 * Windsurf (Devin Desktop) Cascade hooks: `hooks.json` at system, user and workspace scope, snake_case
 * events, flat lists without matchers; only exit 2 on a `pre_*` hook blocks.
 *
 * @since 0.2.0
 * @category presets
 */
export const windsurf: Preset = windsurfInternal.windsurf

/**
 * Cline: one executable per event in `~/Documents/Cline/Hooks/` and `.clinerules/hooks/`; answers
 * `{cancel, contextModification, errorMessage}`; any non-zero exit is an error, not a block.
 *
 * @since 0.2.0
 * @category presets
 */
export const cline: Preset = clineInternal.cline

/**
 * Antigravity CLI with a version switch: `version: "documented"` (the default, preset `antigravity`)
 * follows Google's migration guide (`hooks.json` grouped by hook name, `{allowTool: false,
 * denyReason}`); `version: "1.0"` (preset `antigravity-1.0`) what agy 1.0 builds were observed to do
 * (`~/.gemini/config/hooks.json`, Claude Code's shape, `{decision: "deny", reason}`).
 *
 * @since 0.2.0
 * @category presets
 */
export const antigravityWith: (options?: { readonly version?: "documented" | "1.0" | undefined }) => Preset =
  antigravityInternal.antigravityWith
