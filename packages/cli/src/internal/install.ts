/**
 * `agent-hooks install --host <agent>` and `agent-hooks uninstall --host <agent>`: agent-hooks' host
 * mode wired into the agent's own hook config (`hostFiles.ts` knows each agent's files,
 * `hostConfig.ts` edits the text, `configFile.ts` reads and writes it safely), and taken out again,
 * leaving every file as it was.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { existsSync, realpathSync } from "node:fs"
import { homedir } from "node:os"
import { createInterface } from "node:readline"
import { basename, dirname, join, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { UnsafeConfig, writeText } from "./configFile.ts"
import { stopDaemons } from "./daemonStop.ts"
import { unifiedDiff } from "./diff.ts"
import type { InstallPlan } from "./hostConfig.ts"
import { commandEvent, ConfigError, eventsOf, fixedTimeout, hookCommand, optInOf, timeoutIn } from "./hostConfig.ts"
import type { Change, Layout, Scope } from "./hostFiles.ts"
import { filesOf, installChanges, layoutOf, uninstallChanges, wiredEntries } from "./hostFiles.ts"
import * as Agents from "@agent-hooks/core/Agents"
import { wiringOf } from "./agentProfile.ts"
import { missingFolders, recordCreated, removeCreated } from "./installFolders.ts"
import { clientPath, installClient, nativeFolder, removeClient } from "./nativeClient.ts"
import { ownFolderProblem } from "./userEnv.ts"
import { copyBuild, launcherPath, realOf, removeLauncher, unstableReason, writeLauncher } from "./launcher.ts"
import { version } from "./version.ts"

/** Options of `install` and `uninstall`. */
export interface InstallOptions {
  readonly host: HostMode.HostName
  readonly user: boolean
  readonly project: boolean
  readonly projectDir: Option.Option<string>
  readonly dryRun: boolean
  /** `install` only: the hook timeout in seconds (default: the agent's own default). */
  readonly timeout?: Option.Option<number> | undefined
  /** `install` only: Cursor's Tab events too (`beforeTabFileRead`, `afterTabFileEdit`). */
  readonly tab?: boolean | undefined
  /** `install` only: the command is the native client (built with `cc`), not Node's. */
  readonly native?: boolean | undefined
  /** `install` only: `--home DIR`, written as hook --home (default `$AGENT_HOOKS_HOME` of install's own environment). */
  readonly home?: Option.Option<string> | undefined
  /** `install` only: `--managed-dir DIR`, written as hook --managed-dir (default `$AGENT_HOOKS_MANAGED_DIR`). */
  readonly managedDir?: Option.Option<string> | undefined
  /** `install` only: with no policy yet, write the recommended one (`recommended`) or not (`none`); else ask in a terminal. */
  readonly policy?: Option.Option<"recommended" | "none"> | undefined
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
  if (typeof process.versions["deno"] === "string") return [process.execPath, "run", "-A", real]
  // an agent's hook is Node's fastest start of this install, whichever of the two entries runs install
  return [process.execPath, typeof process.versions["bun"] === "string" ? real : nodeEntry(real)]
}

/**
 * The entry Node starts fastest for the CLI entry file `file`: the CommonJS one beside `bin.js`
 * (`agent-hooks.cjs`, when the build made it: it asks the daemon before any ES module loads), else `file`.
 *
 * @internal
 */
export const nodeEntry = (file: string): string => {
  const entry = join(dirname(file), "agent-hooks.cjs")
  return basename(file) === "bin.js" && existsSync(entry) ? entry : file
}

/** The two entry files of one build of the CLI: a command naming either starts the same agent-hooks. */
const ENTRY_FILES = ["bin.js", "agent-hooks.cjs"]

/**
 * Whether a command's words start this agent-hooks (`mine`, from `runner`): the same words, or the
 * same runtime and the other entry file of the same build (a config written before `agent-hooks.cjs`
 * was the entry names `bin.js`).
 *
 * @internal
 */
