/**
 * Gemini CLI: `hooks` in `~/.gemini/settings.json`, `.gemini/settings.json` and the system settings;
 * its own event names, timeouts in milliseconds, `hooksConfig` (enabled, disabled).
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import {
  decodeTranslated,
  describe,
  exactNames,
  formatPath,
  isRecord,
  join,
  knownEvent,
  millisToSeconds,
  nonEmpty,
  unanchoredRegex,
  validRegex
} from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"
import { SettingsError } from "../../../HookError.ts"
import { gemini as geminiAgent } from "./host.ts"

/** Gemini's default timeout: 60 000 ms. */
const DEFAULT_TIMEOUT = 60

/** How hook output is read: Gemini CLI's reference docs (the default), or its source's behaviour. */
export type GeminiCompat = "documented" | "source"

/** The eleven events, on the catalog events whose semantics they share, read with the given output rules. */
export const eventsFor = (compat: GeminiCompat): ReadonlyArray<CustomEvent> => {
  const outputDialect = compat === "source" ? "gemini-source" : "gemini"
  return [
    { name: "BeforeTool", extends: "PreToolUse", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "AfterTool", extends: "PostToolUse", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "BeforeAgent", extends: "UserPromptSubmit", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "AfterAgent", extends: "Stop", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "BeforeModel", blocking: "decision", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "AfterModel", blocking: "decision", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "BeforeToolSelection", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "SessionStart", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "SessionEnd", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "PreCompress", extends: "PreCompact", blocking: "none", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "Notification", defaultTimeout: DEFAULT_TIMEOUT, outputDialect }
  ]
}

/** The eleven events, read by the documented rules. */
export const events: ReadonlyArray<CustomEvent> = eventsFor("documented")
const EVENTS = events.map((event) => event.name)
const TOOL_EVENTS = new Set(["BeforeTool", "AfterTool"])
/** Claude Code's names, which Gemini refuses ("Invalid hook event name"). */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  PreToolUse: "BeforeTool",
  PostToolUse: "AfterTool",
  UserPromptSubmit: "BeforeAgent",
  Stop: "AfterAgent",
  SubagentStop: "AfterAgent",
  PreCompact: "PreCompress"
}

/** Tool events: an unanchored regular expression, an invalid one matching exactly; other events: the exact value. */
export const matcher = (event: string, pattern: string | undefined): string | undefined => {
  if (pattern === undefined || pattern === "" || pattern === "*") return pattern
  if (!TOOL_EVENTS.has(event)) return exactNames([pattern])
  return validRegex(pattern) ? unanchoredRegex(pattern) : exactNames([pattern])
}

/**
 * `$GEMINI_PROJECT_DIR` and its documented alias `$CLAUDE_PROJECT_DIR` in a command become the
 * canonical placeholder, quoted safely where it stands (a project folder with a space works).
 */
const projectDirPlaceholders = (command: string): string =>
  command.replace(/\$\{(?:GEMINI|CLAUDE)_PROJECT_DIR\}|\$(?:GEMINI|CLAUDE)_PROJECT_DIR(?![A-Za-z0-9_])/g, "${CLAUDE_PROJECT_DIR}")

/**
 * Gemini CLI's base input fields on every event, the model events included: `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name` and an ISO 8601 `timestamp` (the host's values win);
 * and `GEMINI_PLANS_DIR` in the environment (the host's, else `<project>/.gemini/plans`).
 */
const dispatch: NonNullable<Preset["dispatch"]> = (_event, _input, context) => ({
  input: { transcript_path: "", timestamp: new Date().toISOString() },
  ...(nonEmpty(context.env["GEMINI_PLANS_DIR"]) ? {} : { env: { GEMINI_PLANS_DIR: join(context.projectDir, ".gemini", "plans") } })
})

/**
 * Gemini CLI runs identical hooks matched by two groups once, keyed as `name:command` (the name or
 * "", the command as written or "" for other types): two hooks with one command and different
 * names both run; one name and command with other timeouts or env run once.
 */
