/** The `command` executor: a process, through the `ProcessSpawner` and the hook runner's timeout ladder. */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HookRunner from "../../HookRunner.ts"
import * as Placeholder from "../../Placeholder.ts"
import type { ProcessSpawner } from "../../ProcessSpawner.ts"
import type { CommandHandler } from "../../SettingsModel.ts"
import type { ExecContext, Executed } from "./context.ts"
import * as HookEnv from "../hookEnv.ts"
import { expandExecArgs, utf8Length } from "../placeholder.ts"
import { makeRun } from "../runner.ts"
import * as ShellLexer from "../shellLexer.ts"
import { placeholderValues } from "./context.ts"

/**
 * A hook's JSON answer on stdout is kept up to this many bytes (32 MiB); the rest is drained,
 * dropped and noted, and an answer cut there was not read (host mode and failClosed block on it). As large
 * as the largest payload the CLI accepts: a deny or a rewrite that quotes the input is read whole.
 * Bounded so that a hook (or a payload it echoes) cannot make the engine hold unbounded output.
 */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024

/** A hook's stderr is kept up to this many bytes (1 MiB): it is a message (an exit-2 reason is cut to 10 000 characters). */
export const MAX_STDERR_BYTES = 1024 * 1024

/**
 * A hook's stdout that is not a JSON answer (its first character after white space is not `{`) is
 * kept up to this many bytes (1 MiB): plain text decides nothing, and a hook printing 1 GiB of it
 * costs the host no more memory than that.
 */
export const MAX_PLAIN_STDOUT_BYTES = 1024 * 1024

/** pigo's documented cut of each substituted `env` value (its `envMaxChars`). */
export const MAX_ENV_VALUE_CHARS = 10_000

/** Linux refuses one environment string (`NAME=value`) over 128 KiB (E2BIG). */
const MAX_ENV_STRING_BYTES = Placeholder.MAX_ARGUMENT_BYTES

/** `${field-fallback}` in an `env` value: the input's field, or the fallback text when the input has no such field. */
const ENV_FALLBACK = /\$\{([a-z_][a-z0-9_]*)-([^}]*)\}/g

const tooLong = (name: string, value: string): boolean =>
  name.length + 1 + value.length * 3 > MAX_ENV_STRING_BYTES && utf8Length(`${name}=${value}`) > MAX_ENV_STRING_BYTES

