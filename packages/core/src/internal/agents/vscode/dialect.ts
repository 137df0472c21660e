/**
 * VS Code agent hooks (Copilot Chat): `<project>/.github/hooks/*.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`, `~/.copilot/hooks/*.json` and `~/.claude/settings.json`. Its own
 * files are flat per-event lists with `windows`/`linux`/`osx` command overrides; Claude Code's
 * files are read as VS Code reads them: matchers ignored (every hook runs for every tool, a
 * documented difference); Copilot CLI files are converted (`preToolUse` → `PreToolUse`, `bash` →
 * Linux and macOS, `powershell` → Windows). Eight events, 30 s default timeout.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetFile } from "../../../PresetModel.ts"
import { VSCODE_EVENTS, VSCODE_TIMEOUT, VSCODE_TOOLS, vscodeEventName } from "./host.ts"
import { decodeTranslated, formatPath, hooksObject, isRecord, join, nonEmpty } from "../../presets/common.ts"
import { copilotHandler } from "../copilot/dialect.ts"
import { VSCODE_VARIANTS, translateFlat } from "../../presets/peerCommon.ts"

/** VS Code's eight events (Claude Code's names), 30 s by default, answers read as VS Code reads them. */
export const events: ReadonlyArray<CustomEvent> = VSCODE_EVENTS.map((name) => ({
  name,
  defaultTimeout: VSCODE_TIMEOUT,
  outputDialect: "vscode" as const
}))

const ignoredMatcher = (file: string, path: ReadonlyArray<string | number>, matcher: unknown): string =>
  `${file} at ${formatPath([...path, "matcher"])}: VS Code ignores matchers, so this hook ` +
  `runs for every tool (matcher ${JSON.stringify(matcher)} not applied)`

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const hooks = yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    const translated = translateFlat(hooks ?? {}, file.path, {
      dialect: "VS Code",
      events: VSCODE_EVENTS,
      event: vscodeEventName,
      // A Claude Code group: its hooks, without the matcher (VS Code runs them for every tool)
      groups: (group, _event, path, sink) => {
        const { matcher, ...rest } = group
        if (matcher !== undefined && matcher !== "" && matcher !== "*") sink.push(ignoredMatcher(file.path, path, matcher))
        return rest
      },
      handler: (entry, _event, path, sink) => {
        if (entry["matcher"] !== undefined && entry["matcher"] !== "" && entry["matcher"] !== "*")
          sink.push(ignoredMatcher(file.path, path, entry["matcher"]))
        const made = copilotHandler({ ...entry, matcher: undefined }, context, file.path, path, sink, VSCODE_VARIANTS)
        return made === undefined ? undefined : { handler: made.handler }
      }
    })
    return yield* decodeTranslated(
      {
        document: { ...(isRecord(document) ? document : {}), ...translated.document },
        paths: translated.paths,
        warnings: [...warnings, ...translated.warnings]
      },
      file.path,
      file.scope,
      context.events ?? events,
      false
    )
  })

/** @internal */
export const vscode: Preset = {
  name: "vscode",
  description:
    "VS Code agent hooks: .github/hooks/*.json, .claude/settings(.local).json, " +
    "~/.copilot/hooks/*.json, ~/.claude/settings.json; matchers ignored; 30 s",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = context.env["HOME"]
    if (nonEmpty(home)) {
      files.push({ path: join(home, ".copilot", "hooks", "*.json"), scope: "user", required: false })
      files.push({ path: join(home, ".claude", "settings.json"), scope: "user", required: false })
    }
    files.push({ path: join(context.projectDir, ".github", "hooks", "*.json"), scope: "project", required: false })
    files.push({ path: join(context.projectDir, ".claude", "settings.json"), scope: "project", required: false })
    files.push({ path: join(context.projectDir, ".claude", "settings.local.json"), scope: "local", required: false })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: VSCODE_TOOLS
}
