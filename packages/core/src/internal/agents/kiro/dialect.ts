/**
 * Kiro (IDE 1.0 and CLI v3): every `.kiro/hooks/*.json` of the user (`~/.kiro/hooks/`) and of the
 * project, each `{"version": "v1", "hooks": [{name, trigger, matcher, action, timeout, enabled}]}`.
 * Exit 0 puts stdout into the agent's context; exit 2 blocks the pre hooks (PreToolUse, PreTaskExec)
 * with stderr as the reason; any other exit is a warning. No JSON answer is read.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { SettingsError } from "../../../HookError.ts"
import {
  decodeTranslated,
  describe,
  exactNames,
  formatPath,
  isRecord,
  join,
  knownEvent,
  nonEmpty,
  unanchoredRegex,
  validRegex
} from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"

/** Kiro's default hook timeout: 60 s. */
const DEFAULT_TIMEOUT = 60

/**
 * The triggers of the v1 format, on the catalog events whose semantics they share. The file
 * triggers match their regex against the file's path; the tool triggers against the tool's name.
 */
export const events: ReadonlyArray<CustomEvent> = [
  { name: "PreToolUse", extends: "PreToolUse", defaultTimeout: DEFAULT_TIMEOUT, plainStdoutToContext: true, outputDialect: "exit-code" },
  {
    name: "PostToolUse",
    extends: "PostToolUse",
    blocking: "none",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "UserPromptSubmit",
    extends: "UserPromptSubmit",
    blocking: "none",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "SessionStart",
    extends: "SessionStart",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  { name: "SessionEnd", extends: "SessionEnd", defaultTimeout: DEFAULT_TIMEOUT, outputDialect: "exit-code" },
  {
    name: "Stop",
    extends: "Stop",
    blocking: "none",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "PreTaskExec",
    blocking: "decision",
    matcherField: "task",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "PostTaskExec",
    blocking: "none",
    matcherField: "task",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "PostFileCreate",
    blocking: "none",
    matcherField: "file_path",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "PostFileSave",
    blocking: "none",
    matcherField: "file_path",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "PostFileDelete",
    blocking: "none",
    matcherField: "file_path",
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  },
  {
    name: "Manual",
    blocking: "none",
    matcherField: undefined,
    defaultTimeout: DEFAULT_TIMEOUT,
    plainStdoutToContext: true,
    outputDialect: "exit-code"
  }
]
const EVENTS = events.map((event) => event.name)

/** The IDE's and the older CLI's trigger names, read as the v1 names they became. */
export const ALIASES: Readonly<Record<string, string>> = {
  agentSpawn: "SessionStart",
  promptSubmit: "UserPromptSubmit",
  userPromptSubmit: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  agentStop: "Stop",
  stop: "Stop",
  fileEdited: "PostFileSave",
  fileCreated: "PostFileCreate",
  fileDeleted: "PostFileDelete",
  preTaskExecution: "PreTaskExec",
  postTaskExecution: "PostTaskExec",
  userTriggered: "Manual"
}

/**
 * Kiro's tool categories: a matcher naming one matches every tool of it (`shell` is `execute_bash`,
 * `@mcp` every MCP tool, `@builtin` every built-in one).
 */
const CATEGORIES: Readonly<Record<string, string>> = {
  read: "^(?:fs_read|read)$",
  write: "^(?:fs_write|write)$",
  shell: "^(?:execute_bash|execute_cmd|shell)$",
  web: "^(?:web_fetch|web_search)$",
  "@mcp": "^@",
  "@builtin": "^[^@]"
}

/**
 * Kiro's matcher is a regular expression searched in the tool name or file path (an invalid one
 * matches exactly); on the tool triggers, an alternative that is a category (`read`, `write`,
 * `shell`, `web`, `@mcp`, `@builtin`) or an MCP server (`@github`) matches its tools.
 */
export const matcher = (pattern: string | undefined, tools = false): string | undefined => {
  if (pattern === undefined || pattern === "" || pattern === "*") return pattern
  const parts = pattern.split("|").map((part) => part.trim())
  if (
    tools &&
    parts.every((part) => /^@?[\w-]+$/.test(part)) &&
    parts.some((part) => Object.hasOwn(CATEGORIES, part) || part.startsWith("@"))
  ) {
    const alternatives = parts.map((part) =>
      Object.hasOwn(CATEGORIES, part) ? CATEGORIES[part]! : part.startsWith("@") ? `^${part}/` : part
    )
    return `(?:${alternatives.join("|")})`
  }
  return validRegex(pattern) ? unanchoredRegex(pattern) : exactNames([pattern])
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    if (!isRecord(document)) {
      return yield* new SettingsError({
        file: file.path,
        path: [],
        detail: `expected a Kiro hooks file {"version": "v1", "hooks": [...]}, got ${describe(document)}`
      })
    }
    if (document["version"] !== "v1") {
      return yield* new SettingsError({
        file: file.path,
        path: ["version"],
        detail:
          `expected "v1" (the only Kiro hooks format agent-hooks reads), got ` +
          `${describe(document["version"])}; run \`kiro-cli agent migrate\` to convert older hooks`
      })
    }
    const list = document["hooks"] ?? []
    if (!Array.isArray(list)) {
      return yield* new SettingsError({
        file: file.path,
        path: ["hooks"],
        detail: `expected an array of hooks [{name, trigger, matcher, action}], got ${describe(list)}`
      })
    }
    const warnings: Array<string> = []
    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    const patterns = new Map<string, string>()
    list.forEach((hook: unknown, index) => {
      const at: JsonPath = ["hooks", index]
      const where = `${file.path} at ${formatPath(at)}`
      if (!isRecord(hook)) {
        warnings.push(`${where}: expected a hook {name, trigger, matcher, action}, got ${describe(hook)}; skipped`)
        return
      }
      const name = typeof hook["name"] === "string" ? ` "${hook["name"]}"` : ""
      if (hook["enabled"] === false) {
        warnings.push(`${where}: hook${name} has "enabled": false; it does not run`)
        return
      }
      const raw = hook["trigger"]
      if (typeof raw !== "string") {
        warnings.push(`${where}.trigger: expected a trigger name (${EVENTS.join(", ")}), got ${describe(raw)}; skipped`)
        return
      }
      const trigger = Object.hasOwn(ALIASES, raw) ? ALIASES[raw]! : raw
      if (!knownEvent(trigger, EVENTS, "Kiro", [...at, "trigger"], file.path, warnings)) return
      const action = hook["action"]
      if (!isRecord(action)) {
        warnings.push(`${where}.action: expected {"type": "command", "command": "..."}, got ${describe(action)}; skipped`)
        return
      }
      if (action["type"] === "agent") {
        warnings.push(`${where}.action: hook${name} is an agent action (a prompt Kiro's own agent runs), which only Kiro can run; skipped`)
        return
      }
      if (action["type"] !== "command") {
        warnings.push(`${where}.action.type: expected "command" or "agent", got ${describe(action["type"])}; skipped`)
        return
      }
      const group = (translated[trigger] ??= [])
      const canonicalPath = formatPath(["hooks", trigger, group.length])
      paths.set(canonicalPath, formatPath(at))
      const pattern = hook["matcher"]
      if (typeof pattern === "string") patterns.set(canonicalPath, pattern)
      group.push({
        ...(typeof pattern === "string"
          ? { matcher: matcher(pattern, trigger === "PreToolUse" || trigger === "PostToolUse") }
          : pattern === undefined
            ? {}
            : { matcher: pattern }),
        hooks: [
          {
            type: "command",
            command: action["command"],
            ...(hook["timeout"] !== undefined ? { timeout: hook["timeout"] } : {})
          }
        ]
      })
    })
    return yield* decodeTranslated(
      { document: { hooks: translated }, paths, warnings, patterns },
      file.path,
      file.scope,
      context.events ?? events,
      true
    )
  })

/** @internal */
export const kiro: Preset = {
  name: "kiro",
  description:
    "Kiro (IDE 1.0, CLI v3): ~/.kiro/hooks/*.json, .kiro/hooks/*.json (v1: name, trigger, matcher, action); exit 2 blocks pre hooks",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) files.push({ path: join(home, ".kiro", "hooks"), scope: "user", required: false, folder: { suffix: ".json" } })
    files.push({ path: join(context.projectDir, ".kiro", "hooks"), scope: "project", required: false, folder: { suffix: ".json" } })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: ["fs_read", "fs_write", "execute_bash", "use_aws", "knowledge", "introspect", "report_issue", "thinking", "todo_list"]
}
