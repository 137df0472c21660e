/**
 * pigo's plugin hooks: `plugins[]` in `~/.pigo/config.json` (or `$PIGO_HOME/config.json`), each
 * with `name`, `enabled` and `hooks` keyed by pigo's six events; context in `PIGO_*` variables.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset } from "../../../PresetModel.ts"
import { decodeTranslated, describe, exactNames, formatPath, isRecord, join, knownEvent, nonEmpty } from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"
import { SettingsError } from "../../../HookError.ts"

/** Timeout of a blocking hook when none is given (seconds). */
export const DEFAULT_TIMEOUT = 10
/** Fire-and-forget hooks have no timeout in pigo; here they are bounded (and reaped) after this long. */
export const BACKGROUND_TIMEOUT = 600

/** Only a blocking `tool_start` hook can stop anything: any non-zero exit cancels the tool. */
export const events: ReadonlyArray<CustomEvent> = [
  {
    name: "agent_start",
    extends: "UserPromptSubmit",
    blocking: "none",
    matcherField: undefined,
    plainStdoutToContext: false,
    defaultTimeout: DEFAULT_TIMEOUT
  },
  { name: "turn_start", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT },
  { name: "tool_start", extends: "PreToolUse", nonZeroBlocks: true, matcherField: "tool_name", defaultTimeout: DEFAULT_TIMEOUT },
  { name: "tool_end", extends: "PostToolUse", blocking: "none", matcherField: "tool_name", defaultTimeout: DEFAULT_TIMEOUT },
  { name: "turn_end", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT },
  { name: "agent_end", extends: "Stop", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT }
]
const EVENTS = events.map((event) => event.name)
const TOOL_EVENTS = new Set(["tool_start", "tool_end"])

/** pigo cuts its values ("tool output truncated to 10K chars"): each `PIGO_*` value at 10 000 characters. */
const VALUE_CHARS = 10_000

/**
 * The `PIGO_*` variables of each event, as payload placeholders, each cut at 10 000 characters
 * (`envMaxChars`), so no payload can make the spawn fail with E2BIG.
 */
export const environment = (event: string): Readonly<Record<string, string>> => ({
  PIGO_EVENT: event,
  PIGO_WORK_DIR: "${cwd}",
  PIGO_MODEL: "${model}",
  PIGO_SYSTEM_PROMPT: "${system_prompt}",
  PIGO_USER_MESSAGE: "${user_message}",
  PIGO_ASSISTANT_MESSAGE: "${assistant_message}",
  ...(event === "tool_start" || event === "tool_end" ? { PIGO_TOOL_NAME: "${tool_name}", PIGO_TOOL_ARGS: "${tool_input}" } : {}),
  ...(event === "tool_start" ? { PIGO_TOOL_INPUT: "${tool_input.command}" } : {}),
  ...(event === "tool_end" ? { PIGO_TOOL_OUTPUT: "${tool_response}", PIGO_TOOL_ERROR: "${tool_error}" } : {}),
  ...(event === "turn_start" || event === "turn_end" ? { PIGO_TURN_NUMBER: "${turn_number}" } : {})
})

