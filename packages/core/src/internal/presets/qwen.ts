/**
 * Qwen Code: `hooks` in `~/.qwen/settings.json`, `<project>/.qwen/settings.json` and the system
 * settings (`/etc/qwen-code/settings.json`, `$QWEN_CODE_SYSTEM_SETTINGS_PATH`). Claude Code's
 * shape and names, and its differences: its own events (SessionDelete, TodoCreated, TodoCompleted,
 * QueryEnd; they cannot block), Gemini CLI's tool names (`run_shell_command`, `write_file`...), a
 * 60 s default timeout, a `timeout` of 1000 or more read as milliseconds, `QWEN_PROJECT_DIR`.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetFile } from "../../Preset.ts"
import { qwen as qwenAgent } from "../agents/qwen.ts"
import { decode as decodeCanonical } from "../settings.ts"
import { formatPath, isRecord, join, nonEmpty } from "./common.ts"

/** Qwen Code's events: Claude Code's with its 60 s default, and its own, which cannot block. */
export const events: ReadonlyArray<CustomEvent> = Object.keys(qwenAgent.events).map((name) =>
  qwenAgent.ownEvents.includes(name)
    ? { name, blocking: "none" as const, matcherField: undefined, defaultTimeout: qwenAgent.hookTimeout }
    : { name, defaultTimeout: qwenAgent.hookTimeout }
)

/**
 * Qwen Code reads a hook `timeout` of 1000 or more as milliseconds (a smaller one as seconds): such
 * a value is converted to seconds, with a note naming the file and JSON path.
 */
const qwenTimeouts = (document: unknown, file: string, notes: Array<string>): unknown => {
  if (!isRecord(document) || !isRecord(document["hooks"])) return document
  const hooks = Object.fromEntries(Object.entries(document["hooks"]).map(([event, groups]) => [
    event,
    !Array.isArray(groups) ? groups : groups.map((group: unknown, g) =>
      !isRecord(group) || !Array.isArray(group["hooks"]) ? group : {
        ...group,
        hooks: group["hooks"].map((handler: unknown, h) => {
          if (!isRecord(handler) || typeof handler["timeout"] !== "number" || handler["timeout"] < 1000) return handler
          notes.push(`${file} at ${formatPath(["hooks", event, g, "hooks", h, "timeout"])}: ${handler["timeout"]} is 1000 or more, which Qwen Code reads as milliseconds: ${handler["timeout"] / 1000} s`)
          return { ...handler, timeout: handler["timeout"] / 1000 }
        })
      }
    )
  ]))
  return { ...document, hooks }
}

/** @internal */
export const qwen: Preset = {
  name: "qwen",
  description: "Qwen Code: ~/.qwen/settings.json, .qwen/settings.json, /etc/qwen-code/settings.json; Claude Code's shape, its own events, Gemini CLI's tool names, 60 s",
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
    const converted = qwenTimeouts(document, file.path, notes)
    return Effect.map(decodeCanonical(converted, file.path, file.scope, undefined, context.events ?? events), (decoded) => ({
      ...decoded,
      warnings: [...notes, ...decoded.warnings]
    }))
  },
  events,
  projectDirEnv: ["QWEN_PROJECT_DIR"],
  toolNames: qwenAgent.toolNames
}
