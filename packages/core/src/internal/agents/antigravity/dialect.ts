/**
 * Antigravity CLI (`agy`, Gemini CLI's successor), with a version switch:
 *
 * - `documented` (the default, preset `antigravity`): Google's migration guide. A standalone
 *   `hooks.json` (`~/.gemini/antigravity-cli/hooks.json`, `.agents/hooks.json`) grouped by hook name
 *   (`{"my-hook-suite": {"PreToolUse": [{matcher, hooks: [...]}]}}`), timeouts in seconds, events
 *   PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop; a PreToolUse blocks with
 *   `{"allowTool": false, "denyReason": "..."}`.
 * - `1.0` (preset `antigravity-1.0`): what agy 1.0 builds were observed to do. `~/.gemini/config/hooks.json`
 *   (and the legacy `~/.gemini/hooks.json`), `.antigravitycli/hooks.json`, in Claude Code's nested
 *   shape (`{"hooks": {"PreToolUse": [...]}}`); only PreToolUse and PostToolUse run; a PreToolUse
 *   blocks with `{"decision": "deny", "reason": "..."}`.
 *
 * Either way a non-zero exit is an error, not a block (agy's exit codes are not documented).
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

/** Which contract: the documented one (default) or the one observed on agy 1.0 builds. */
export type AntigravityVersion = "documented" | "1.0"

/** Antigravity's default timeout: 60 s (as Gemini CLI's; the guide gives none). */
const DEFAULT_TIMEOUT = 60

/** The events of each contract, on the catalog events whose semantics they share. */
export const eventsFor = (version: AntigravityVersion): ReadonlyArray<CustomEvent> => {
  const outputDialect = version === "1.0" ? "antigravity-1.0" : "antigravity"
  const tool: ReadonlyArray<CustomEvent> = [
    { name: "PreToolUse", extends: "PreToolUse", matcherField: "tool_name", defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    {
      name: "PostToolUse",
      extends: "PostToolUse",
      blocking: "none",
      matcherField: "tool_name",
      defaultTimeout: DEFAULT_TIMEOUT,
      outputDialect
    }
  ]
  if (version === "1.0") return tool
  return [
    ...tool,
    { name: "PreInvocation", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "PostInvocation", blocking: "none", matcherField: undefined, defaultTimeout: DEFAULT_TIMEOUT, outputDialect },
    { name: "Stop", extends: "Stop", blocking: "none", defaultTimeout: DEFAULT_TIMEOUT, outputDialect }
  ]
}

/** Gemini CLI's names, which Antigravity replaced. */
const GEMINI_NAMES: Readonly<Record<string, string>> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeModel: "PreInvocation",
  AfterModel: "PostInvocation",
  AfterAgent: "Stop"
}

/** A regular expression searched in the tool name (as Gemini CLI's); an invalid one matches exactly. */
const matcher = (pattern: unknown): unknown => {
  if (typeof pattern !== "string" || pattern === "" || pattern === "*") return pattern
  return validRegex(pattern) ? unanchoredRegex(pattern) : exactNames([pattern])
}

/** One `{Event: [groups]}` object, read into `translated` under the canonical paths. */
const readEvents = (
  byEvent: Record<string, unknown>,
  at: JsonPath,
  names: ReadonlyArray<string>,
  file: string,
  warnings: Array<string>,
  translated: Record<string, Array<unknown>>,
  paths: Map<string, string>,
  patterns: Map<string, string>
): void => {
  for (const [event, groups] of Object.entries(byEvent)) {
    if (!knownEvent(event, names, "Antigravity", [...at, event], file, warnings, (name) => GEMINI_NAMES[name])) continue
    if (!Array.isArray(groups)) {
      warnings.push(`${file} at ${formatPath([...at, event])}: expected an array of matcher groups, got ${describe(groups)}; skipped`)
      continue
    }
    for (const [index, group] of groups.entries()) {
      const list = (translated[event] ??= [])
      const canonical = formatPath(["hooks", event, list.length])
      paths.set(canonical, formatPath([...at, event, index]))
      if (isRecord(group) && typeof group["matcher"] === "string") patterns.set(canonical, group["matcher"])
      list.push(isRecord(group) ? { ...group, ...(group["matcher"] === undefined ? {} : { matcher: matcher(group["matcher"]) }) } : group)
    }
  }
}

