/**
 * Wave: Claude Code's shape in `~/.wave/settings.json`, `.wave/settings.json` and
 * `.wave/settings.local.json`; `WAVE_PROJECT_DIR`; the hooks of one event run in order (FR-008).
 */
import { Effect } from "effect"
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetFile } from "../../Preset.ts"
import { decode as decodeCanonical } from "../settings.ts"
import { formatPath, hooksObject, isRecord, join, nonEmpty } from "./common.ts"

/** Wave's events are catalog events with Claude Code's semantics. */
export const events: ReadonlyArray<CustomEvent> = []

/** The events Wave fires (its data model names the first four). */
export const WAVE_EVENTS: ReadonlyArray<string> = [
  "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "PermissionRequest", "WorktreeCreate", "WorktreeRemove",
  "CwdChanged", "SessionStart", "SessionEnd", "PreCompact", "PostCompact"
]
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PermissionRequest"])

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function*() {
    const hooks = yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    // The data model's validation rules, reported (not enforced: Wave itself runs such hooks).
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!WAVE_EVENTS.includes(event)) {
        warnings.push(`${file.path} at ${formatPath(["hooks", event])}: "${event}" is not a Wave event (Wave fires ${WAVE_EVENTS.join(", ")}); it runs here only when a host dispatches it`)
      }
      if (!Array.isArray(groups)) continue
      groups.forEach((group: unknown, index) => {
        if (!isRecord(group)) return
        if (TOOL_EVENTS.has(event) && group["matcher"] === undefined) {
          warnings.push(`${file.path} at ${formatPath(["hooks", event, index, "matcher"])}: Wave's data model requires a matcher on ${event}; without one the group runs for every tool`)
        }
        if (Array.isArray(group["hooks"]) && group["hooks"].length === 0) {
          warnings.push(`${file.path} at ${formatPath(["hooks", event, index, "hooks"])}: Wave's data model requires at least one hook in a group`)
        }
      })
    }
    const decoded = yield* decodeCanonical(document, file.path, file.scope, undefined, context.events ?? events)
    // FR-008: the hooks of one event run in their configured order, one after another.
    return { ...decoded, sequential: decoded.sequential ?? true, warnings: [...warnings, ...decoded.warnings] }
  })

/** @internal */
export const wave: Preset = {
  name: "wave",
  description: "Wave: ~/.wave/settings.json, .wave/settings.json, .wave/settings.local.json; WAVE_PROJECT_DIR; hooks of an event run in order",
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
  projectDirEnv: ["WAVE_PROJECT_DIR"]
}
