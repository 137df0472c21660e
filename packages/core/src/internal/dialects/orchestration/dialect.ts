/**
 * The "Claude Code orchestration" validation hooks design: exec-form handlers (`command` + `args`),
 * `env` with `${FILE_PATH}` / `${COMMAND}` / `${TOOL_NAME}` / `${ARGS}`, timeouts in milliseconds,
 * `continueOnError`, `Bash(git push:*)` matchers, a JSONL execution log, an optional command allowlist.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetContext } from "../../../PresetModel.ts"
import { codeArguments } from "../../placeholder.ts"
import { claude } from "../../preset.ts"
import {
  decodeTranslated,
  describe,
  exactNames,
  formatPath,
  hooksObject,
  isRecord,
  join,
  knownEvent,
  millisToSeconds,
  nonEmpty
} from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"

const EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd"]

/** The design's events are catalog events; none is redeclared. */
export const events: ReadonlyArray<CustomEvent> = []

/** The design's `ALLOWED_COMMANDS` (single executables; "go test" and "cargo test" cannot match a base name). */
export const defaultAllowedCommands: ReadonlyArray<string> = [
  "prettier",
  "black",
  "rustfmt",
  "gofmt",
  "eslint",
  "pylint",
  "ruff",
  "pytest",
  "jest",
  "git",
  "test",
  "echo",
  "cat",
  "ls"
]

/** The context variables, as canonical placeholders (substituted verbatim: no shell ever reads them). */
const CONTEXT: Readonly<Record<string, string>> = {
  TOOL_NAME: "${tool_name}",
  FILE_PATH: "${tool_input.file_path}",
  COMMAND: "${tool_input.command}",
  ARGS: "${tool_input}"
}

const substituteEnv = (value: string): string =>
  value.replace(/\$\{(TOOL_NAME|FILE_PATH|COMMAND|ARGS)\}/g, (_, name: string) => CONTEXT[name]!)

/**
 * `"Bash(git push:*)"` → matcher `Bash` and `if: "Bash(git push:*)"`; `"Edit|Write"` → exact names;
 * `"*"` → every tool. Only Bash's `command` is checked by an argument pattern (as the design's
 * matcher does); on other tools the pattern is reported and dropped.
 */
export const matcher = (
  pattern: string,
  path: JsonPath,
  file: string,
  warnings: Array<string>
): ReadonlyArray<{ readonly matcher: string | undefined; readonly if: string | undefined }> => {
  if (pattern === "*" || pattern === "") return [{ matcher: pattern, if: undefined }]
  const open = pattern.indexOf("(")
  if (open < 0) return [{ matcher: exactNames(pattern.split("|")), if: undefined }]
  const tools = pattern.slice(0, open).split("|")
  const argument = pattern.slice(open + 1).replace(/\)+$/, "")
  if (argument === "*" || argument === "") return [{ matcher: exactNames(tools), if: undefined }]
  return tools.map((tool) => {
    if (tool === "Bash") return { matcher: "Bash", if: `Bash(${argument})` }
    warnings.push(
      `${file} at ${formatPath(path)}: the argument pattern "${argument}" is checked against ` +
        `Bash commands only; ${tool} calls match it whatever their arguments`
    )
    return { matcher: exactNames([tool]), if: undefined }
  })
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g

/**
 * Exec-form arguments never pass through a shell, so `$FILE_PATH` would reach the program as those
 * ten characters (the design's bug). A `$NAME` that the handler's `env` defines, or a context
 * variable, is substituted into the argument verbatim through a canonical placeholder, except in
 * an argument a program runs as code (`sh -c "…$COMMAND…"`): there a value would be code, so a
 * shell's code reads `$NAME` from the hook's environment (the context variable is put there), and
 * other code keeps it as written.
 */
const translateArgs = (
  command: unknown,
  args: ReadonlyArray<unknown>,
  env: Record<string, string>,
  path: JsonPath,
  file: string,
  warnings: Array<string>
): ReadonlyArray<unknown> => {
  const strings = args.every((arg) => typeof arg === "string") ? (args as ReadonlyArray<string>) : undefined
  const codes =
    typeof command === "string" && strings !== undefined
      ? new Map(codeArguments(command, strings).map((code) => [code.index, code.language]))
      : new Map<number, string>()
  return args.map((arg, index) =>
    typeof arg !== "string"
      ? arg
      : arg.replace(VAR, (match, braced: string | undefined, bare: string | undefined) => {
          const name = braced ?? bare ?? ""
          const code = codes.get(index)
          if (code !== undefined && (env[name] !== undefined || CONTEXT[name] !== undefined)) {
            if (code !== "other" && env[name] === undefined) env[name] = CONTEXT[name]!
            if (code === "other") {
              warnings.push(
                `${file} at ${formatPath([...path, index])}: ${match} stays as written in code that the ` +
                  `program runs (a value there would be code); read it from the environment or stdin`
              )
            }
            return match
          }
          if (env[name] !== undefined) return env[name]!
          if (CONTEXT[name] !== undefined) return CONTEXT[name]!
          warnings.push(
            `${file} at ${formatPath([...path, index])}: ${match} is passed literally (exec form, no ` +
              `shell); only the handler's env names and ` +
              `${Object.keys(CONTEXT)
                .map((key) => `$${key}`)
                .join(", ")} ` +
              `are substituted`
          )
          return match
        })
  )
}