export const sameRunner = (words: ReadonlyArray<string>, mine: ReadonlyArray<string>): boolean => {
  if (words.length !== mine.length || words.some((word, at) => at < words.length - 1 && word !== mine[at])) return false
  const [theirs, ours] = [words.at(-1)!, mine.at(-1)!]
  return (
    theirs === ours || (dirname(theirs) === dirname(ours) && ENTRY_FILES.includes(basename(theirs)) && ENTRY_FILES.includes(basename(ours)))
  )
}

const scopeOf = (options: InstallOptions): Scope | { readonly error: string } =>
  options.user && options.project ? { error: "give --user or --project, not both" } : options.project ? "project" : "user"

/** What the agent still needs before the hooks run, per scope: its profile's `needs`. */
export const needs = (agent: HostMode.Agent, scope: Scope, projectDir: string): ReadonlyArray<string> =>
  wiringOf(agent).needs(scope, projectDir)

/**
 * The folders host mode is to read the user's and the managed settings from (`--home`,
 * `--managed-dir`; else the variables of install's own environment, the user's shell): absolute,
 * and, where they exist, owned by the user (or root) and writable by nobody else (`userEnv.ts`).
 * Host mode honours them only as the flags install writes into the agent's config.
 */
const userFolders = (
  options: InstallOptions
): { readonly home: string | undefined; readonly managedDir: string | undefined } | { readonly error: string } => {
  const pick = (flag: Option.Option<string> | undefined, variable: string): string | undefined => {
    const value = Option.getOrUndefined(flag ?? Option.none()) ?? process.env[variable]
    return value === undefined || value === "" ? undefined : resolve(value)
  }
  const home = pick(options.home, "AGENT_HOOKS_HOME")
  const managedDir = pick(options.managedDir, "AGENT_HOOKS_MANAGED_DIR")
  for (const [flag, value, root] of [
    ["--home", home, false],
    ["--managed-dir", managedDir, true]
  ] as const) {
    const problem = value === undefined ? undefined : ownFolderProblem(value, { root })
    if (problem !== undefined)
      return {
        error: `${flag} ${value}: ${problem}; host mode reads the policy only from a folder you${root ? " (or root)" : ""} own that nobody else may write`
      }
  }
  return { home, managedDir }
}

/** Where agent-hooks looks for a policy when host mode runs for this project. */
const policyFiles = (projectDir: string, userHome?: string | undefined): ReadonlyArray<string> => {
  const home = userHome ?? join(process.env["HOME"] ?? homedir(), ".agent-hooks")
  return [
    join(home, "settings.json"),
    join(projectDir, ".agent-hooks", "settings.json"),
    join(projectDir, ".agent-hooks", "settings.local.json")
  ]
}

const fail = (message: string) => Effect.fail(new Failed({ message }))

interface Located {
  readonly agent: HostMode.Agent
  readonly scope: Scope
  readonly projectDir: string
  readonly layout: Layout
}

const locate = (options: InstallOptions): Effect.Effect<Located, Failed> =>
  Effect.gen(function* () {
    const agent = HostMode.byName(options.host)
    if (agent === undefined) return yield* fail(`unknown --host ${options.host} (one of ${HostMode.agents.map((a) => a.name).join(", ")})`)
    const scope = scopeOf(options)
    if (typeof scope !== "string") return yield* fail(scope.error)
    const projectDir = resolve(Option.getOrElse(options.projectDir, () => process.cwd()))
    return { agent, scope, projectDir, layout: layoutOf(agent, scope, projectDir, process.env) }
  })

/** A config that cannot be read, edited or written safely: the reason, as the command's failure. */
const configError = (error: unknown): Failed =>
  new Failed({
    message: error instanceof ConfigError || error instanceof UnsafeConfig ? error.message : `${(error as Error).message ?? String(error)}`
  })

