/**
 * `agent-hooks install --host <agent>` and `agent-hooks uninstall --host <agent>`: agent-hooks' host
 * mode wired into the agent's own hook config (`hostConfig.ts` edits the text, `configFile.ts`
 * reads and writes it safely), and taken out again, leaving the file as it was.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { existsSync, realpathSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { readText, target, UnsafeConfig, writeText } from "./configFile.ts"
import { unifiedDiff } from "./diff.ts"
import type { InstallPlan, Scope } from "./hostConfig.ts"
import { addOwn, ConfigError, configPath, eventsOf, hookCommand, notInstallable, removeOwn, timeoutUnitMs } from "./hostConfig.ts"

/** Options of `install` and `uninstall`. */
export interface InstallOptions {
  readonly host: HostMode.HostName
  readonly user: boolean
  readonly project: boolean
  readonly projectDir: Option.Option<string>
  readonly dryRun: boolean
  /** `install` only: the hook timeout in seconds (default: the agent's own default). */
  readonly timeout?: Option.Option<number> | undefined
}

/**
 * How the installed command starts this CLI: the runtime that runs it now and the CLI's own entry
 * file, both absolute (`'/usr/bin/node' '/…/@agent-hooks/cli/dist/bin.js'`), so that the agent calls
 * this very install whatever its PATH holds; the single executable names itself. A CLI run from
 * npx's cache is refused: npm may clear that cache, and the agent's hook would then be a command
 * that does not exist (which Claude Code, Codex and Qwen Code treat as a hook error and run the tool).
 */
export const runner = (): ReadonlyArray<string> | { readonly error: string } => {
  const script = process.argv[1]
  if (typeof process.versions["bun"] === "string" && (script === undefined || script.startsWith("/$bunfs") || script.includes("~BUN"))) {
    return [process.execPath]
  }
  if (script === undefined) return { error: "cannot tell which file runs agent-hooks (no script path)" }
  let real: string
  try {
    real = realpathSync(script)
  } catch {
    return { error: `cannot find the running agent-hooks at ${script}` }
  }
  if (/[\\/]_npx[\\/]/.test(real)) {
    return {
      error: `this agent-hooks runs from npx's cache (${real}), which npm may clear: the agent's hook would then fail and its tools run unguarded. Install the CLI (npm install -g @agent-hooks/cli, or as a dev dependency of the project), then run its \`agent-hooks install\``
    }
  }
  return typeof process.versions["deno"] === "string" ? [process.execPath, "run", "-A", real] : [process.execPath, real]
}

const scopeOf = (options: InstallOptions): Scope | { readonly error: string } =>
  options.user && options.project ? { error: "give --user or --project, not both" } : options.project ? "project" : "user"

/** What the agent still needs before the hooks run, per agent and scope. */
export const needs = (agent: HostMode.Agent, scope: Scope, projectDir: string): ReadonlyArray<string> => {
  switch (agent.name) {
    case "claude":
      return scope === "project"
        ? [`Claude Code reads a project's .claude/settings.json only once the project is trusted: open \`claude\` in ${projectDir} and accept the trust prompt (headless \`claude -p\` ignores an untrusted project's settings).`]
        : ["Claude Code reads ~/.claude/settings.json at start: restart running sessions (or review them in /hooks)."]
    case "codex":
      return [
        "Codex runs a new or changed hook only after a review: open `codex`, run /hooks and trust the agent-hooks entries (`codex exec --dangerously-bypass-hook-trust` skips the review, for CI only).",
        ...(scope === "project" ? [`Codex reads ${projectDir}/.codex only for a trusted project ([projects."${projectDir}"] trust_level = "trusted" in ~/.codex/config.toml).`] : [])
      ]
    case "gemini":
      return [`Gemini CLI runs settings hooks only in a trusted folder: trust ${scope === "project" ? projectDir : "each project folder"} (the trust prompt, or ~/.gemini/trustedFolders.json); an untrusted folder drops every settings hook.`]
    case "qwen":
      return scope === "project"
        ? [`Qwen Code loads a project's hooks only in a trusted folder: trust ${projectDir} when Qwen Code asks.`]
        : ["Qwen Code reads ~/.qwen/settings.json at start: restart running sessions."]
    default:
      return notInstallable(agent)
  }
}

/** Where agent-hooks looks for a policy when host mode runs for this project. */
const policyFiles = (projectDir: string): ReadonlyArray<string> => {
  const home = process.env["AGENT_HOOKS_HOME"] ?? join(process.env["HOME"] ?? homedir(), ".agent-hooks")
  return [join(home, "settings.json"), join(projectDir, ".agent-hooks", "settings.json"), join(projectDir, ".agent-hooks", "settings.local.json")]
}

const fail = (message: string) => Effect.fail(new Failed({ message }))

