/**
 * Windsurf (Devin Desktop) Cascade hooks: `hooks.json` at system (`/etc/windsurf/hooks.json`,
 * `/Library/Application Support/Windsurf/hooks.json`), user (`~/.codeium/windsurf/hooks.json`) and
 * workspace (`.windsurf/hooks.json`) scope, each `{"hooks": {"<snake_case event>": [{command,
 * show_output, working_directory}]}}`: flat lists, no matchers, exit code only. Exit 2 on a `pre_*`
 * hook blocks (stderr is the reason); nothing else blocks, and no JSON answer is read.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { quote } from "../../shellLexer.ts"
import { decodeTranslated, describe, formatPath, hooksObject, isRecord, join, knownEvent, nonEmpty } from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"

const pre = (name: string, extendsEvent = "PreToolUse"): CustomEvent => ({
  name,
  extends: extendsEvent,
  matcherField: undefined,
  plainStdoutToContext: false,
  outputDialect: "exit-code"
})
const post = (name: string): CustomEvent => ({
  name,
  blocking: "none",
  matcherField: undefined,
  plainStdoutToContext: false,
  outputDialect: "exit-code"
})

/** The twelve events: the `pre_*` ones block with exit 2, the others only observe. */
export const events: ReadonlyArray<CustomEvent> = [
  pre("pre_read_code"),
  post("post_read_code"),
  pre("pre_write_code"),
  post("post_write_code"),
  pre("pre_run_command"),
  post("post_run_command"),
  pre("pre_mcp_tool_use"),
  post("post_mcp_tool_use"),
  pre("pre_user_prompt", "UserPromptSubmit"),
  post("post_cascade_response"),
  post("post_cascade_response_with_transcript"),
  post("post_setup_worktree")
]
const EVENTS = events.map((event) => event.name)

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const hooks = yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    for (const [event, list] of Object.entries(hooks ?? {})) {
      if (!knownEvent(event, EVENTS, "Windsurf", ["hooks", event], file.path, warnings)) continue
      if (!Array.isArray(list)) {
        warnings.push(
          `${file.path} at ${formatPath(["hooks", event])}: expected an array of hooks [{"command": "..."}], got ${describe(list)}; skipped`
        )
        continue
      }
      translated[event] = list.map((hook: unknown, index) => {
        const at: JsonPath = ["hooks", event, index]
        paths.set(formatPath(at), formatPath(at))
        if (!isRecord(hook)) return hook
        const { command, show_output: showOutput, working_directory: directory, ...rest } = hook
        for (const key of Object.keys(rest))
          warnings.push(
            `${file.path} at ${formatPath([...at, key])}: not a Windsurf hook key (command, show_output, working_directory); ignored`
          )
        if (showOutput !== undefined && typeof showOutput !== "boolean") {
          warnings.push(`${file.path} at ${formatPath([...at, "show_output"])}: expected a boolean, got ${describe(showOutput)}; ignored`)
        }
        // working_directory: the command runs there (Windsurf's default is the workspace root, the project folder)
        const where = typeof directory === "string" && directory !== "" ? directory : undefined
        if (directory !== undefined && where === undefined) {
          warnings.push(
            `${file.path} at ${formatPath([...at, "working_directory"])}: expected a folder path, got ${describe(directory)}; ignored`
          )
        }
        return {
          hooks: [
            {
              type: "command",
              command: typeof command === "string" && where !== undefined ? `cd ${quote(where)} && ${command}` : command
            }
          ]
        }
      })
    }
    // Hooks of one event run one after another, system → user → workspace.
    return yield* decodeTranslated(
      { document: { hooks: translated }, paths, warnings, overrides: { sequential: true } },
      file.path,
      file.scope,
      context.events ?? events,
      true
    )
  })

/** @internal */
export const windsurf: Preset = {
  name: "windsurf",
  description:
    "Windsurf / Devin Desktop: /etc/windsurf/hooks.json, ~/.codeium/windsurf/hooks.json, " +
    ".windsurf/hooks.json; snake_case events; exit 2 on pre_* blocks",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) files.push({ path: join(home, ".codeium", "windsurf", "hooks.json"), scope: "user", required: false })
    files.push({ path: join(context.projectDir, ".windsurf", "hooks.json"), scope: "project", required: false })
    const system = context.env["WINDSURF_SYSTEM_HOOKS_PATH"]
    files.push({ path: nonEmpty(system) ? system : "/etc/windsurf/hooks.json", scope: "managed", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  // Windsurf's hooks name no tools: the event is the action
  toolNames: []
}
