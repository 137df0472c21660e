/**
 * GitHub Copilot CLI: every `*.json` in `~/.copilot/hooks/` (user) and `<project>/.github/hooks/`
 * (project), `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ..., "powershell": ...}]}}`.
 * A flat list per event; `bash` runs off Windows and `powershell` on it; `cwd` (from the repository
 * root) and `env`; `timeoutSec`, 30 s by default; camelCase input (`toolName`, `toolArgs`) and flat
 * answers (`permissionDecision`).
 */
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { COPILOT_EVENTS, COPILOT_TIMEOUT, copilotEventName } from "./host.ts"
import { formatPath, isRecord, join, nonEmpty } from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"
import { COPILOT_VARIANTS, decodeFlat, inFolder, pickCommand, platformOf } from "../../presets/peerCommon.ts"

/** Copilot CLI's events, with its 30 s default; answers read as Copilot writes them. */
export const events: ReadonlyArray<CustomEvent> = COPILOT_EVENTS.map((event) => ({
  name: event.name,
  ...(event.behavesAs === undefined ? {} : { extends: event.behavesAs }),
  ...(event.blocks ? {} : { blocking: "none" as const }),
  matcherField: event.matcherField,
  defaultTimeout: COPILOT_TIMEOUT,
  outputDialect: "copilot" as const
}))

const NAMES = COPILOT_EVENTS.map((event) => event.name)

/**
 * One Copilot hook (`{type, bash, powershell, command, cwd, env, timeoutSec, matcher}`) as a
 * canonical command handler, the platform's command picked; shared with the `vscode` preset,
 * which reads Copilot files too.
 */
export const copilotHandler = (
  entry: Record<string, unknown>,
  context: { readonly projectDir: string; readonly env: Readonly<Record<string, string | undefined>> },
  file: string,
  path: JsonPath,
  warnings: Array<string>,
  variants = COPILOT_VARIANTS
): { readonly handler: Record<string, unknown>; readonly matcher?: unknown } | undefined => {
  const platform = platformOf(context)
  const picked = pickCommand(entry, variants, platform, file, path, warnings)
  const { type, cwd, env, timeoutSec, timeout, matcher, ...rest } = picked.rest
  if (type === "prompt") return { matcher, handler: { type: "prompt", prompt: rest["prompt"] } }
  if (type !== undefined && type !== "command") {
    warnings.push(`${file} at ${formatPath([...path, "type"])}: expected "command", got ${JSON.stringify(type)}; skipped`)
    return undefined
  }
  for (const key of Object.keys(rest)) warnings.push(`${file} at ${formatPath([...path, key])}: unknown hook key "${key}"; ignored`)
  if (picked.command === undefined) {
    if (Object.keys(picked.rest).length === Object.keys(entry).length) {
      warnings.push(`${file} at ${formatPath(path)}: the hook has no command ("bash", "powershell" or "command"); skipped`)
    }
    return undefined
  }
  let command = picked.command
  if (cwd !== undefined) {
    if (typeof cwd !== "string" || cwd === "")
      warnings.push(`${file} at ${formatPath([...path, "cwd"])}: expected a folder (a string), got ${JSON.stringify(cwd)}; ignored`)
    else
      command = inFolder(command, /^(?:\/|[A-Za-z]:[\\/])/.test(cwd) ? cwd : join(context.projectDir, cwd), picked.shell === "powershell")
  }
  const seconds = timeoutSec ?? timeout
  return {
    matcher,
    handler: {
      type: "command",
      command,
      ...(picked.shell === undefined ? {} : { shell: picked.shell }),
      ...(isRecord(env) ? { env } : env === undefined ? {} : { env }),
      ...(seconds === undefined ? {} : { timeout: seconds })
    }
  }
}

const decode: Preset["decode"] = (document, file, context) =>
  decodeFlat(document, file, context.events ?? events, {
    dialect: "Copilot CLI",
    events: NAMES,
    event: copilotEventName,
    handler: (entry, _event, path, sink) => copilotHandler(entry, context, file.path, path, sink)
  })

/** @internal */
export const copilot: Preset = {
  name: "copilot",
  description:
    "GitHub Copilot CLI: ~/.copilot/hooks/*.json and .github/hooks/*.json; camelCase events and input; bash/powershell commands; 30 s",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["COPILOT_HOME"] ?? (nonEmpty(context.env["HOME"]) ? join(context.env["HOME"], ".copilot") : undefined)
    if (nonEmpty(home)) files.push({ path: join(home, "hooks", "*.json"), scope: "user", required: false })
    files.push({ path: join(context.projectDir, ".github", "hooks", "*.json"), scope: "project", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: []
}