interface Located {
  readonly agent: HostMode.Agent
  readonly scope: Scope
  readonly projectDir: string
  /** The config's path as the agent names it. */
  readonly file: string
  /** The file written: `file`, or the file its in-folder symlink leads to. */
  readonly real: string
}

const locate = (options: InstallOptions): Effect.Effect<Located, Failed> =>
  Effect.gen(function*() {
    const agent = HostMode.byName(options.host)
    if (agent === undefined) return yield* fail(`unknown --host ${options.host} (one of ${HostMode.agents.map((a) => a.name).join(", ")})`)
    const scope = scopeOf(options)
    if (typeof scope !== "string") return yield* fail(scope.error)
    const projectDir = resolve(Option.getOrElse(options.projectDir, () => process.cwd()))
    const file = configPath(agent, scope, projectDir, process.env)
    const real = yield* Effect.try({
      try: () => target(file, scope === "project" ? projectDir : undefined),
      catch: (error) => new Failed({ message: error instanceof UnsafeConfig ? error.message : String(error) })
    })
    return { agent, scope, projectDir, file, real }
  })

const configError = (error: unknown): Failed =>
  new Failed({ message: error instanceof ConfigError ? error.message : `${(error as Error).message ?? String(error)}` })

/** Writes (or, with --dry-run, shows) the change from `before` to `after`. */
const commit = (at: Located, before: string | undefined, after: string | undefined, dryRun: boolean): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    if (dryRun) {
      yield* Console.log(
        unifiedDiff(before ?? "", after ?? "", before === undefined ? "/dev/null" : at.file, after === undefined ? "/dev/null" : at.file).trimEnd()
      )
      yield* Console.log(`(--dry-run: ${at.file} not written)`)
      return
    }
    yield* Effect.try({ try: () => writeText(at.real, after), catch: (error) => new Failed({ message: `${at.file}: cannot write: ${(error as Error).message}` }) })
  })

/**
 * `agent-hooks install --host <agent>`: every event of the agent calls `agent-hooks hook --host
 * <agent> --timeout <s>`, with the agent's hook timeout set to the same value (its unit), which is
 * longer than host mode's own budget. Keeps every entry already there; idempotent.
 *
 * @internal
 */
export const install = (options: InstallOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const at = yield* locate(options)
    const { agent } = at
    const seconds = Option.getOrElse(options.timeout ?? Option.none(), () => agent.hookTimeout)
    if (!Number.isInteger(seconds) || seconds < 2) return yield* fail(`--timeout must be a whole number of seconds, 2 or more; got ${seconds}`)
    const run = runner()
    if ("error" in run) return yield* fail(run.error)
    const plan: InstallPlan = { agent, events: eventsOf(agent), command: hookCommand(run, agent, seconds), timeout: seconds * timeoutUnitMs(agent) }
    const before = readText(at.real)
    const after = yield* Effect.try({ try: () => addOwn(plan, before, at.file), catch: configError })
    if (after === before) yield* Console.log(`${agent.displayName}: already installed in ${at.file} (${plan.events.length} events)`)
    else {
      yield* commit(at, before, after, options.dryRun)
      if (!options.dryRun) {
        yield* Console.log(`${agent.displayName}: ${at.file} now calls agent-hooks on ${plan.events.length} events: ${plan.events.join(", ")}`)
      }
    }
    yield* Console.log(`command: ${plan.command} (hook timeout ${plan.timeout}${timeoutUnitMs(agent) === 1000 ? " ms" : " s"})`)
    for (const line of needs(agent, at.scope, at.projectDir)) yield* Console.log(`next: ${line}`)
    if (!policyFiles(at.projectDir).some((file) => existsSync(file))) {
      yield* Console.log(
        `next: there is no agent-hooks policy yet (${policyFiles(at.projectDir).slice(0, 2).join(" or ")}): host mode blocks every call until there is one. Write one (agent-hooks init), then check with agent-hooks doctor --host ${agent.name}`
      )
    }
  })

/**
 * `agent-hooks uninstall --host <agent>`: removes the entries install wrote (at any path or timeout)
 * and nothing else; a file install created is removed. The file is then as it was before install.
 *
 * @internal
 */
export const uninstall = (options: InstallOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const at = yield* locate(options)
    const before = readText(at.real)
    if (before === undefined) {
      yield* Console.log(`${at.agent.displayName}: no ${at.file}: nothing to remove`)
      return
    }
    const after = yield* Effect.try({ try: () => removeOwn(at.agent, before, at.file), catch: configError })
    if (after === before) {
      yield* Console.log(`${at.agent.displayName}: no agent-hooks entries in ${at.file}: nothing to remove`)
      return
    }
    yield* commit(at, before, after, options.dryRun)
    if (!options.dryRun) {
      yield* Console.log(`${at.agent.displayName}: agent-hooks entries removed from ${at.file}${after === undefined ? " (the file install created is removed)" : ""}`)
    }
  })