const dedupeKey = (handler: Record<string, unknown>): string => {
  const name = typeof handler["name"] === "string" ? handler["name"] : ""
  const command = handler["type"] === "command" && typeof handler["command"] === "string" ? handler["command"] : ""
  return `${name}:${command}`
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    if (!isRecord(document)) {
      return yield* new SettingsError({
        file: file.path,
        path: [],
        detail: `expected a JSON object (Gemini CLI settings), got ${describe(document)}`
      })
    }
    const warnings: Array<string> = []
    const hooks = document["hooks"]
    if (hooks !== undefined && !isRecord(hooks)) {
      return yield* new SettingsError({
        file: file.path,
        path: ["hooks"],
        detail:
          `expected an object mapping Gemini event names to arrays of matcher groups, like ` +
          `{"BeforeTool": [{"matcher": "write_file", "hooks": [...]}]}, got ${describe(hooks)}`
      })
    }
    // hooksConfig: {enabled, disabled}; older releases kept them inside "hooks".
    const config = isRecord(document["hooksConfig"]) ? document["hooksConfig"] : {}
    const configAt = isRecord(document["hooksConfig"]) ? "hooksConfig" : "hooks"
    const enabled = config["enabled"] ?? (isRecord(hooks) ? hooks["enabled"] : undefined)
    const disabledList = config["disabled"] ?? (isRecord(hooks) ? hooks["disabled"] : undefined)
    let disableAllHooks: boolean | undefined
    if (enabled === false) disableAllHooks = true
    else if (enabled === true) disableAllHooks = false
    else if (enabled !== undefined)
      warnings.push(`${file.path} at ${configAt}.enabled: expected a boolean, got ${describe(enabled)}; ignored`)
    const disabled = new Set<string>()
    if (Array.isArray(disabledList)) {
      for (const name of disabledList) if (typeof name === "string") disabled.add(name)
    } else if (disabledList !== undefined)
      warnings.push(`${file.path} at ${configAt}.disabled: expected an array of hook names, got ${describe(disabledList)}; ignored`)

    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    const disabledPaths = new Set<string>()
    for (const [event, groups] of Object.entries(isRecord(hooks) ? hooks : {})) {
      if (event === "enabled" || event === "disabled" || event === "notifications") continue
      if (!knownEvent(event, EVENTS, "Gemini CLI", ["hooks", event], file.path, warnings, (name) => CLAUDE_NAMES[name])) continue
      if (!Array.isArray(groups)) {
        warnings.push(
          `${file.path} at ${formatPath(["hooks", event])}: expected an array of matcher groups, got ${describe(groups)}; skipped`
        )
        continue
      }
      translated[event] = groups.map((group: unknown, index) => {
        const groupPath: JsonPath = ["hooks", event, index]
        paths.set(formatPath(groupPath), formatPath(groupPath))
        if (!isRecord(group)) return group
        const { sequential: groupSequential, ...rest } = group
        // A sequential group marks its own hooks: a call that matches one of them runs all its
        // matched hooks in order; calls and events that match none stay parallel (Gemini CLI's planner).
        const inOrder = groupSequential === true
        if (groupSequential !== undefined && typeof groupSequential !== "boolean") {
          warnings.push(
            `${file.path} at ${formatPath([...groupPath, "sequential"])}: expected a boolean, got ${describe(groupSequential)}; ignored`
          )
        }
        const handlers = group["hooks"]
        return {
          ...rest,
          ...(typeof group["matcher"] === "string" ? { matcher: matcher(event, group["matcher"]) } : {}),
          ...(Array.isArray(handlers)
            ? {
                hooks: handlers.map((handler: unknown, h) => {
                  if (!isRecord(handler)) return handler
                  const path: JsonPath = [...groupPath, "hooks", h]
                  const name =
                    typeof handler["name"] === "string"
                      ? handler["name"]
                      : typeof handler["command"] === "string"
                        ? handler["command"]
                        : undefined
                  if (name !== undefined && disabled.has(name)) {
                    warnings.push(`${file.path} at ${formatPath(path)}: hook "${name}" is listed in ${configAt}.disabled; it does not run`)
                    disabledPaths.add(formatPath(path))
                  }
                  // name and description are Gemini CLI's own handler keys (names for hooksConfig.disabled
                  // and for people); the canonical handler has no such keys.
                  const { name: _name, description: _description, ...fields } = handler
                  return {
                    ...fields,
                    dedupeKey: dedupeKey(handler),
                    ...(inOrder ? { sequential: true } : {}),
                    ...(typeof handler["command"] === "string"
                      ? { command: projectDirPlaceholders(handler["command"]), shell: "bash" }
                      : {}),
                    env: { GEMINI_CWD: "${cwd}", GEMINI_SESSION_ID: "${session_id}", ...(isRecord(handler["env"]) ? handler["env"] : {}) },
                    ...(handler["timeout"] !== undefined
                      ? { timeout: millisToSeconds(handler["timeout"], [...path, "timeout"], file.path, warnings) }
                      : {})
                  }
                })
              }
            : {})
        }
      })
    }
    const decoded = yield* decodeTranslated(
      { document: { hooks: translated }, paths, warnings, overrides: { disableAllHooks } },
      file.path,
      file.scope,
      context.events ?? events
    )
    // Disabled hooks were kept through decoding (so the paths stay right), and are dropped here, with the warning above.
    return { ...decoded, entries: decoded.entries.filter((entry) => !disabledPaths.has(entry.path)) }
  })

/** The Gemini CLI preset with the given output rules (`geminiCompat`). @internal */
export const geminiWith = (options: { readonly geminiCompat?: GeminiCompat | undefined } = {}): Preset => {
  const compatEvents = eventsFor(options.geminiCompat ?? "documented")
  return {
    name: "gemini",
    description:
      "Gemini CLI: ~/.gemini/settings.json, .gemini/settings.json, system settings; BeforeTool, AfterTool, BeforeAgent, ...; ms timeouts",
    discover: (context) => {
      const files: Array<PresetFile> = []
      const home = context.env["HOME"]
      if (nonEmpty(home)) files.push({ path: join(home, ".gemini", "settings.json"), scope: "user", required: false })
      files.push({ path: join(context.projectDir, ".gemini", "settings.json"), scope: "project", required: false })
      const system = context.env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"]
      files.push({ path: nonEmpty(system) ? system : "/etc/gemini-cli/settings.json", scope: "managed", required: false })
      return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
    },
    decode: (document, file, context) => decode(document, file, { ...context, events: context.events ?? compatEvents }),
    events: compatEvents,
    projectDirEnv: ["GEMINI_PROJECT_DIR"],
    // Gemini CLI's built-in tools, for the "wrong case never matches" warning.
    // Gemini CLI's tools, as its host mode knows them
    toolNames: geminiAgent.toolNames,
    dispatch
  }
}

/** @internal */
export const gemini: Preset = geminiWith()
