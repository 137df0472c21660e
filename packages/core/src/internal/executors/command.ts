/** The `command` executor: a process, through the `ProcessSpawner` and the hook runner's timeout ladder. */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HookRunner from "../../HookRunner.ts"
import * as Placeholder from "../../Placeholder.ts"
import type { ProcessSpawner } from "../../ProcessSpawner.ts"
import type { CommandHandler } from "../../Settings.ts"
import type { ExecContext, Executed } from "./context.ts"
import * as HookEnv from "../hookEnv.ts"
import { expandExecArgs, utf8Length } from "../placeholder.ts"
import { makeRun } from "../runner.ts"
import * as ShellLexer from "../shellLexer.ts"
import { placeholderValues } from "./context.ts"

/** Each of stdout and stderr is kept up to this many bytes; the rest is dropped and noted. */
export const MAX_OUTPUT_BYTES = 1024 * 1024

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
        `env ${name}: the value was cut to its first ${handler.envMaxChars} of ${value.length} characters (envMaxChars); the hook does not see the rest (the whole payload is on its stdin)`
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
  return [Placeholder.expandText(handler.command, values), ...expandExecArgs(handler.command, handler.args, values).args].map(shellWord).join(" ")
}

/**
 * Starts "$@" detached: `setsid` where it exists (a new session and group), else perl's setsid,
 * else job control (`set -m`: a new process group, where there is a terminal). Before that, synchronously: the program and the script it is
 * given are checked (exit 127 "not found" or 126 "not executable" on stderr, the hook not started);
 * the payload (stdin) is read whole and the value files the spawner wrote are copied, into a folder
 * of the hook's own that its group removes when the hook ends or at the cap. The hook reads the
 * payload on stdin; its output goes to /dev/null; SIGHUP and SIGINT are ignored; a watchdog kills
 * the whole group after the cap ($1 seconds), and the group's leftovers are killed when the hook ends.
 */
const DETACH_SCRIPT = [
  `cap=$1; vars=$2; program=$3; script=$4; probe=$5; shift 5`,
  `case $program in */*) if [ ! -e "$program" ]; then echo "agent-hooks: $program: not found; the detached hook did not start" >&2; exit 127; fi`,
  `  if [ -d "$program" ] || [ ! -x "$program" ]; then echo "agent-hooks: $program: not executable; the detached hook did not start" >&2; exit 126; fi ;;`,
  // A name is looked up as the hook's own shell would (bash has builtins dash lacks).
  `'') ;; *) $probe -c 'command -v "$1"' agent-hooks-probe "$program" >/dev/null 2>&1 || { echo "agent-hooks: $program: command not found; the detached hook did not start" >&2; exit 127; } ;; esac`,
  `if [ -n "$script" ]; then if [ ! -e "$script" ]; then echo "agent-hooks: $script: not found; the detached hook did not start" >&2; exit 127; fi`,
  `  if [ ! -r "$script" ]; then echo "agent-hooks: $script: not readable; the detached hook did not start" >&2; exit 126; fi; fi`,
  // The payload is read whole before the wrapper exits: the host stops writing stdin when it has.
  `d=$(mktemp -d) || exit 126; cat > "$d/stdin" || exit 126`,
  // The names are the engine's own (AGENT_HOOKS_VALUE_<n>).
  `for v in $vars; do eval "cp -- \"\\$$v\" \"\\$d/$v\"" || exit 126; eval "$v=\\$d/$v; export $v"; done`,
  // $g: the hook's own group (its launcher's pid), which the watchdog and the end kill.
  `inner='cap=$1; d=$2; g=$3; shift 3; trap "" HUP INT; "$@" <"$d/stdin" & c=$!; (trap "" TERM; sleep "$cap"; kill -TERM -$g; sleep 2; rm -rf "$d"; kill -KILL -$g) </dev/null >/dev/null 2>&1 & wait "$c"; rm -rf "$d"; kill -KILL -$g'`,
  // The launcher is already out of the wrapper's group when it starts the hook (setsid runs in the
  // foreground; job control sets the group at the fork): the host kills the wrapper's group as soon
  // as the wrapper exits, and a hook still on its way out of that group would die unseen.
  `launch='i=$0; cap=$1; d=$2; shift 2; /bin/sh -c "$i" agent-hooks-detached "$cap" "$d" $$ "$@" </dev/null >/dev/null 2>&1 &'`,
  `if command -v setsid >/dev/null 2>&1; then setsid /bin/sh -c "$launch" "$inner" "$cap" "$d" "$@" </dev/null >/dev/null 2>&1`,
  // No setsid(1) (macOS): perl's setsid(2). Job control (set -m) is the last resort, and only where
  // it is on (a terminal): else the hook would stay in the wrapper's group and die with it unseen,
  // so it is not started, and that is said.
  `elif command -v perl >/dev/null 2>&1; then perl -e 'use POSIX (); POSIX::setsid(); exec @ARGV or exit 127' /bin/sh -c "$launch" "$inner" "$cap" "$d" "$@" </dev/null >/dev/null 2>&1`,
  `else set -m 2>/dev/null; case $- in *m*) /bin/sh -c "$launch" "$inner" "$cap" "$d" "$@" </dev/null >/dev/null 2>&1 & ;;`,
  `  *) rm -rf "$d"; echo "agent-hooks: the hook cannot be detached here (no setsid, no perl, and no job control without a terminal); the detached hook did not start" >&2; exit 126 ;; esac; fi`
].join("\n")

