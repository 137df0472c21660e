/**
 * Qwen Code: `hooks` in `~/.qwen/settings.json`, `<project>/.qwen/settings.json` and the system
 * settings (`/etc/qwen-code/settings.json`, `$QWEN_CODE_SYSTEM_SETTINGS_PATH`). Claude Code's
 * shape and names, and its differences: its own events (SessionDelete, TodoCreated, TodoCompleted,
 * QueryEnd; they cannot block), Gemini CLI's tool names (`run_shell_command`, `write_file`...), a
 * 60 s default timeout, `QWEN_PROJECT_DIR`.
 */
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetFile } from "../../Preset.ts"
import { qwen as qwenAgent } from "../agents/qwen.ts"
import { decode as decodeCanonical } from "../settings.ts"
import { join, nonEmpty } from "./common.ts"

/** Qwen Code's events: Claude Code's with its 60 s default, and its own, which cannot block. */
export const events: ReadonlyArray<CustomEvent> = Object.keys(qwenAgent.events).map((name) =>
  qwenAgent.ownEvents.includes(name)
    ? { name, blocking: "none" as const, matcherField: undefined, defaultTimeout: qwenAgent.hookTimeout }
    : { name, defaultTimeout: qwenAgent.hookTimeout }
)

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
  decode: (document, file, context) => decodeCanonical(document, file.path, file.scope, undefined, context.events ?? events),
  events,
  projectDirEnv: ["QWEN_PROJECT_DIR"],
  toolNames: qwenAgent.toolNames
}
