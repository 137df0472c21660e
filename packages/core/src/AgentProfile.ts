/**
 * Everything agent-hooks knows about one agent, as one record: `AgentProfile` = its host mode
 * (`host`: event, tool and field names, answers), its dialect (`dialect`: the preset that reads the
 * hooks written for it), and its wiring (`wiring`: where install writes its config and in which
 * shape, its timeout unit, what the user still has to do, doctor's sample call and how the agent
 * reads the answer). Each agent is one folder (`internal/agents/<name>/`) exporting its profile
 * from `profile.ts`; `Agents` lists them. The CLI's install, uninstall, doctor, migrate and help,
 * and the docs' agent tables, read these records: adding an agent is adding a folder.
 *
 * A bottom floor of the core, as `HostModel`: this module names types only, so each agent's
 * folder can import it without importing the list of agents.
 *
 * @since 0.2.0
 */
import type { Agent } from "./HostModel.ts"
import type { Preset } from "./PresetModel.ts"

/**
 * Where an install goes: the user's config, or the project's shared one.
 *
 * @since 0.2.0
 * @category models
 */
export type Scope = "user" | "project"

/**
 * What `Wiring.place` is given to say where the agent's config is: the scope, the user's home, the
 * project folder, the environment (an agent's own `CLAUDE_CONFIG_DIR`, `CODEX_HOME`) and the path
 * functions of the runtime (the core calls no runtime API: the CLI passes Node's).
 *
 * @since 0.2.0
 * @category models
 */
export interface Places {
  readonly scope: Scope
  readonly home: string
  readonly projectDir: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly join: (...parts: ReadonlyArray<string>) => string
  readonly resolve: (path: string) => string
}

/**
 * The agent's own switch that makes a hook that cannot start, times out or answers garbage block
 * (Claude Code's `onFailure: "block"`, Cursor's `failClosed: true`), and the events it is written on.
 *
 * @since 0.2.0
 * @category models
 */
export interface FailClosedSwitch {
  readonly key: string
  readonly value: unknown
  readonly events: ReadonlyArray<string>
}

/**
 * The shape of a JSON config shared with the user's own entries, edited in place:
 * - `nested`: Claude Code's `<group>.<Event>: [{ matcher?, hooks: [{ type, command, timeout }] }]`;
 * - `flat`: `hooks.<event>: [{ command, matcher?, timeout? }]` (`head`: a member a new file starts with).
 *
 * @since 0.2.0
 * @category models
 */
export type JsonShape =
  | { readonly shape: "nested"; readonly group: string; readonly failClosed?: FailClosedSwitch | undefined }
  | {
      readonly shape: "flat"
      readonly head?: string | undefined
      readonly timeout: boolean
      readonly matcher: boolean
      readonly failClosed?: FailClosedSwitch | undefined
    }

/**
 * The shape of a file install owns whole, in a folder the agent reads every file of:
 * - `triggers`: `{ version: "v1", hooks: [{ name, trigger, matcher?, action: { type, command }, timeout }] }`;
 * - `events`: `{ ...head, hooks: { <event>: [{ type: "command", <commandKey>, matcher?, <timeoutKey> }] } }`.
 *
 * @since 0.2.0
 * @category models
 */
export type OwnFileShape =
  | { readonly shape: "triggers" }
  | {
      readonly shape: "events"
      readonly head: Readonly<Record<string, unknown>>
      readonly commandKey: string
      readonly timeoutKey: string
      readonly matcher: boolean
    }

/**
 * Where the agent reads its hooks for one scope, and in which shape:
 * - `json`: a JSON (with comments) config shared with the user's entries;
 * - `layered`: `hooks.json`, or the `[hooks]` tables of `config.toml` when that is where the layer keeps them;
 * - `own`: a file of install's own;
 * - `scripts`: one executable per event, named after it;
 * - `plugin`: a plugin (extension) file install owns whole, loaded by an agent that has no command
 *   hooks (pi, opencode, Kilo): `plugin` names the file agent-hooks ships for that agent's plugin API.
 *
 * @since 0.2.0
 * @category models
 */
export type ConfigPlace =
  | { readonly kind: "json"; readonly file: string; readonly shape: JsonShape }
  | { readonly kind: "layered"; readonly json: string; readonly toml: string }
  | { readonly kind: "own"; readonly file: string; readonly shape: OwnFileShape }
  | { readonly kind: "scripts"; readonly folder: string }
  | { readonly kind: "plugin"; readonly file: string; readonly plugin: PluginKind }

/**
 * The plugin APIs agent-hooks ships a plugin for: pi's extensions (`pi.on("tool_call")`), and
 * opencode's plugins (`tool.execute.before`), which Kilo, an opencode fork, loads too.
 *
 * @since 0.2.0
 * @category models
 */
export type PluginKind = "pi" | "opencode"