/**
 * Writes (or, with --dry-run, shows) the changes; each file atomically. The folders a new file
 * creates are recorded first (`installFolders.ts`), so that uninstall removes them again; a file
 * removed takes the folders install created for it along, while they are empty.
 */
const commit = (changes: ReadonlyArray<Change>, dryRun: boolean): Effect.Effect<ReadonlyArray<string>, Failed> =>
  Effect.gen(function* () {
    const removedFolders: Array<string> = []
    if (!dryRun) {
      const created = [
        ...new Set(
          changes
            .filter((change) => change.before === undefined && change.after !== undefined)
            .flatMap((change) => missingFolders(change.real))
        )
      ]
      yield* Effect.try({
        try: () => recordCreated(created, process.env),
        catch: (error) =>
          new Failed({
            message: `cannot record the folders install creates (${created.join(", ")}): ${(error as Error).message}; nothing written`
          })
      })
    }
    for (const change of changes) {
      if (dryRun) {
        yield* Console.log(
          unifiedDiff(
            change.before ?? "",
            change.after ?? "",
            change.before === undefined ? "/dev/null" : change.file,
            change.after === undefined ? "/dev/null" : change.file
          ).trimEnd()
        )
        continue
      }
      yield* Effect.try({
        try: () => writeText(change.real, change.after, change.mode),
        catch: (error) => new Failed({ message: `${change.file}: cannot write: ${(error as Error).message}` })
      })
    }
    for (const change of changes) {
      if (dryRun || change.after !== undefined) continue
      removedFolders.push(
        ...(yield* Effect.try({
          try: () => removeCreated(change.file, process.env),
          catch: (error) =>
            new Failed({ message: `${change.file} removed, but not the folders install created for it: ${(error as Error).message}` })
        }))
      )
    }
    if (dryRun) yield* Console.log(`(--dry-run: ${changes.map((change) => change.file).join(", ")} not written)`)
    return removedFolders
  })

/** The files of the layout, for messages: one path, or a folder's files. */
const where = (at: Located, events: ReadonlyArray<string>): string =>
  at.layout.kind === "scripts"
    ? `${at.layout.folder}/`
    : at.layout.kind === "layered"
      ? filesOf(at.layout, events).join(" or ")
      : filesOf(at.layout, events)[0]!

/**
 * `agent-hooks install --host <agent>`: every event of the agent calls `agent-hooks hook --host
 * <agent> --timeout <s>`, with the agent's hook timeout set to the same value (its unit), which is
 * longer than host mode's own budget. Keeps every entry already there; idempotent.
 *
 * @internal
 */
