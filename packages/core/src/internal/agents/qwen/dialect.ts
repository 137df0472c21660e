/**
 * Qwen Code: `hooks` in `~/.qwen/settings.json`, `<project>/.qwen/settings.json` and the system
 * settings (`/etc/qwen-code/settings.json`, `$QWEN_CODE_SYSTEM_SETTINGS_PATH`). Claude Code's
 * shape and names, and its differences: its own events (SessionDelete, TodoCreated, TodoCompleted,
 * QueryEnd; TodoCreated and TodoCompleted block by decision), the hookSpecificOutput fields it reads
 * per event, Gemini CLI's tool names (`run_shell_command`, `write_file`...), a
 * 60 s default timeout, a `timeout` of 1000 or more read as milliseconds, `QWEN_PROJECT_DIR`.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { matcherAliases, QWEN_BLOCKING_OWN, QWEN_SPECIFIC, qwen as qwenAgent } from "./host.ts"
import { decode as decodeCanonical } from "../../settings.ts"
import { describe, formatPath, isRecord, join, nonEmpty } from "../../presets/common.ts"

/**
 * Qwen Code's events: Claude Code's with its 60 s default, and its own; each reads the
 * `hookSpecificOutput` fields Qwen Code reads there (`QWEN_SPECIFIC`). Of its own events,
 * TodoCreated and TodoCompleted block with `decision: "block"`, the reason to the model.
 */
export const events: ReadonlyArray<CustomEvent> = Object.keys(qwenAgent.events).map((name) => ({
  name,
  defaultTimeout: qwenAgent.hookTimeout,
  ...(qwenAgent.ownEvents.includes(name)
    ? { blocking: QWEN_BLOCKING_OWN.includes(name) ? ("decision" as const) : ("none" as const), matcherField: undefined }
    : {}),
  specificOutput: Object.hasOwn(QWEN_SPECIFIC, name) ? QWEN_SPECIFIC[name]! : []
}))

/** Qwen Code's events whose matcher is tested against the tool's name (and its aliases). */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"])

/** Each name a matcher may use → the tools it names (Qwen Code sends a tool's wire name). */
const toolsByAlias = new Map<string, Array<string>>()
for (const [tool, names] of Object.entries(matcherAliases)) {
  for (const name of [tool, ...names]) toolsByAlias.set(name, [...(toolsByAlias.get(name) ?? []), tool])
}

/**
 * Qwen Code matches a tool matcher (its `matchesHookPattern`) as an exact name first, against the
 * tool's whole alias set (`Bash` names `run_shell_command`), also per alternative of a `|` list not
 * starting with `^` or `(`, and then as an unanchored regular expression on the wire name, a plain
 * name too (`shell` matches `run_shell_command`). The matcher is written as that regular expression,
 * with the tools it names exactly as an anchored alternative, so the same calls match.
 */
const qwenMatcher = (matcher: string): string => {
  const pattern = matcher.trim()
  if (pattern === "" || pattern === "*" || pattern === ".*") return matcher
  const split = pattern.includes("|") && !pattern.startsWith("^") && !pattern.startsWith("(")
  const alternatives = split
    ? pattern
        .split("|")
        .map((part) => part.trim())
        .filter((part) => part !== "")
    : [pattern]
  if (alternatives.some((part) => part === "*" || part === ".*")) return "*"
  const tools = [...new Set(alternatives.flatMap((name) => toolsByAlias.get(name) ?? []))]
  const named = tools.length === 0 ? "" : `^(?:${tools.join("|")})$`
  const expression = alternatives.join("|")
  try {
    new RegExp(expression)
  } catch {
    // Qwen Code: an invalid regular expression matches nothing beyond the exact names
    return named === "" ? matcher : named
  }
  return named === "" ? `(?:${expression})` : `(?:${expression})|${named}`
}

/**
 * A Qwen Code settings file as the canonical decoder reads it:
 * - a hook `timeout` of 1000 or more is milliseconds, as Qwen Code reads it (a smaller one is
 *   seconds): converted, with a note naming the file and JSON path;
 * - a tool matcher matches what Qwen Code's matcher matches (`qwenMatcher`);
 * - `"sequential": true` on a group marks its hooks, so a call that matches any of them runs all its
 *   matched hooks in order (Qwen Code's planner, as Gemini CLI's).
 */
const qwenDocument = (document: unknown, file: string, notes: Array<string>): unknown => {
  if (!isRecord(document) || !isRecord(document["hooks"])) return document
  const hooks = Object.fromEntries(
    Object.entries(document["hooks"]).map(([event, groups]) => [
      event,
      !Array.isArray(groups)
        ? groups
        : groups.map((group: unknown, g) => {
            if (!isRecord(group) || !Array.isArray(group["hooks"])) return group
            const { sequential, ...rest } = group
            const inOrder = sequential === true
            if (sequential !== undefined && typeof sequential !== "boolean") {
              notes.push(
                `${file} at ${formatPath(["hooks", event, g, "sequential"])}: expected a boolean, got ${describe(sequential)}; ignored`
              )
            }
            return {
              ...rest,
              ...(TOOL_EVENTS.has(event) && typeof group["matcher"] === "string" ? { matcher: qwenMatcher(group["matcher"]) } : {}),
              hooks: group["hooks"].map((handler: unknown, h) => {
                if (!isRecord(handler)) return handler
                const ordered = inOrder ? { ...handler, sequential: true } : handler
                if (typeof handler["timeout"] !== "number" || handler["timeout"] < 1000) return ordered
                notes.push(
                  `${file} at ${formatPath(["hooks", event, g, "hooks", h, "timeout"])}: ` +
                    `${handler["timeout"]} is 1000 or more, which Qwen Code reads as milliseconds: ` +
                    `${handler["timeout"] / 1000} s`
                )
                return { ...ordered, timeout: handler["timeout"] / 1000 }
              })
            }
          })
    ])
  )
  return { ...document, hooks }
}

/** @internal */
export const qwen: Preset = {
  name: "qwen",
  description:
    "Qwen Code: ~/.qwen/settings.json, .qwen/settings.json, /etc/qwen-code/settings.json; " +
    "Claude Code's shape, its own events, Gemini CLI's tool names, 60 s",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) files.push({ path: join(home, ".qwen", "settings.json"), scope: "user", required: false })
    files.push({ path: join(context.projectDir, ".qwen", "settings.json"), scope: "project", required: false })
    const system = context.env["QWEN_CODE_SYSTEM_SETTINGS_PATH"]
    files.push({ path: nonEmpty(system) ? system : "/etc/qwen-code/settings.json", scope: "managed", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode: (document, file, context) => {
    const notes: Array<string> = []
    const converted = qwenDocument(document, file.path, notes)
    return Effect.map(decodeCanonical(converted, file.path, file.scope, undefined, context.events ?? events), (decoded) => ({
      ...decoded,
      warnings: [...notes, ...decoded.warnings]
    }))
  },
  events,
  projectDirEnv: ["QWEN_PROJECT_DIR"],
  toolNames: qwenAgent.toolNames
}