const INTERPRETERS = new Set(["sh", "bash", "dash", "zsh", "python", "python3", "node", "bun", "deno", "ruby", "perl"])
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "in", "!", "{", "}", "time", "function", "select", "[["])

/**
 * The program a shell-form command starts and the script an interpreter is given, when the command
 * writes them plainly (`./x.sh`, `"${CLAUDE_PROJECT_DIR}"/x.sh`, `python3 hooks/x.py`): what a detached
 * hook's wrapper checks before it detaches. Anything else (assignments, quoting, expansions) is not checked.
 */
const startWords = (handler: CommandHandler, ctx: ExecContext, file: string, args: ReadonlyArray<string>): readonly [string, string] => {
  if (handler.shell === "powershell") return ["", ""]
  const plain = (word: string | undefined): string | undefined => {
    if (word === undefined) return undefined
    const text = Placeholder.expandText(word.replace(/[;&|]+$/, ""), { env: ctx.env, input: {} }).replace(/^"([^"]*)"/, "$1")
    return text !== "" && !/["'`$\\;&|<>(){}*?[\]=~]/.test(text) && !text.startsWith("-") ? text : undefined
  }
  const [program, second] = handler.args !== undefined
    ? [file, args[0]]
    : (ShellLexer.leadingCommand(handler.command, "posix")?.words ?? []).slice(0, 2).map((word) => word.raw) as Array<string | undefined>
  const first = handler.args !== undefined ? (/["'`$\\]/.test(file) || file === "" ? undefined : file) : plain(program)
  if (first === undefined || RESERVED.has(first)) return ["", ""]
  const base = first.slice(first.lastIndexOf("/") + 1)
  const script = INTERPRETERS.has(base) ? (handler.args !== undefined ? (second !== undefined && !second.startsWith("-") ? second : undefined) : plain(second)) : undefined
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
const afterRun = (run: HookRunner.ProcessRun, handler: CommandHandler, cuts: ReadonlyArray<string>, valueFiles: boolean): HookRunner.ProcessRun => {
  // exit 126 with values in files: in another language the shell words its message differently
  const refused = (handler.args !== undefined || handler.shell !== "powershell") && run.exitCode === 126 && run.spawnErrorReason === undefined &&
    (valueFiles || ARGUMENT_LIST_TOO_LONG.test(run.stderr))
  if (!refused && cuts.length === 0) return run
  return {
    ...run,
    ...(refused ? { spawnErrorReason: "payload" as const } : {}),
    warnings: [
      ...(run.warnings ?? []),
      ...cuts,
      ...(refused ? ["the hook's shell could not start a program with a value this large as an argument (Argument list too long); pipe it instead: printf '%s' \"$VALUE\" | guard"] : [])
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
        stderr: `agent-hooks: ${detail}, over the 128 KiB one environment variable can hold; the hook did not start (read the value from the payload on stdin, or cut it with envMaxChars)`,
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
  const shellForm = exec !== undefined
    ? { command: "", files: exec.files }
    : handler.shell === "powershell"
    ? { command: "", files: [] }
    : Placeholder.expandShellCommand(handler.command, values, shellKind)
  const [file, args] = exec !== undefined
    ? [Placeholder.expandText(handler.command, values), exec.args] as const
    : handler.shell === "powershell"
    // PowerShell: the well-known placeholders become environment reads, as Claude Code rewrites them.
    ? ["pwsh", ["-NoProfile", "-NonInteractive", "-Command", handler.command.replace(POWERSHELL_PLACEHOLDERS, "$${env:$1}")]] as const
    : handler.shell === "bash"
    // --norc: bash reads ~/.bashrc when stdin is a socket (as spawn pipes are on some runtimes).
    ? ["bash", ["--norc", "--noprofile", "-c", shellForm.command]] as const
    : ["/bin/sh", ["-c", shellForm.command]] as const
  if (ctx.detach !== undefined) {
    // The wrapper checks what it can, copies the value files, starts the hook in a session of its
    // own and exits: nothing waits for it, a signal to the host's process group does not reach it,
    // and its own watchdog ends it (and anything it left in its group) at the cap.
    const [program, script] = startWords(handler, ctx, file, handler.args !== undefined ? args : [])
    return Effect.map(
      HookRunner.run(
        {
          file: "/bin/sh",
          args: [
            "-c",
            DETACH_SCRIPT,
            "agent-hooks-detach",
            String(Math.max(1, Math.ceil(ctx.detach.capSeconds))),
            shellForm.files.map(({ env: variable }) => variable).join(" "),
            program,
            script,
            handler.args === undefined && handler.shell === "bash" ? "bash --norc --noprofile" : "/bin/sh",
            file,
            ...args
          ],
          cwd: ctx.cwd,
          env,
          stdin: ctx.stdin,
          maxOutputBytes: MAX_OUTPUT_BYTES,
          files: shellForm.files
        },
        Duration.seconds(10),
        { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
      ),
      (run) => ({ run: afterRun(run, handler, cuts, false) })
    )
  }
  return Effect.map(
    HookRunner.run(
      { file, args, cwd: ctx.cwd, env, stdin: ctx.stdin, maxOutputBytes: MAX_OUTPUT_BYTES, files: shellForm.files },
      Duration.millis(ctx.timeout * 1000),
      // A payload cwd that does not exist falls back to the project directory (with a warning).
      { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
    ),
    (run) => ({ run: afterRun(run, handler, cuts, shellForm.files.length > 0) })
  )
}