export const install = (options: InstallOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const at = yield* locate(options)
    const { agent } = at
    const seconds = Option.getOrElse(options.timeout ?? Option.none(), () => agent.hookTimeout)
    if (!Number.isInteger(seconds) || seconds < 2)
      return yield* fail(`--timeout must be a whole number of seconds, 2 or more; got ${seconds}`)
    // An agent with a fixed hook timeout kills host mode at it and goes on: the budget must stay below
    if (fixedTimeout(agent) && seconds > agent.hookTimeout) {
      return yield* fail(
        `--timeout ${seconds}: ${agent.displayName} stops a hook after ${agent.hookTimeout} s (there is no timeout to set in its config); give ${agent.hookTimeout} or less`
      )
    }
    if (options.tab === true && optInOf(agent).length === 0)
      return yield* fail(
        `--tab is for --host ${Agents.profiles
          .filter((profile) => (profile.wiring.optIn ?? []).length > 0)
          .map((profile) => profile.name)
          .join(
            ", "
          )} (its opt-in events: ${Agents.profiles.flatMap((profile) => profile.wiring.optIn ?? []).join(", ")}); ${agent.displayName} has none`
      )
    const node = runner()
    if ("error" in node) return yield* fail(node.error)
    const folders = userFolders(options)
    if ("error" in folders) return yield* fail(folders.error)
    const started = at.scope === "user" ? yield* launch(node, options.dryRun) : { words: node, target: node }
    const run = yield* client(options, at, started.target, started.words)
    const plan: InstallPlan = {
      agent,
      events: eventsOf(agent, options.tab === true),
      // where a payload may not name its event (Copilot CLI's, also under VS Code's entries), the command does;
      // the user's folders go as flags (host mode ignores the variables, which a project can set)
      command: (event) => hookCommand(run, agent, seconds, commandEvent(agent, event), folders),
      timeout: timeoutIn(agent, seconds)
    }
    const changes = yield* Effect.try({ try: () => installChanges(at.layout, plan, at.scope, at.projectDir), catch: configError })
    if (changes.length === 0)
      yield* Console.log(`${agent.displayName}: already installed in ${where(at, plan.events)} (${plan.events.length} events)`)
    else {
      yield* commit(changes, options.dryRun)
      if (!options.dryRun) {
        yield* Console.log(
          `${agent.displayName}: ${changes.map((change) => change.file).join(", ")} now call${changes.length === 1 ? "s" : ""} agent-hooks on ${plan.events.length} events: ${plan.events.join(", ")}`
        )
      }
    }
    const unit = fixedTimeout(agent)
      ? ` (${agent.displayName}'s own hook timeout: ${agent.hookTimeout} s)`
      : ` (hook timeout ${plan.timeout}${plan.timeout === seconds ? " s" : " ms"})`
    yield* Console.log(`command: ${plan.command(plan.events[0]!)}${unit}`)
    for (const line of needs(agent, at.scope, at.projectDir)) yield* Console.log(`next: ${line}`)
    const optIn = [...optInOf(agent)]
    if (optIn.length > 0 && options.tab !== true) {
      yield* Console.log(
        `note: ${optIn.join(" and ")} (${agent.displayName}'s Tab completions) are not wired, so the policy does not see what Tab reads: --tab adds them`
      )
    }
    if (!options.dryRun && !policyFiles(at.projectDir, folders.home).some((file) => existsSync(file)))
      yield* offerPolicy(options, at, policyFiles(at.projectDir, folders.home))
  })

/** The policy `install --policy recommended` writes: the recommended rules, nothing else. */
export const RECOMMENDED_POLICY = `${JSON.stringify({ extends: ["agent-hooks:recommended"] }, null, 2)}\n`

/**
 * No policy exists for this project (the user's, the project's): host mode would block every call.
 * `--policy recommended` writes the recommended one into the scope's file, `--policy none` leaves it
 * be; without the flag, a terminal is asked (default yes), anything else is told the commands.
 */
const offerPolicy = (options: InstallOptions, at: Located, files: ReadonlyArray<string>): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const file = at.scope === "user" ? files[0]! : files[1]!
    const where = at.scope === "user" ? "every project" : "this project"
    let choice = Option.getOrUndefined(options.policy ?? Option.none())
    if (choice === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true) {
      const answer = yield* Effect.promise(
        () =>
          new Promise<string>((resolve) => {
            const rl = createInterface({ input: process.stdin, output: process.stdout })
            rl.question(
              `There is no agent-hooks policy yet: host mode blocks every call until there is one. Write the recommended policy (agent-hooks:recommended: no recursive delete of / or ~, no force push, no reading .env or ~/.ssh, ...) to ${file}, for ${where}? [Y/n] `,
              (line) => {
                rl.close()
                resolve(line)
              }
            )
            rl.on("close", () => resolve("n"))
          })
      )
      choice = /^\s*(y(es)?)?\s*$/i.test(answer) ? "recommended" : "none"
    }
    if (choice === "recommended") {
      yield* Effect.try({
        try: () => {
          recordCreated(missingFolders(file), process.env)
          writeText(file, RECOMMENDED_POLICY, 0o644)
        },
        catch: (error) => new Failed({ message: `${file}: cannot write the recommended policy: ${(error as Error).message}` })
      })
      yield* Console.log(
        `wrote ${file}: the recommended policy (extends agent-hooks:recommended, docs: policy.md), for ${where}. Check with agent-hooks doctor --host ${at.agent.name}`
      )
      return
    }
    yield* Console.log(
      `next: there is no agent-hooks policy yet (${files.slice(0, 2).join(" or ")}): host mode blocks every call until there is one. ` +
        `agent-hooks install --host ${at.agent.name}${at.scope === "project" ? " --project" : ""} --policy recommended writes the recommended one to ${file}; ` +
        `agent-hooks init writes a starting ${files[1]} with example hooks. Then check with agent-hooks doctor --host ${at.agent.name}`
    )
  })

