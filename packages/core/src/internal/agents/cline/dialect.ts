/**
 * Cline: one executable per event, named after the event (`PreToolUse`, no extension), in the
 * user's `~/Documents/Cline/Hooks/` and the project's `.clinerules/hooks/`. No matchers: a hook runs
 * for every call of its event. stdin `{clineVersion, hookName, timestamp, taskId, workspaceRoots,
 * userId, <event>: {...}}`; stdout `{cancel, contextModification, errorMessage}`. Any non-zero exit
 * is an error, never a block.
 */
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { cline as clineAgent } from "./host.ts"
import { quote } from "../../shellLexer.ts"
import { decodeTranslated, isRecord, join, nonEmpty } from "../../presets/common.ts"

/** Cline's default hook timeout: 30 s. */
const DEFAULT_TIMEOUT = 30
const own = (name: string, fields: Partial<CustomEvent> = {}): CustomEvent => ({
  name,
  matcherField: undefined,
  defaultTimeout: DEFAULT_TIMEOUT,
  outputDialect: "cline",
  ...fields
})

/**
 * The eight documented hooks. `cancel: true` blocks PreToolUse and UserPromptSubmit and stops the
 * task on TaskStart and TaskResume; elsewhere it stops the task.
 */
export const events: ReadonlyArray<CustomEvent> = [
  own("PreToolUse", { extends: "PreToolUse" }),
  own("PostToolUse", { extends: "PostToolUse", blocking: "none" }),
  own("UserPromptSubmit", { extends: "UserPromptSubmit" }),
  own("TaskStart", { blocking: "decision" }),
  own("TaskResume", { blocking: "decision" }),
  own("TaskCancel", { blocking: "none" }),
  own("TaskComplete", { blocking: "none" }),
  own("PreCompact", { extends: "PreCompact", blocking: "none" })
]
const EVENTS = events.map((event) => event.name)

const decode: Preset["decode"] = (document, file, context) => {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1)
  const warnings: Array<string> = []
  const translated: Record<string, Array<unknown>> = {}
  const paths = new Map<string, string>()
  if (!EVENTS.includes(name)) {
    // Only the event names run in Cline: another file in the folder (a README, a helper) is no hook.
    const near = EVENTS.find((event) => event.toLowerCase() === name.replace(/\.[^.]*$/, "").toLowerCase())
    if (near !== undefined)
      warnings.push(`${file.path}: Cline runs only a file named exactly "${near}" (no extension); this file is not run; skipped`)
  } else if (isRecord(document) && typeof document["text"] === "string" && document["text"].trim() === "") {
    warnings.push(`${file.path}: the hook script is empty; skipped`)
  } else {
    paths.set(`hooks.${name}[0]`, file.path)
    // A project script by the project-folder placeholder: the command stays right in another checkout
    // (a migrated file), and trust pins the script it names.
    const inProject = file.path.startsWith(`${context.projectDir}/`) && /^[\w./-]+$/.test(file.path.slice(context.projectDir.length + 1))
    const command = inProject ? `\${CLAUDE_PROJECT_DIR}/${file.path.slice(context.projectDir.length + 1)}` : quote(file.path)
    translated[name] = [{ hooks: [{ type: "command", command }] }]
  }
  return decodeTranslated({ document: { hooks: translated }, paths, warnings }, file.path, file.scope, context.events ?? events, true)
}

/** @internal */
export const cline: Preset = {
  name: "cline",
  description:
    "Cline: an executable per event in ~/Documents/Cline/Hooks/ and .clinerules/hooks/; " +
    "{cancel, contextModification, errorMessage}; non-zero exit is an error",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home))
      files.push({ path: join(home, "Documents", "Cline", "Hooks"), scope: "user", required: false, folder: { suffix: "" }, raw: true })
    files.push({
      path: join(context.projectDir, ".clinerules", "hooks"),
      scope: "project",
      required: false,
      folder: { suffix: "" },
      raw: true
    })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: clineAgent.toolNames
}