const translateHook = (
  hook: unknown,
  event: string,
  path: JsonPath,
  file: string,
  warnings: Array<string>
): Record<string, unknown> | undefined => {
  if (!isRecord(hook)) {
    warnings.push(`${file} at ${formatPath(path)}: expected a hook object like {"command": "..."}, got ${describe(hook)}; skipped`)
    return undefined
  }
  const group: Record<string, unknown> = {}
  const match = hook["match"]
  if (match !== undefined) {
    if (!isRecord(match) || (match["tool"] !== undefined && typeof match["tool"] !== "string")) {
      warnings.push(`${file} at ${formatPath([...path, "match"])}: expected {"tool": "name|name"}, got ${describe(match)}; hook skipped`)
      return undefined
    }
    for (const key of Object.keys(match)) {
      if (key !== "tool") warnings.push(`${file} at ${formatPath([...path, "match", key])}: unknown match rule (only "tool"); ignored`)
    }
    const tool = match["tool"] as string | undefined
    if (tool !== undefined && tool !== "") {
      if (TOOL_EVENTS.has(event)) group["matcher"] = exactNames(tool.split("|"))
      else
        warnings.push(
          `${file} at ${formatPath([...path, "match", "tool"])}: ${event} has no tool; the match ` +
            `rule is ignored and the hook runs for every ${event}`
        )
    }
  }
  let blocking = true
  const flag = hook["blocking"]
  if (flag === false) blocking = false
  else if (flag !== undefined && flag !== true)
    warnings.push(`${file} at ${formatPath([...path, "blocking"])}: expected a boolean, got ${describe(flag)}; blocking`)
  const handler: Record<string, unknown> = {
    type: "command",
    command: hook["command"],
    shell: "bash",
    env: environment(event),
    envMaxChars: VALUE_CHARS
  }
  const timeout = hook["timeout"]
  if (!blocking) {
    handler["async"] = true
    handler["timeout"] = BACKGROUND_TIMEOUT
    if (timeout !== undefined)
      warnings.push(`${file} at ${formatPath([...path, "timeout"])}: timeout applies to blocking hooks only; ignored`)
  } else if (typeof timeout === "number" && timeout > 0) {
    handler["timeout"] = timeout
  } else if (timeout !== undefined && timeout !== 0) {
    warnings.push(
      `${file} at ${formatPath([...path, "timeout"])}: expected a positive number of seconds, ` +
        `got ${describe(timeout)}; using ${DEFAULT_TIMEOUT}`
    )
  }
  // A blocking tool_start hook that times out cancels the tool too ("timeout treated as failure").
  if (blocking && event === "tool_start") handler["onFailure"] = "block"
  if (hook["type"] !== undefined) {
    warnings.push(
      `${file} at ${formatPath([...path, "type"])}: hook type ${describe(hook["type"])} is not ` +
        `part of pigo's documented config; runs as a plain command hook (its stdout is not injected)`
    )
  }
  for (const key of Object.keys(hook)) {
    if (!["command", "match", "blocking", "timeout", "type"].includes(key))
      warnings.push(`${file} at ${formatPath([...path, key])}: unknown hook field; ignored`)
  }
  return { ...group, hooks: [handler] }
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    if (!isRecord(document)) {
      return yield* new SettingsError({
        file: file.path,
        path: [],
        detail: `expected a JSON object with a "plugins" array, got ${describe(document)}`
      })
    }
    const warnings: Array<string> = []
    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    const plugins = document["plugins"]
    const names = new Set<string>()
    if (plugins !== undefined && !Array.isArray(plugins)) {
      warnings.push(`${file.path} at plugins: expected an array of plugin objects, got ${describe(plugins)}; no plugin hooks`)
    }
    ;(Array.isArray(plugins) ? plugins : []).forEach((plugin: unknown, p) => {
      const base: JsonPath = ["plugins", p]
      if (typeof plugin === "string") {
        warnings.push(
          `${file.path} at ${formatPath(base)}: plugin "${plugin}" is a name; write the plugin ` +
            `object ({"name", "enabled", "hooks"}) here; skipped`
        )
        return
      }
      if (!isRecord(plugin)) {
        warnings.push(
          `${file.path} at ${formatPath(base)}: expected a plugin object {"name", "enabled", "hooks"}, got ${describe(plugin)}; skipped`
        )
        return
      }
      const name = plugin["name"]
      if (typeof name !== "string" || name === "") {
        warnings.push(`${file.path} at ${formatPath([...base, "name"])}: expected a plugin name (required), got ${describe(name)}`)
      } else if (names.has(name)) {
        warnings.push(`${file.path} at ${formatPath([...base, "name"])}: plugin name "${name}" is used twice (names must be unique)`)
      } else names.add(name)
      const enabled = plugin["enabled"]
      if (enabled === false) return
      if (enabled !== undefined && enabled !== true) {
        warnings.push(`${file.path} at ${formatPath([...base, "enabled"])}: expected a boolean, got ${describe(enabled)}; enabled`)
      }
      const hooks = plugin["hooks"]
      if (!isRecord(hooks)) {
        warnings.push(
          `${file.path} at ${formatPath([...base, "hooks"])}: expected an object mapping events to ` +
            `hook arrays (required), got ${describe(hooks)}; plugin skipped`
        )
        return
      }
      for (const [event, list] of Object.entries(hooks)) {
        if (!knownEvent(event, EVENTS, "pigo", [...base, "hooks", event], file.path, warnings)) continue
        if (!Array.isArray(list)) {
          warnings.push(
            `${file.path} at ${formatPath([...base, "hooks", event])}: expected an array of hooks, got ${describe(list)}; skipped`
          )
          continue
        }
        list.forEach((hook: unknown, h) => {
          const path: JsonPath = [...base, "hooks", event, h]
          const group = translateHook(hook, event, path, file.path, warnings)
          if (group === undefined) return
          const groups = (translated[event] ??= [])
          paths.set(formatPath(["hooks", event, groups.length]), formatPath(path))
          groups.push(group)
        })
      }
    })
    // PIGO_MODEL is the payload's model, else the config's `model` (the model pigo runs with).
    const model = document["model"]
    if (model !== undefined && typeof model !== "string")
      warnings.push(`${file.path} at model: expected a model name, got ${describe(model)}; ignored`)
    const inputDefaults = typeof model === "string" && model !== "" ? { model } : undefined
    return yield* decodeTranslated(
      // Plugins in order, hooks in order: one after another.
      { document: { hooks: translated }, paths, warnings, overrides: { sequential: true, inputDefaults } },
      file.path,
      file.scope,
      context.events ?? events,
      true
    )
  })

/** @internal */
export const pigo: Preset = {
  name: "pigo",
  description:
    "pigo: plugins[] in ~/.pigo/config.json ($PIGO_HOME); agent_start, turn_start, tool_start, tool_end, turn_end, agent_end; PIGO_* env",
  discover: (context) => {
    const explicit = context.env["PIGO_HOME"]
    const base = nonEmpty(explicit)
      ? explicit.startsWith("/")
        ? explicit
        : join(context.cwd, explicit)
      : nonEmpty(context.env["HOME"])
        ? join(context.env["HOME"]!, ".pigo")
        : undefined
    return base === undefined ? [] : [{ path: join(base, "config.json"), scope: "user", required: false }]
  },
  decode,
  events,
  projectDirEnv: [],
  // pigo's tools are lower case (bash, write, edit): Claude Code's names in another case are not a mistake here.
  toolNames: [],
  // pigo's design: "Config parse errors: warn at startup, don't block agent".
  unreadableConfig: "warn"
}