const POWERSHELL_PLACEHOLDERS = /\$\{(CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g

interface HandlerEnv {
  readonly env: Readonly<Record<string, string>>
  /** Values too long for one environment string: no process could be started with them. */
  readonly tooLarge: ReadonlyArray<{ readonly name: string; readonly bytes: number }>
  /** One notice per value that `envMaxChars` cut: the hook sees only the start of it. */
  readonly cuts: ReadonlyArray<string>
}

/**
 * A hook's environment: the engine's, less the engine's secrets (unless `passEnv` names them), and
 * the handler's own `env`, placeholders substituted verbatim (no shell reads an env value), whole:
 * only `envMaxChars` (pigo's documented 10 000 characters) cuts a substituted value, and says so.
 */
const handlerEnv = (handler: CommandHandler, ctx: ExecContext): HandlerEnv => {
  const base = HookEnv.forHook(ctx.env, handler.passEnv)
  if (handler.env === undefined) return { env: base, tooLarge: [], cuts: [] }
  const values = placeholderValues(ctx)
  const env: Record<string, string> = { ...base }
  const tooLarge: Array<{ name: string; bytes: number }> = []
  const cuts: Array<string> = []
  for (const [name, template] of Object.entries(handler.env)) {
    // A lowercase input field the payload lacks is its fallback (`${model-gpt-4}`), else empty, not `${field}`.
    const value = Placeholder.expandText(
      template
        .replace(ENV_FALLBACK, (_match, field: string, fallback: string) => (Object.hasOwn(ctx.input, field) ? `\${${field}}` : fallback))
        .replace(/\$\{([a-z_][a-z0-9_]*)\}/g, (match, field: string) => (Object.hasOwn(ctx.input, field) ? match : "")),
      values
    )
    let cut = value
    if (value !== template && handler.envMaxChars !== undefined && value.length > handler.envMaxChars) {
      cut = value.slice(0, handler.envMaxChars)
      cuts.push(
        `env ${name}: the value was cut to its first ${handler.envMaxChars} of ${value.length} ` +
          `characters (envMaxChars); the hook does not see the rest (the whole payload is on its stdin)`
      )
    }
    if (tooLong(name, cut)) tooLarge.push({ name, bytes: utf8Length(cut) })
    else env[name] = cut
  }
  return { env, tooLarge, cuts }
}

/** A word as a POSIX shell would need it written: bare when plain, else single-quoted. */
const shellWord = (word: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)

/**
 * The command line as it ran (for the execution log): placeholders substituted as the run
 * substituted them; exec-form words quoted where a shell would need it, so values with spaces read
 * back unambiguously. PowerShell commands are shown as configured.
 *
 * @internal
 */
export const asRun = (handler: CommandHandler, ctx: ExecContext): string => {
  const values = placeholderValues(ctx)
  if (handler.shell === "powershell") return handler.args === undefined ? handler.command : [handler.command, ...handler.args].join(" ")
  if (handler.args === undefined) return Placeholder.expandShell(handler.command, values)
  return [Placeholder.expandText(handler.command, values), ...expandExecArgs(handler.command, handler.args, values).args]
    .map(shellWord)
    .join(" ")
}

/**
 * The fast early error of a detached hook, before it is started: the program (a path: that it
 * exists and is executable; a name: that the hook's own shell finds it, bash having builtins dash
 * lacks) and the script an interpreter is given (that it exists and is readable). Exit 127 "not
 * found" or 126 "not executable" on stderr; 0 when nothing is wrong that can be seen from here.
 * Correctness does not depend on it: how the hook really ends is recorded when it ends.
 */
const CHECK_SCRIPT = [
  `program=$1; script=$2; probe=$3`,
  `case $program in */*) if [ ! -e "$program" ]; then echo "agent-hooks: $program: not ` +
    `found; the detached hook did not start" >&2; exit 127; fi`,
  `  if [ -d "$program" ] || [ ! -x "$program" ]; then echo "agent-hooks: $program: not ` +
    `executable; the detached hook did not start" >&2; exit 126; fi ;;`,
  `'') ;; *) $probe -c 'command -v "$1"' agent-hooks-probe "$program" >/dev/null 2>&1 || { ` +
    `echo "agent-hooks: $program: command not found; the detached hook did not start" >&2; ` +
    `exit 127; } ;; esac`,
  `if [ -n "$script" ]; then if [ ! -e "$script" ]; then echo "agent-hooks: $script: not ` +
    `found; the detached hook did not start" >&2; exit 127; fi`,
  `  if [ ! -r "$script" ]; then echo "agent-hooks: $script: not readable; the detached hook did not start" >&2; exit 126; fi; fi`
].join("\n")

/** The command as its end record names it: a payload value cannot make the record too long to hand on. */
const MAX_RECORDED_COMMAND_CHARS = 2000

const INTERPRETERS = new Set(["sh", "bash", "dash", "zsh", "python", "python3", "node", "bun", "deno", "ruby", "perl"])
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "while",
  "until",
  "do",
  "done",
  "in",
  "!",
  "{",
  "}",
  "time",
  "function",
  "select",
  "[["
])

/**
 * The program a shell-form command starts and the script an interpreter is given, when the command
 * writes them plainly (`./x.sh`, `"${CLAUDE_PROJECT_DIR}"/x.sh`, `python3 hooks/x.py`): what a detached
 * hook's wrapper checks before it detaches. Anything else (assignments, quoting, expansions) is not checked.
 */