const decodeWith =
  (version: AntigravityVersion): Preset["decode"] =>
  (document, file, context) =>
    Effect.gen(function* () {
      const events = eventsFor(version)
      const names = events.map((event) => event.name)
      if (!isRecord(document)) {
        return yield* new SettingsError({
          file: file.path,
          path: [],
          detail: `expected a JSON object (Antigravity hooks.json), got ${describe(document)}`
        })
      }
      const warnings: Array<string> = []
      const translated: Record<string, Array<unknown>> = {}
      const paths = new Map<string, string>()
      const patterns = new Map<string, string>()
      if (version === "1.0") {
        const hooks = document["hooks"]
        if (hooks !== undefined && !isRecord(hooks)) {
          return yield* new SettingsError({
            file: file.path,
            path: ["hooks"],
            detail: `expected {"PreToolUse": [{"matcher": "...", "hooks": [...]}]}, got ${describe(hooks)}`
          })
        }
        readEvents(isRecord(hooks) ? hooks : {}, ["hooks"], names, file.path, warnings, translated, paths, patterns)
      } else {
        // grouped by hook name: {"<suite>": {"<Event>": [groups]}}
        for (const [suite, byEvent] of Object.entries(document)) {
          if (!isRecord(byEvent)) {
            warnings.push(
              `${file.path} at ${formatPath([suite])}: expected a hook suite {"PreToolUse": [...], ...}, got ${describe(byEvent)}; skipped`
            )
            continue
          }
          if (byEvent["enabled"] === false) {
            warnings.push(`${file.path} at ${formatPath([suite, "enabled"])}: the hook suite "${suite}" is disabled; it does not run`)
            continue
          }
          const { enabled: _enabled, description: _description, ...rest } = byEvent
          readEvents(rest, [suite], names, file.path, warnings, translated, paths, patterns)
        }
      }
      return yield* decodeTranslated(
        { document: { hooks: translated }, paths, warnings, patterns },
        file.path,
        file.scope,
        context.events ?? events
      )
    })

/** The Antigravity preset for one contract. @internal */
export const antigravityWith = (options: { readonly version?: AntigravityVersion | undefined } = {}): Preset => {
  const version = options.version ?? "documented"
  const events = eventsFor(version)
  return {
    name: version === "1.0" ? "antigravity-1.0" : "antigravity",
    description:
      version === "1.0"
        ? "Antigravity CLI 1.0 builds (observed): ~/.gemini/config/hooks.json, " +
          ".antigravitycli/hooks.json; Claude Code's shape; {decision: deny}"
        : "Antigravity CLI (documented): ~/.gemini/antigravity-cli/hooks.json, .agents/hooks.json; " +
          "grouped by hook name; {allowTool: false}",
    discover: (context) => {
      const files: Array<PresetFile> = []
      const home = context.env["HOME"]
      if (version === "1.0") {
        if (nonEmpty(home)) {
          files.push({ path: join(home, ".gemini", "hooks.json"), scope: "user", required: false })
          files.push({ path: join(home, ".gemini", "config", "hooks.json"), scope: "user", required: false })
        }
        files.push({ path: join(context.projectDir, ".antigravitycli", "hooks.json"), scope: "project", required: false })
      } else {
        if (nonEmpty(home)) files.push({ path: join(home, ".gemini", "antigravity-cli", "hooks.json"), scope: "user", required: false })
        files.push({ path: join(context.projectDir, ".agents", "hooks.json"), scope: "project", required: false })
      }
      return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
    },
    decode: decodeWith(version),
    events,
    projectDirEnv: [],
    toolNames: [
      "run_command",
      "view_file",
      "edit_file",
      "write_to_file",
      "grep_search",
      "find_by_name",
      "list_dir",
      "read_url_content",
      "search_web"
    ]
  }
}

/** @internal */
export const antigravity: Preset = antigravityWith()
/** @internal */
export const antigravity10: Preset = antigravityWith({ version: "1.0" })