/** The native client this config calls (one per agent config), in the user's folder. */
const nativeClientOf = (at: Located): string | undefined => {
  const folder = nativeFolder(process.env)
  return folder === undefined ? undefined : clientPath(folder, at.agent.name, at.scope, at.projectDir)
}

/**
 * The words that start the CLI in the command install writes: with `--native`, the native client,
 * built for this Node and this CLI (the daemon's client without Node's start; the call runs through
 * Node when the daemon does not answer it); without a C compiler, Node's, said so. Without
 * `--native`, a native client an earlier install built for this config is removed.
 */
const client = (
  options: InstallOptions,
  at: Located,
  node: ReadonlyArray<string>,
  words: ReadonlyArray<string> = node
): Effect.Effect<ReadonlyArray<string>, Failed> =>
  Effect.gen(function* () {
    const path = nativeClientOf(at)
    if (options.native !== true) {
      if (path !== undefined && !options.dryRun && removeClient(path))
        yield* Console.log(`native client ${path} removed (the command is Node's again)`)
      return words
    }
    if (typeof process.versions["bun"] === "string" || typeof process.versions["deno"] === "string" || node.length !== 2)
      return yield* fail("--native builds the client for the Node install of agent-hooks: run this install with node")
    if (path === undefined) return yield* fail("--native: no folder for the client (no HOME)")
    if (options.dryRun) {
      yield* Console.log(`(--dry-run: the native client ${path} is not built)`)
      return [path]
    }
    const built = installClient(path, { node: node[0]!, bin: node[1]!, version: process.version })
    if ("error" in built) {
      yield* Console.log(
        built.noCompiler
          ? `native client: ${built.error}; the command is Node's client. Install a C compiler (Debian/Ubuntu: apt install gcc; macOS: xcode-select --install) and run this install with --native again`
          : `warning: native client not built: ${built.error}; the command is Node's client`
      )
      return words
    }
    yield* Console.log(`native client: ${path} (built with cc for ${node[0]} ${process.version} and ${node[1]})`)
    return [path]
  })

/**
 * A user-wide entry starts the per-user launcher (`launcher.ts`), which starts `node` (the runtime
 * and entry of this agent-hooks), or a copy of this build when it runs from a place that may go:
 * the launcher's words, and what it starts (the words a native client is built for).
 */