const startWords = (handler: CommandHandler, ctx: ExecContext, file: string, args: ReadonlyArray<string>): readonly [string, string] => {
  if (handler.shell === "powershell") return ["", ""]
  const plain = (word: string | undefined): string | undefined => {
    if (word === undefined) return undefined
    const bare = word.replace(/[;&|]+$/, "")
    // single quotes hold a literal (a relative program made absolute is written that way when it
    // needs quoting): nothing in them is expanded
    const text = bare.startsWith("'")
      ? bare.replace(/^'([^']*)'/, "$1")
      : Placeholder.expandText(bare, { env: ctx.env, input: {} }).replace(/^"([^"]*)"/, "$1")
    return text !== "" && !/["'`$\\;&|<>(){}*?[\]=~]/.test(text) && !text.startsWith("-") ? text : undefined
  }
  const [program, second] =
    handler.args !== undefined
      ? [file, args[0]]
      : ((ShellLexer.leadingCommand(handler.command, "posix")?.words ?? []).slice(0, 2).map((word) => word.raw) as Array<
          string | undefined
        >)
  const first = handler.args !== undefined ? (/["'`$\\]/.test(file) || file === "" ? undefined : file) : plain(program)
  if (first === undefined || RESERVED.has(first)) return ["", ""]
  const base = first.slice(first.lastIndexOf("/") + 1)
  const script = INTERPRETERS.has(base)
    ? handler.args !== undefined
      ? second !== undefined && !second.startsWith("-")
        ? second
        : undefined
      : plain(second)
    : undefined
  return [first, script ?? ""]
}

/** What a shell prints when the kernel refuses a program's arguments and environment (E2BIG). */
const ARGUMENT_LIST_TOO_LONG = /Argument list too long/

/**
 * A hook whose shell (shell form, or an exec-form `sh -c`) could not start a program because its
 * arguments were too long (exit 126 and "Argument list too long", or exit 126 when values travelled
 * in files: a large value handed on as an argument, E2BIG) did not get the value whole, like a
 * spawn that failed with E2BIG: it blocks whatever onFailure says. Each `envMaxChars` cut is said
 * in the hook's result.
 */
const afterRun = (
  run: HookRunner.ProcessRun,
  handler: CommandHandler,
  cuts: ReadonlyArray<string>,
  valueFiles: boolean
): HookRunner.ProcessRun => {
  // exit 126 with values in files: in another language the shell words its message differently
  const refused =
    (handler.args !== undefined || handler.shell !== "powershell") &&
    run.exitCode === 126 &&
    run.spawnErrorReason === undefined &&
    (valueFiles || ARGUMENT_LIST_TOO_LONG.test(run.stderr))
  if (!refused && cuts.length === 0) return run
  return {
    ...run,
    ...(refused ? { spawnErrorReason: "payload" as const } : {}),
    warnings: [
      ...(run.warnings ?? []),
      ...cuts,
      ...(refused
        ? [
            "the hook's shell could not start a program with a value this large as an argument " +
              "(Argument list too long); pipe it instead: printf '%s' \"$VALUE\" | guard"
          ]
        : [])
    ]
  }
}

/** @internal */
export const command = (handler: CommandHandler, ctx: ExecContext): Effect.Effect<Executed, never, ProcessSpawner> => {
  const values = placeholderValues(ctx)
  const { env, tooLarge, cuts } = handlerEnv(handler, ctx)
  if (tooLarge.length > 0) {
    // A value no environment string can hold never reaches the hook whole: the hook is not started,
    // and the event is blocked whatever onFailure says (a payload must not switch a guard off).
    const detail = tooLarge.map(({ bytes, name }) => `env ${name}: the substituted value is ${bytes} bytes`).join("; ")
    return Effect.succeed({
      run: makeRun({
        exitCode: null,
        stderr:
          `agent-hooks: ${detail}, over the 128 KiB one environment variable can hold; the hook did ` +
          `not start (read the value from the payload on stdin, or cut it with envMaxChars)`,
        spawnError: `${detail}, over 128 KiB (E2BIG)`,
        spawnErrorReason: "payload",
        warnings: cuts
      })
    })
  }
  const shellKind = handler.shell === "bash" ? "bash" : "sh"
  // a value too large for one argument travels in a file the command reads (the spawner writes it)
  // exec form: an argument a program runs as code (`sh -c …`) is quoted by the lexer like shell form
  const exec = handler.args === undefined ? undefined : expandExecArgs(handler.command, handler.args, values)
  const shellForm =
    exec !== undefined
      ? { command: "", files: exec.files }
      : handler.shell === "powershell"
        ? { command: "", files: [] }
        : Placeholder.expandShellCommand(handler.command, values, shellKind)
  const [file, args] =
    exec !== undefined
      ? ([Placeholder.expandText(handler.command, values), exec.args] as const)
      : handler.shell === "powershell"
        ? // PowerShell: the well-known placeholders become environment reads, as Claude Code rewrites them.
          (["pwsh", ["-NoProfile", "-NonInteractive", "-Command", handler.command.replace(POWERSHELL_PLACEHOLDERS, "$${env:$1}")]] as const)
        : handler.shell === "bash"
          ? // --norc: bash reads ~/.bashrc when stdin is a socket (as spawn pipes are on some runtimes).
            (["bash", ["--norc", "--noprofile", "-c", shellForm.command]] as const)
          : (["/bin/sh", ["-c", shellForm.command]] as const)
  if (ctx.detach !== undefined) {
    // The spawner starts it detached (a session of its own, its own watchdog at the cap) and
    // returns once it has started; its launcher appends how it ended to the execution log.
    const { capSeconds, logTo } = ctx.detach
    const [program, script] = startWords(handler, ctx, file, handler.args !== undefined ? args : [])
    const ranAs = asRun(handler, ctx)
    const request = {
      file,
      args,
      cwd: ctx.cwd,
      env,
      stdin: ctx.stdin,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      maxStderrBytes: MAX_STDERR_BYTES,
      maxPlainStdoutBytes: MAX_PLAIN_STDOUT_BYTES,
      files: shellForm.files,
      detached: {
        capSeconds,
        logTo:
          logTo === undefined
            ? undefined
            : {
                file: logTo.file,
                record: logTo.record(
                  ranAs.length > MAX_RECORDED_COMMAND_CHARS ? `${ranAs.slice(0, MAX_RECORDED_COMMAND_CHARS)}… (cut)` : ranAs
                )
              }
      }
    }
    const options = { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
    const check =
      program === ""
        ? Effect.succeed(undefined)
        : HookRunner.run(
            {
              file: "/bin/sh",
              args: [
                "-c",
                CHECK_SCRIPT,
                "agent-hooks-check",
                program,
                script,
                handler.args === undefined && handler.shell === "bash" ? "bash --norc --noprofile" : "/bin/sh"
              ],
              cwd: ctx.cwd,
              env,
              stdin: "",
              maxOutputBytes: MAX_OUTPUT_BYTES
            },
            Duration.seconds(10),
            options
          )
    return Effect.flatMap(check, (checked) =>
      checked !== undefined && checked.exitCode !== 0
        ? Effect.succeed({ run: afterRun(checked, handler, cuts, false) })
        : Effect.map(HookRunner.run(request, Duration.seconds(10), options), (run) => ({ run: afterRun(run, handler, cuts, false) }))
    )
  }
  return Effect.map(
    HookRunner.run(
      {
        file,
        args,
        cwd: ctx.cwd,
        env,
        stdin: ctx.stdin,
        maxOutputBytes: MAX_OUTPUT_BYTES,
        maxStderrBytes: MAX_STDERR_BYTES,
        maxPlainStdoutBytes: MAX_PLAIN_STDOUT_BYTES,
        files: shellForm.files
      },
      Duration.millis(ctx.timeout * 1000),
      // A payload cwd that does not exist falls back to the project directory (with a warning).
      { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
    ),
    (run) => ({ run: afterRun(run, handler, cuts, shellForm.files.length > 0) })
  )
}
