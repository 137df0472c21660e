/**
 * Cursor: hooks.json v1 (`{"version": 1, "hooks": {"preToolUse": [{"command": ...}]}}`) at enterprise
 * (`/etc/cursor/hooks.json`, macOS `/Library/Application Support/Cursor/hooks.json`, Windows
 * `C:\ProgramData\Cursor\hooks.json`), user (`~/.cursor/hooks.json`) and project
 * (`<project>/.cursor/hooks.json`) scope. A flat list per event; a command runs from its hooks.json
 * folder; timeouts in seconds; exit 2 denies; another failure fails open unless `failClosed`.
 */
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { CURSOR_EVENTS, CURSOR_TOOLS } from "./host.ts"
import { exactNames, formatPath, join, nonEmpty, unanchoredRegex, validRegex } from "../../presets/common.ts"
import { decodeFlat, inFolder, platformOf } from "../../presets/peerCommon.ts"

/** Cursor's events with its semantics: before* decide by `permission`, the others observe; answers read as Cursor writes them. */
export const events: ReadonlyArray<CustomEvent> = CURSOR_EVENTS.map((event) => ({
  name: event.name,
  ...(event.behavesAs === undefined ? {} : { extends: event.behavesAs }),
  ...(event.blocks ? {} : { blocking: "none" as const }),
  matcherField: event.matcherField,
  outputDialect: "cursor" as const
}))

const NAMES = CURSOR_EVENTS.map((event) => event.name)

/** Cursor's default `loop_limit`: a stop hook's follow-ups in a row. */
const LOOP_LIMIT = 5

/** A Cursor matcher is a regular expression searched in the field (`curl|wget` in a shell command); an invalid one matches exactly. */
const matcherOf = (pattern: unknown): unknown =>
  typeof pattern !== "string" || pattern === "" || pattern === "*"
    ? pattern
    : validRegex(pattern)
      ? unanchoredRegex(pattern)
      : exactNames([pattern])

/** The folder of a file path (POSIX or Windows separators). */
const folderOf = (path: string): string => path.replace(/[\\/][^\\/]*$/, "") || "/"

const decode: Preset["decode"] = (document, file, context) => {
  const folder = folderOf(file.path)
  const powershell = platformOf(context) === "win32"
  return decodeFlat(document, file, context.events ?? events, {
    dialect: "Cursor",
    events: NAMES,
    event: (name) => (NAMES.includes(name) ? name : undefined),
    handler: (entry, event, path, sink) => {
      const { command, type, prompt, matcher, timeout, failClosed, loop_limit, ...rest } = entry
      for (const key of Object.keys(rest))
        sink.push(`${file.path} at ${formatPath([...path, key])}: unknown Cursor hook key "${key}"; ignored`)
      if (failClosed !== undefined && typeof failClosed !== "boolean") {
        sink.push(`${file.path} at ${formatPath([...path, "failClosed"])}: expected a boolean, got ${JSON.stringify(failClosed)}; ignored`)
      }
      const stops = event === "stop" || event === "subagentStop"
      const validLimit =
        loop_limit === undefined ||
        loop_limit === null ||
        (typeof loop_limit === "number" && Number.isInteger(loop_limit) && loop_limit >= 0)
      if (!validLimit) {
        sink.push(
          `${file.path} at ${formatPath([...path, "loop_limit"])}: expected a whole number of ` +
            `follow-ups or null (no limit), got ${JSON.stringify(loop_limit)}; the default ` +
            `${LOOP_LIMIT} applies`
        )
      } else if (loop_limit !== undefined && !stops) {
        sink.push(
          `${file.path} at ${formatPath([...path, "loop_limit"])}: loop_limit applies to stop and subagentStop only; ignored on ${event}`
        )
      }
      // loop_limit: this hook's follow-ups in a row (default 5; null: no limit of its own)
      const loopLimit = !stops || loop_limit === null ? undefined : typeof loop_limit === "number" && validLimit ? loop_limit : LOOP_LIMIT
      const common = {
        ...(loopLimit === undefined ? {} : { loopLimit }),
        ...(timeout === undefined ? {} : { timeout }),
        // failClosed: a hook that crashes, times out or prints invalid output denies, as exit 2 would
        ...(failClosed === true ? { onFailure: "block" } : {})
      }
      if (type === "prompt") return { matcher: matcherOf(matcher), handler: { type: "prompt", prompt, ...common } }
      if (type !== undefined && type !== "command") {
        sink.push(`${file.path} at ${formatPath([...path, "type"])}: expected "command" or "prompt", got ${JSON.stringify(type)}; skipped`)
        return undefined
      }
      return {
        matcher: matcherOf(matcher),
        handler: {
          type: "command",
          // a command runs from its hooks.json folder, so a relative path names a file beside it
          ...(typeof command === "string" && command.trim() !== "" ? { command: inFolder(command, folder, powershell) } : { command }),
          ...(powershell ? { shell: "powershell" } : {}),
          ...common
        }
      }
    }
  })
}

/** Cursor's enterprise hooks.json for the platform; `AGENT_HOOKS_MANAGED_DIR` names another folder. */
const enterpriseFile = (context: Parameters<Preset["discover"]>[0]): string => {
  const dir = context.env["AGENT_HOOKS_MANAGED_DIR"]
  if (nonEmpty(dir)) return join(dir, "hooks.json")
  const platform = platformOf(context)
  if (platform === "darwin") return "/Library/Application Support/Cursor/hooks.json"
  if (platform === "win32") return "C:\\ProgramData\\Cursor\\hooks.json"
  return "/etc/cursor/hooks.json"
}

/** @internal */
export const cursor: Preset = {
  name: "cursor",
  description:
    "Cursor: hooks.json v1 at ~/.cursor, .cursor and the enterprise folder (/etc/cursor); " +
    "camelCase events; permission/followup_message answers",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) files.push({ path: join(home, ".cursor", "hooks.json"), scope: "user", required: false })
    files.push({ path: join(context.projectDir, ".cursor", "hooks.json"), scope: "project", required: false })
    files.push({ path: enterpriseFile(context), scope: "managed", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: CURSOR_TOOLS
}