const translateHandler = (
  handler: unknown,
  path: JsonPath,
  file: string,
  warnings: Array<string>,
  conditions: string | undefined
): unknown => {
  if (!isRecord(handler)) return handler
  const out: Record<string, unknown> = { ...handler }
  delete out["continueOnError"]
  const env: Record<string, string> = {}
  if (isRecord(handler["env"])) {
    for (const [name, value] of Object.entries(handler["env"])) {
      if (typeof value !== "string") continue
      env[name] = substituteEnv(value)
      if (!/^[A-Z0-9_]+$/.test(name)) {
        warnings.push(`${file} at ${formatPath([...path, "env", name])}: the design expects UPPERCASE_WITH_UNDERSCORES names`)
      }
    }
  }
  // Always exec form (the design never uses a shell): `command` plus `args`, even when `args` is absent.
  if (handler["args"] === undefined) out["args"] = []
  else if (Array.isArray(handler["args"]))
    out["args"] = translateArgs(handler["command"], handler["args"], env, [...path, "args"], file, warnings)
  // the env, with any context variable a shell's code reads from it
  if (isRecord(handler["env"]) || Object.keys(env).length > 0) out["env"] = { ...(isRecord(handler["env"]) ? handler["env"] : {}), ...env }
  if (handler["timeout"] !== undefined) {
    if (typeof handler["timeout"] === "number" && handler["timeout"] > 300_000) {
      warnings.push(`${file} at ${formatPath([...path, "timeout"])}: timeout very high: ${handler["timeout"]} ms; consider reducing`)
    }
    out["timeout"] = millisToSeconds(handler["timeout"], [...path, "timeout"], file, warnings)
  }
  const continueOnError = handler["continueOnError"]
  if (continueOnError === false) out["onFailure"] = "block"
  else if (continueOnError === true) out["onFailure"] = "continue"
  else if (continueOnError !== undefined) {
    warnings.push(`${file} at ${formatPath([...path, "continueOnError"])}: expected a boolean, got ${describe(continueOnError)}; ignored`)
  }
  if (conditions !== undefined) out["if"] = conditions
  return out
}

const defaultLog = (context: PresetContext): string | undefined => {
  const home = context.env["HOME"]
  return nonEmpty(home) ? join(home, ".config", "claude", "logs", "hooks.log") : undefined
}

const decode: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const warnings: Array<string> = []
    const hooks = yield* hooksObject(document, file.path)
    const root = document as Record<string, unknown>
    const translated: Record<string, Array<unknown>> = {}
    const paths = new Map<string, string>()
    const patterns = new Map<string, string>()
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!knownEvent(event, EVENTS, "orchestration", ["hooks", event], file.path, warnings)) continue
      if (!Array.isArray(groups)) {
        warnings.push(
          `${file.path} at ${formatPath(["hooks", event])}: expected an array of matcher groups, got ${describe(groups)}; skipped`
        )
        continue
      }
      const out: Array<unknown> = []
      groups.forEach((group: unknown, index) => {
        const groupPath: JsonPath = ["hooks", event, index]
        const add = (value: unknown) => {
          paths.set(formatPath(["hooks", event, out.length]), formatPath(groupPath))
          // The HookLogger records the matcher as written (`Bash(git push:*)`), not its translation.
          if (isRecord(group) && typeof group["matcher"] === "string")
            patterns.set(formatPath(["hooks", event, out.length]), group["matcher"])
          out.push(value)
        }
        if (!isRecord(group)) return add(group)
        const pattern = group["matcher"]
        const variants =
          typeof pattern === "string"
            ? matcher(pattern, [...groupPath, "matcher"], file.path, warnings)
            : [{ matcher: pattern, if: undefined }]
        for (const variant of variants) {
          const handlers = group["hooks"]
          add({
            ...group,
            matcher: variant.matcher,
            ...(Array.isArray(handlers)
              ? {
                  hooks: handlers.map((handler: unknown, h) =>
                    translateHandler(handler, [...groupPath, "hooks", h], file.path, warnings, variant.if)
                  )
                }
              : {})
          })
        }
      })
      translated[event] = out
    }
    // The allowlist policy is off unless the file turns it on: a list, or "default" for the design's list.
    let allowedCommands: ReadonlyArray<string> | undefined
    const policy = root["allowedCommands"]
    if (policy === "default" || policy === true) allowedCommands = defaultAllowedCommands
    else if (Array.isArray(policy) && policy.every((name) => typeof name === "string")) allowedCommands = policy as ReadonlyArray<string>
    else if (policy !== undefined && policy !== false) {
      warnings.push(
        `${file.path} at allowedCommands: expected an array of command names, "default" or false, ` +
          `got ${describe(policy)}; the policy stays off`
      )
    }
    // The HookLogger's JSONL log: ~/.config/claude/logs/hooks.log unless `executionLog` names another file or is false.
    let executionLog: string | undefined = defaultLog(context)
    const log = root["executionLog"]
    if (log === false) executionLog = undefined
    else if (typeof log === "string" && log !== "") executionLog = log.startsWith("/") ? log : join(file.path.replace(/\/[^/]*$/, ""), log)
    else if (log !== undefined)
      warnings.push(`${file.path} at executionLog: expected a file path or false, got ${describe(log)}; using the default log`)
    const { allowedCommands: _a, executionLog: _l, ...rest } = root
    return yield* decodeTranslated(
      { document: { ...rest, hooks: translated }, paths, warnings, patterns, overrides: { allowedCommands, executionLog } },
      file.path,
      file.scope,
      context.events ?? events
    )
  })

/** @internal */
export const orchestration: Preset = {
  name: "orchestration",
  description:
    "Claude Code orchestration design: .claude/settings*.json with exec-form handlers, ms timeouts, continueOnError, a JSONL log",
  // The design names no files of its own: Claude Code's, as it is written for Claude Code.
  discover: (context) => claude.discover(context),
  decode,
  events,
  projectDirEnv: [],
  // the HookLogger's own folder, where its default log lives
  logFolders: (context) => (nonEmpty(context.env["HOME"]) ? [join(context.env["HOME"], ".config", "claude", "logs")] : [])
}