const launch = (
  node: ReadonlyArray<string>,
  dryRun: boolean
): Effect.Effect<{ readonly words: ReadonlyArray<string>; readonly target: ReadonlyArray<string> }, Failed> =>
  Effect.gen(function* () {
    let target = node
    const entry = node.at(-1)!
    const unstable = unstableReason(realOf(entry))
    const isNode = node.length === 2 && typeof process.versions["bun"] !== "string" && typeof process.versions["deno"] !== "string"
    if (unstable !== undefined && isNode && !dryRun) {
      const copy = copyBuild(entry, version, process.env)
      if ("error" in copy) {
        yield* Console.log(
          `warning: this agent-hooks runs from ${unstable}, which may go, and was not copied (${copy.error}): when it goes, your agents' calls are blocked until agent-hooks install runs again. Install the CLI for your user (npm install -g @agent-hooks/cli), then run its agent-hooks install`
        )
      } else {
        target = [node[0]!, copy.entry]
        yield* Console.log(
          `agent-hooks runs from ${unstable}, which may go: copied into ${dirname(copy.entry)}, which your agents run (run agent-hooks install again after upgrading agent-hooks)`
        )
      }
    } else if (unstable !== undefined && !dryRun) {
      yield* Console.log(
        `warning: this agent-hooks runs from ${unstable}, which may go: when it goes, your agents' calls are blocked until agent-hooks install runs again with an installed agent-hooks`
      )
    }
    const runtime = unstableReason(realOf(node[0]!))
    if (isNode && runtime !== undefined && !dryRun)
      yield* Console.log(
        `note: the launcher starts Node from ${runtime} (${node[0]}): if it goes, your agents' calls are blocked until agent-hooks install runs again with another Node`
      )
    const path = launcherPath(process.env)
    if (path === undefined) return yield* fail("no folder for the launcher of user-wide entries (HOME is not set)")
    if (dryRun) {
      yield* Console.log(`(--dry-run: the launcher ${path} is not written either)`)
      return { words: [path], target }
    }
    const written = writeLauncher(target, version, process.env)
    if ("error" in written) return yield* fail(written.error)
    return { words: [written.path], target }
  })

/** Whether some agent's user-wide config still calls agent-hooks (or cannot be read, so may). */
const userEntriesLeft = (projectDir: string): boolean =>
  HostMode.agents.some((agent) => {
    try {
      return wiredEntries(layoutOf(agent, "user", projectDir, process.env), agent, "user", projectDir).size > 0
    } catch {
      return true
    }
  })

/**
 * `agent-hooks uninstall --host <agent>`: removes the entries install wrote (at any path or timeout)
 * and nothing else; a file install created is removed. The file is then as it was before install.
 *
 * @internal
 */
export const uninstall = (options: InstallOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const at = yield* locate(options)
    const events = Object.keys(at.agent.events)
    const changes = yield* Effect.try({ try: () => uninstallChanges(at.layout, at.agent, at.scope, at.projectDir), catch: configError })
    const native = nativeClientOf(at)
    const removeNative = !options.dryRun && native !== undefined && removeClient(native)
    if (removeNative) yield* Console.log(`${at.agent.displayName}: native client ${native} removed`)
    if (changes.length === 0) {
      yield* Console.log(`${at.agent.displayName}: no agent-hooks entries in ${where(at, events)}: nothing to remove`)
    } else {
      const folders = yield* commit(changes, options.dryRun)
      if (!options.dryRun) {
        for (const change of changes) {
          yield* Console.log(
            `${at.agent.displayName}: ${change.after === undefined ? `${change.file} removed (install created it)` : `agent-hooks entries removed from ${change.file}`}`
          )
        }
        for (const folder of folders)
          yield* Console.log(`${at.agent.displayName}: ${folder}/ removed (install created it, and it is empty)`)
      }
    }
    // The launcher of user-wide entries goes with the last of them (any agent's)
    if (!options.dryRun && at.scope === "user" && !userEntriesLeft(at.projectDir)) {
      const gone = yield* Effect.try({
        try: () => removeLauncher(process.env),
        catch: (error) => new Failed({ message: `the entries are removed, but not the launcher: ${(error as Error).message}` })
      })
      if (gone.length > 0) yield* Console.log(`launcher removed (no agent's user-wide config calls agent-hooks now): ${gone.join(", ")}`)
    }
    // The user's daemon of `agent-hooks hook` would otherwise idle on for its 15 minutes: stopped
    // (every build's), and started again by the next call of any agent still wired
    if (!options.dryRun) {
      const stopped = yield* Effect.promise(() => stopDaemons(process.env))
      if (stopped.length > 0) {
        yield* Console.log(
          `agent-hooks daemon stopped (${stopped.length === 1 ? stopped[0] : `${stopped.length} daemons`}): the next \`agent-hooks hook\` call starts it again`
        )
      }
    }
  })
