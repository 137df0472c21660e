/**
 * Wingman (`.wingman/wingman.config.json` and `.wingman/agents/{name}/agent.json`).
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import {
  decodeTranslated,
  describe,
  escapeRegex,
  exactNames,
  formatPath,
  hooksObject,
  isRecord,
  join,
  knownEvent,
  unanchoredRegex,
  validRegex
} from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"

/** Only PreToolUse blocks (exit 2); PostToolUse and Stop log and continue. Every hook's default timeout is 60 s. */
export const events: ReadonlyArray<CustomEvent> = [
  { name: "PreToolUse", defaultTimeout: 60 },
  { name: "PostToolUse", blocking: "none", defaultTimeout: 60 },
  { name: "Stop", blocking: "none", defaultTimeout: 60 }
]
const EVENTS = events.map((event) => event.name)
/** Wingman's tamper-evident audit trail of every tool call, relative to the config file (`.wingman/logs/audit.jsonl`). */
export const DEFAULT_AUDIT_LOG = "logs/audit.jsonl"
const MIN_TIMEOUT = 1
const MAX_TIMEOUT = 600

/**
 * Wingman's matcher patterns in the canonical matcher language: `*` or empty matches all; a pattern with `|` is a list of
 * exact names; a plain name is exact; anything else is an unanchored regular expression (tried after
 * the exact name); an invalid regular expression falls back to exact match.
 */
export const matcher = (pattern: string | undefined): string | undefined => {
  if (pattern === undefined || pattern === "" || pattern === "*") return pattern
  if (pattern.includes("|"))
    return exactNames(
      pattern
        .split("|")
        .map((part) => part.trim())
        .filter((part) => part !== "")
    )
  if (/^[A-Za-z0-9_-]+$/.test(pattern)) return pattern
  if (!validRegex(pattern)) return exactNames([pattern])
  const regex = unanchoredRegex(pattern)
  // Exact match comes first: a pattern that does not match its own text as a regex still matches it.
  return new RegExp(pattern).test(pattern) ? regex : `^${escapeRegex(pattern)}$|(?:${pattern})`
}

const clampTimeout = (value: unknown, path: JsonPath, file: string, warnings: Array<string>): unknown => {
  if (typeof value !== "number" || !Number.isFinite(value)) return value
  if (value < MIN_TIMEOUT) {
    warnings.push(`${file} at ${formatPath(path)}: timeout ${value} is below Wingman's minimum of ${MIN_TIMEOUT} s; using ${MIN_TIMEOUT}`)
    return MIN_TIMEOUT
  }
  if (value > MAX_TIMEOUT) {
    warnings.push(`${file} at ${formatPath(path)}: timeout ${value} is above Wingman's maximum of ${MAX_TIMEOUT} s; using ${MAX_TIMEOUT}`)
    return MAX_TIMEOUT
  }
  return value
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const warnings: Array<string> = []
    // The documents write `hooks`; Wingman's code reads `toolHooks`. Both are accepted.
    const key = isRecord(document) && document["hooks"] === undefined && document["toolHooks"] !== undefined ? "toolHooks" : "hooks"
    if (isRecord(document) && document["hooks"] !== undefined && document["toolHooks"] !== undefined) {
      warnings.push(`${file.path} at toolHooks: both "hooks" and "toolHooks" are set; "hooks" is used and "toolHooks" ignored`)
    }
    const hooks = yield* hooksObject(document, file.path, key)
    if (
      file.kind === "agent" &&
      isRecord(document) &&
      typeof document["name"] === "string" &&
      context.agent !== undefined &&
      document["name"] !== context.agent
    ) {
      warnings.push(`${file.path} at name: the agent file names "${document["name"]}", but it was loaded for agent "${context.agent}"`)
    }
    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    const patterns = new Map<string, string>()
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!knownEvent(event, EVENTS, "Wingman", [key, event], file.path, warnings)) continue
      if (!Array.isArray(groups)) {
        warnings.push(`${file.path} at ${formatPath([key, event])}: expected an array of matcher groups, got ${describe(groups)}; skipped`)
        continue
      }
      translated[event] = groups.map((group: unknown, index) => {
        paths.set(formatPath(["hooks", event, index]), formatPath([key, event, index]))
        if (!isRecord(group)) return group
        const pattern = group["matcher"]
        // Wingman's execution log has the matcher pattern as written, not its translation.
        if (typeof pattern === "string") patterns.set(formatPath(["hooks", event, index]), pattern)
        const handlers = group["hooks"]
        return {
          ...group,
          ...(typeof pattern === "string" ? { matcher: matcher(pattern) } : {}),
          ...(Array.isArray(handlers)
            ? {
                hooks: handlers.map((handler: unknown, h) =>
                  isRecord(handler) && handler["timeout"] !== undefined
                    ? {
                        ...handler,
                        timeout: clampTimeout(handler["timeout"], [key, event, index, "hooks", h, "timeout"], file.path, warnings)
                      }
                    : handler
                )
              }
            : {})
        }
      })
    }
    // Wingman asks to "log all agent tool usage ... in a secure, tamper-proof format": the audit trail is on,
    // in .wingman/logs/audit.jsonl next to the config, unless the config names another file or says false.
    const audit = isRecord(document) ? document["auditLog"] : undefined
    const auditLog = audit === false ? undefined : audit !== undefined ? audit : file.kind === "agent" ? undefined : DEFAULT_AUDIT_LOG
    const passed = {
      ...(isRecord(document) && document["executionLog"] !== undefined ? { executionLog: document["executionLog"] } : {}),
      ...(auditLog === undefined ? {} : { auditLog }),
      ...(isRecord(document) && document["auditRedact"] !== undefined ? { auditRedact: document["auditRedact"] } : {})
    }
    return yield* decodeTranslated(
      // Wingman does not deduplicate; the hooks of one event run one after another, in order.
      { document: { hooks: translated, ...passed }, paths, warnings, patterns, overrides: { dedupe: false, sequential: true } },
      file.path,
      file.scope,
      context.events ?? events
    )
  })

/** @internal */
export const wingman: Preset = {
  name: "wingman",
  description: "Wingman: .wingman/wingman.config.json, then .wingman/agents/<agent>/agent.json (--agent); PreToolUse, PostToolUse, Stop",
  discover: (context) => {
    const files: Array<PresetFile> = [
      { path: join(context.projectDir, ".wingman", "wingman.config.json"), scope: "project", required: false }
    ]
    if (context.agent !== undefined) {
      files.push({
        path: join(context.projectDir, ".wingman", "agents", context.agent, "agent.json"),
        scope: "project",
        required: true,
        kind: "agent"
      })
    }
    return files
  },
  decode,
  events,
  projectDirEnv: [],
  // Wingman's tools are its own (command_execute, write_file, edit_file), not Claude Code's.
  toolNames: [],
  logFolders: (context) => [join(context.projectDir, ".wingman")]
}
