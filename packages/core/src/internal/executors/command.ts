/** The `command` executor: a process, through the `ProcessSpawner` and the hook runner's timeout ladder. */
import { Duration, Effect } from "effect"
import * as HookRunner from "../../HookRunner.ts"
import * as Placeholder from "../../Placeholder.ts"
import type { ProcessSpawner } from "../../ProcessSpawner.ts"
import type { CommandHandler } from "../../Settings.ts"
import type { ExecContext, Executed } from "./context.ts"
import { placeholderValues } from "./context.ts"

/** Each of stdout and stderr is kept up to this many bytes; the rest is dropped and noted. */
export const MAX_OUTPUT_BYTES = 1024 * 1024

/**
 * A handler's own `env`, placeholders substituted verbatim. Each substituted value is capped at
 * 10 000 characters, so no payload can make the spawn fail with E2BIG (Linux refuses a single
 * environment string over 128 KiB).
 */
export const MAX_ENV_VALUE_CHARS = 10_000

const POWERSHELL_PLACEHOLDERS = /\$\{(CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g

const handlerEnv = (handler: CommandHandler, ctx: ExecContext): Readonly<Record<string, string>> => {
  if (handler.env === undefined) return ctx.env
  const values = placeholderValues(ctx)
  const env: Record<string, string> = { ...ctx.env }
  for (const [name, template] of Object.entries(handler.env)) {
    // No shell reads an env value: a lowercase input field the payload lacks is empty, not `${field}`.
    const value = Placeholder.expandText(
      template.replace(/\$\{([a-z_][a-z0-9_]*)\}/g, (match, field: string) => (Object.hasOwn(ctx.input, field) ? match : "")),
      values
    )
    env[name] = value === template || value.length <= MAX_ENV_VALUE_CHARS ? value : value.slice(0, MAX_ENV_VALUE_CHARS)
  }
  return env
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
  return [Placeholder.expandText(handler.command, values), ...Placeholder.expandArgs(handler.args, values)].map(shellWord).join(" ")
}

/**
 * Starts "$@" detached: `setsid` where it exists (a new session and group), else job control
 * (`set -m`: a new process group). The hook reads the payload on stdin; its output goes to
 * /dev/null; SIGHUP and SIGINT are ignored; a watchdog kills the whole group after the cap ($1
 * seconds), and the group's leftovers are killed when the hook ends.
 */
// A shell without job control gives an asynchronous command /dev/null as stdin before any
// redirection of its own, so stdin is kept on fd 3 and handed over from there.
const DETACH_SCRIPT = [
  `cap=$1; shift; exec 3<&0`,
  `inner='cap=$1; shift; trap "" HUP INT; exec 3<&0; "$@" <&3 3<&- & c=$!; exec 3<&-; (sleep "$cap"; kill -TERM -$$; sleep 2; kill -KILL -$$) </dev/null >/dev/null 2>&1 & wait "$c"; kill -KILL -$$'`,
  `if command -v setsid >/dev/null 2>&1; then setsid /bin/sh -c "$inner" agent-hooks-detached "$cap" "$@" <&3 3<&- >/dev/null 2>&1 &`,
  `else set -m; /bin/sh -c "$inner" agent-hooks-detached "$cap" "$@" <&3 3<&- >/dev/null 2>&1 & fi`
].join("\n")

/** @internal */
export const command = (handler: CommandHandler, ctx: ExecContext): Effect.Effect<Executed, never, ProcessSpawner> => {
  const values = placeholderValues(ctx)
  // a value too large for one argument travels in a file the command reads (the spawner writes it)
  const shellForm = handler.args !== undefined || handler.shell === "powershell"
    ? { command: "", files: [] }
    : Placeholder.expandShellCommand(handler.command, values, handler.shell === "bash" ? "bash" : "sh")
  const [file, args] = handler.args !== undefined
    ? [Placeholder.expandText(handler.command, values), Placeholder.expandArgs(handler.args, values)] as const
    : handler.shell === "powershell"
    // PowerShell: the well-known placeholders become environment reads, as Claude Code rewrites them.
    ? ["pwsh", ["-NoProfile", "-NonInteractive", "-Command", handler.command.replace(POWERSHELL_PLACEHOLDERS, "$${env:$1}")]] as const
    : handler.shell === "bash"
    // --norc: bash reads ~/.bashrc when stdin is a socket (as spawn pipes are on some runtimes).
    ? ["bash", ["--norc", "--noprofile", "-c", shellForm.command]] as const
    : ["/bin/sh", ["-c", shellForm.command]] as const
  if (ctx.detach !== undefined) {
    // The wrapper starts the hook in a session of its own and exits: nothing waits for it, a
    // signal to the host's process group does not reach it, and its own watchdog ends it (and
    // anything it left in its group) at the cap.
    return Effect.map(
      HookRunner.run(
        {
          file: "/bin/sh",
          args: ["-c", DETACH_SCRIPT, "agent-hooks-detach", String(Math.max(1, Math.ceil(ctx.detach.capSeconds))), file, ...args],
          cwd: ctx.cwd,
          env: handlerEnv(handler, ctx),
          stdin: ctx.stdin,
          maxOutputBytes: MAX_OUTPUT_BYTES
        },
        Duration.seconds(10),
        { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
      ),
      (run) => ({ run })
    )
  }
  return Effect.map(
    HookRunner.run(
      { file, args, cwd: ctx.cwd, env: handlerEnv(handler, ctx), stdin: ctx.stdin, maxOutputBytes: MAX_OUTPUT_BYTES, files: shellForm.files },
      Duration.millis(ctx.timeout * 1000),
      // A payload cwd that does not exist falls back to the project directory (with a warning).
      { ...HookRunner.defaultOptions, projectDir: ctx.projectDir }
    ),
    (run) => ({ run })
  )
}
