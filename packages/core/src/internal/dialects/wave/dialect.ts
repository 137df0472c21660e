/**
 * Wave: Claude Code's shape in `~/.wave/settings.json`, `.wave/settings.json` and
 * `.wave/settings.local.json`; `WAVE_PROJECT_DIR`; the hooks of one event run in order.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { decode as decodeCanonical } from "../../settings.ts"
import { formatPath, hooksObject, isRecord, join, nonEmpty } from "../../presets/common.ts"

/** Wave's events are catalog events with Claude Code's semantics. */
export const events: ReadonlyArray<CustomEvent> = []

/** The events Wave fires (its data model names the first four). */
export const WAVE_EVENTS: ReadonlyArray<string> = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PermissionRequest",
  "WorktreeCreate",
  "WorktreeRemove",
  "CwdChanged",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "PostCompact"
]
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PermissionRequest"])

/** Wave's executor sets these in every hook's environment (besides WAVE_PROJECT_DIR); a handler's own env wins. */
export const environment: Readonly<Record<string, string>> = { HOOK_EVENT: "${hook_event_name}", HOOK_TOOL_NAME: "${tool_name}" }

/** Every command handler of a Claude-shaped document, with Wave's variables in its env. */
const withEnvironment = (document: unknown): unknown => {
  if (!isRecord(document) || !isRecord(document["hooks"])) return document
  const hooks = Object.fromEntries(
    Object.entries(document["hooks"]).map(([event, groups]) => [
      event,
      !Array.isArray(groups)
        ? groups
        : groups.map((group: unknown) =>
            !isRecord(group) || !Array.isArray(group["hooks"])
              ? group
              : {
                  ...group,
                  hooks: group["hooks"].map((handler: unknown) =>
                    isRecord(handler) && handler["type"] === "command" && (handler["env"] === undefined || isRecord(handler["env"]))
                      ? { ...handler, env: { ...environment, ...(handler["env"] as Record<string, unknown> | undefined) } }
                      : handler
                  )
                }
          )
    ])
  )
  return { ...document, hooks }
}

// `wave_session_<id>_<shortId>`: the short id is what follows the last underscore (the design's own
// example, `wave_session_abc123_xyz789`, names `session_xyz789.json`; a UUID id works the same way).
const WAVE_SESSION = /^wave_session_.+_([^_]+)$/
const SAFE_NAME = /^[A-Za-z0-9._-]+$/

/**
 * Wave's transcript file for a session id: `~/.wave/sessions/session_<shortId>.json`, where a Wave
 * id `wave_session_<id>_<shortId>` gives its short id and any other id is used whole. An id that
 * is not a plain file name (a `/`, `..`) gives no path: a payload must not point hooks elsewhere.
 */
export const transcriptPath = (sessionId: string, home: string | undefined): string | undefined => {
  const shortId = WAVE_SESSION.exec(sessionId)?.[1] ?? sessionId
  if (!nonEmpty(home) || !SAFE_NAME.test(shortId) || shortId === "." || shortId === "..") return undefined
  return join(home, ".wave", "sessions", `session_${shortId}.json`)
}

/** Every hook receives transcript_path; when the host passes none it is derived from the session id and checked. */
const dispatch: NonNullable<Preset["dispatch"]> = (_event, input, context) => {
  if (typeof input["transcript_path"] === "string" && input["transcript_path"] !== "") return {}
  const session = typeof input["session_id"] === "string" ? input["session_id"] : ""
  const derived = transcriptPath(session, context.env["HOME"])
  if (derived === undefined) return {}
  return {
    input: { transcript_path: derived },
    expectFiles: [
      {
        path: derived,
        warning:
          `transcript_path ${derived} (derived from session_id ${JSON.stringify(session)}, as Wave ` +
          `names session files) does not exist; pass transcript_path in the payload`
      }
    ]
  }
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const hooks = yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    // The data model's validation rules, reported (not enforced: Wave itself runs such hooks).
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!WAVE_EVENTS.includes(event)) {
        warnings.push(
          `${file.path} at ${formatPath(["hooks", event])}: "${event}" is not a Wave event (Wave ` +
            `fires ${WAVE_EVENTS.join(", ")}); it runs here only when a host dispatches it`
        )
      }
      if (!Array.isArray(groups)) continue
      groups.forEach((group: unknown, index) => {
        if (!isRecord(group)) return
        if (TOOL_EVENTS.has(event) && group["matcher"] === undefined) {
          warnings.push(
            `${file.path} at ${formatPath(["hooks", event, index, "matcher"])}: Wave's data model ` +
              `requires a matcher on ${event}; without one the group runs for every tool`
          )
        }
        if (Array.isArray(group["hooks"]) && group["hooks"].length === 0) {
          warnings.push(
            `${file.path} at ${formatPath(["hooks", event, index, "hooks"])}: Wave's data model requires at least one hook in a group`
          )
        }
      })
    }
    const decoded = yield* decodeCanonical(withEnvironment(document), file.path, file.scope, undefined, context.events ?? events)
    // Wave runs the hooks of one event in their configured order, one after another.
    return { ...decoded, sequential: decoded.sequential ?? true, warnings: [...warnings, ...decoded.warnings] }
  })

/** @internal */
export const wave: Preset = {
  name: "wave",
  description:
    "Wave: ~/.wave/settings.json, .wave/settings.json, .wave/settings.local.json; WAVE_PROJECT_DIR; hooks of an event run in order",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) files.push({ path: join(home, ".wave", "settings.json"), scope: "user", required: false })
    files.push({ path: join(context.projectDir, ".wave", "settings.json"), scope: "project", required: false })
    files.push({ path: join(context.projectDir, ".wave", "settings.local.json"), scope: "local", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: ["WAVE_PROJECT_DIR"],
  dispatch
}