/**
 * How the agent reads a hook's `timeout`: `seconds`, `milliseconds`, or `secondsBelow1000`
 * (1000 or more is milliseconds); `fixed`: the agent's config has no timeout (it kills a hook after
 * its own, `host.hookTimeout`), so install passes host mode a `--timeout` no longer than that.
 *
 * @since 0.2.0
 * @category models
 */
export interface TimeoutWiring {
  readonly unit: "seconds" | "milliseconds" | "secondsBelow1000"
  readonly fixed?: boolean | undefined
}

/**
 * How doctor calls the agent's hook as the agent would, and reads the answer as the agent does.
 *
 * @since 0.2.0
 * @category models
 */
export interface DoctorWiring {
  /** The agent's event that guards its shell tool (the test call's event). */
  readonly shellEvent: string
  /**
   * The agent's payload of that event for its shell tool running `command` (`common`: Claude Code's
   * `session_id`, `transcript_path`, `cwd`, for agents whose payload carries them).
   */
  readonly sample: (command: string, projectDir: string, common: Readonly<Record<string, unknown>>) => Record<string, unknown>
  /** Whether exit 2 blocks (`false`: the agent reads stdout's JSON only). */
  readonly exitBlocks: boolean
  /** Whether exit 2 blocks only with a reason on stderr (the agent runs the tool when stderr is empty). */
  readonly blockNeedsReason?: boolean | undefined
  /** The decision (`deny`/`block`/`ask`/other) and reason in the agent's JSON answer on exit 0. */
  readonly read: (json: Readonly<Record<string, unknown>>) => { readonly decision: unknown; readonly reason: unknown }
}

/**
 * How agent-hooks wires itself into the agent: install, uninstall, doctor and migrate read it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Wiring {
  /** The agent's config for a scope. */
  readonly place: (at: Places) => ConfigPlace
  readonly timeout: TimeoutWiring
  /** Event names the host mode reads but install must not register (older aliases, manual triggers). */
  readonly notRegistered?: ReadonlyArray<string> | undefined
  /** Events install registers only when asked (`install --tab`). */
  readonly optIn?: ReadonlyArray<string> | undefined
  /** Whether install writes the event into each entry's command (`--event`): the payload may not name it. */
  readonly eventInCommand?: boolean | undefined
  /** Whether the agent's dialect picks a hook's command per operating system (`migrate --from` says which it kept). */
  readonly perOsCommands?: boolean | undefined
  /** Whether the agent runs one entry per event (`migrate --to` then keeps the first). */
  readonly oneEntryPerEvent?: boolean | undefined
  /** What the user still has to do before the hooks run, per scope (install prints it). */
  readonly needs: (scope: Scope, projectDir: string) => ReadonlyArray<string>
  readonly doctor: DoctorWiring
}

/**
 * The docs' facts of an agent: its page under `docs/hosts/` and, where it has a dialect, under `docs/presets/`.
 *
 * @since 0.2.0
 * @category models
 */
export interface DocsFacts {
  readonly hostPage: string
  readonly dialectPage?: string | undefined
  /** The agent's own variable that moves its user config folder (`CLAUDE_CONFIG_DIR`), where it has one. */
  readonly configEnv?: string | undefined
}

/**
 * The payload the agent sends its hooks on `hostEvent`, from a call in Claude Code's names
 * (`claude`: its payload without `tool_name` and `tool_input` changes; `tool`: the tool in the
 * agent's own name and input fields). Host mode presents a call this way to hooks written for the
 * agent's payload (`hook --payload <agent>`); without it the agent's payload is Claude Code's with
 * the agent's event (and event field) and tool.
 *
 * @since 0.2.0
 * @category models
 */
export type PresentPayload = (
  hostEvent: string,
  claude: Readonly<Record<string, unknown>>,
  tool: { readonly name: string; readonly input: Record<string, unknown> } | undefined
) => Record<string, unknown>

/**
 * One agent: host mode, dialect, wiring and docs facts. `name` is `host.name` (the `--host` value).
 *
 * @since 0.2.0
 * @category models
 */
export interface AgentProfile {
  readonly name: string
  readonly host: Agent
  readonly dialect?: Preset | undefined
  /** How the agent lays out a call's payload, where it is not Claude Code's layout. */
  readonly present?: PresentPayload | undefined
  /** How the agent names an MCP tool (`@server/tool`), where not as Claude Code does (`mcp__server__tool`). */
  readonly mcpToolName?: ((server: string, tool: string) => string) | undefined
  /** Whether the agent's payload names no event (the command install writes gives it: `--event`). */
  readonly payloadNamesNoEvent?: boolean | undefined
  readonly wiring: Wiring
  readonly docs: DocsFacts
}

/**
 * A dialect that is not an agent (wingman, pigo, wave, orchestration): a preset and its docs page.
 *
 * @since 0.2.0
 * @category models
 */
export interface DialectProfile {
  readonly name: string
  readonly dialect: Preset
  readonly docs: { readonly dialectPage: string }
}
