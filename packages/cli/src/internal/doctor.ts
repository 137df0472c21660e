/**
 * `agent-hooks doctor --host <agent>`: is the agent wired to host mode, and would host mode stop a
 * dangerous shell call with the policy as it stands? The test call is the agent's own PreToolUse
 * payload for its shell tool, sent to the command found in the agent's config, run as the agent
 * runs it (`sh -c`, in the project, with the agent's project variable), and judged by what the agent
 * reads back. Exit 1 when the agent is not wired up or the call would go through.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { foreignAuto, killedBeforeAnswer } from "./foreignEntry.ts"
import { READERS } from "./foreignPayload.ts"
import { eventsOf, readOwnCommand } from "./hostConfig.ts"
import { clientPath, nativeFolder, readClient } from "./nativeClient.ts"
import type { Scope } from "./hostFiles.ts"
import { filesOf, layoutOf, wiredEntries } from "./hostFiles.ts"
import { wiringOf } from "./agentProfile.ts"
import { describeSwitch, offSwitches } from "./hookSwitches.ts"
import { HOST_MODE_ENV } from "./hook.ts"
import { nodeEntry, runner, sameRunner } from "./install.ts"
import { readLauncher } from "./launcher.ts"
import { checkPreset, withPlan } from "./engine.ts"
import { pluginStale } from "./pluginFile.ts"

/** Options of `agent-hooks doctor`. */
export interface DoctorOptions {
  readonly host: HostMode.HostName
  readonly user: boolean
  readonly project: boolean
  readonly projectDir: Option.Option<string>
  /** The shell command of the test call. */
  readonly testCommand: string
  /** The agent's own managed (system) settings folder, for its switches (default: the one it documents). */
  readonly agentManagedDir?: Option.Option<string> | undefined
}

/** The agent's event that guards its shell tool (the test call's event): its profile's `doctor.shellEvent`. */
export const shellEvent = (agent: HostMode.Agent): string => wiringOf(agent).doctor.shellEvent

/** The agent's PreToolUse payload for its shell tool running `command`, in the agent's own shape and names (its profile's `doctor.sample`). */
export const testPayload = (agent: HostMode.Agent, command: string, projectDir: string): Record<string, unknown> =>
  wiringOf(agent).doctor.sample(command, projectDir, {
    session_id: "agent-hooks-doctor",
    transcript_path: join(projectDir, ".agent-hooks-doctor.jsonl"),
    cwd: projectDir
  })

/** The shell tool's name in a test payload, for the report line (` Bash`), wherever the agent puts it. */
const toolOf = (payload: Record<string, unknown>): string => {
  const nested = (key: string, field: string) => {
    const value = payload[key]
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[field] : undefined
  }
  const name = [payload["tool_name"], payload["toolName"], nested("preToolUse", "toolName"), nested("toolCall", "name")].find(
    (value) => typeof value === "string"
  )
  return name === undefined ? "" : ` ${String(name)}`
}

/** How the agent reads a hook's answer to a PreToolUse: `block`, `ask`, or `allow` (the call runs). */
export const verdict = (
  agent: HostMode.Agent,
  status: number | null,
  stdout: string,
  stderr: string
): { readonly kind: "block" | "ask" | "allow"; readonly reason: string } => {
  // how the agent reads exit 2 is its profile's: some read stdout's JSON only (`exitBlocks`), some
  // run the tool when stderr is empty (`blockNeedsReason`)
  const doctor = wiringOf(agent).doctor
  if (doctor.exitBlocks && status === 2 && stderr.trim() !== "") return { kind: "block", reason: stderr.trim() }
  if (doctor.exitBlocks && status === 2 && doctor.blockNeedsReason !== true) return { kind: "block", reason: "(no reason)" }
  if (status !== 0)
    return {
      kind: "allow",
      reason: `the hook failed with exit ${status ?? "(killed)"}: ${agent.displayName} then runs the tool. ${stderr.trim()}`
    }
  let json: Record<string, unknown> = {}
  try {
    json = stdout.trim() === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>)
  } catch {
    return { kind: "allow", reason: "the hook printed something that is not JSON" }
  }
  const { decision, reason } = doctor.read(typeof json === "object" && json !== null && !Array.isArray(json) ? json : {})
  if (decision === "deny" || decision === "block") return { kind: "block", reason: String(reason ?? "") }
  if (decision === "ask" && agent.canAsk) return { kind: "ask", reason: String(reason ?? "") }
  return { kind: "allow", reason: "the policy let the call through" }
}

/**
 * A shell call a `Bash(...)` rule names, to test the rule with: the prefix of `Bash(git push:*)`,
 * the text of `Bash(npm publish)`, each `*` of `Bash(rm * /)` as `x`; `undefined` for a rule of
 * another tool (doctor's test call is a shell call).
 *
 * @internal
 */
export const sampleOf = (rule: string): string | undefined => {
  const match = /^Bash\((.*)\)$/s.exec(rule.trim())
  if (match === null) return rule.trim() === "Bash" ? "true" : undefined
  const spec = match[1]!.trim()
  const body = spec.endsWith(":*") ? spec.slice(0, -2) : spec
  const text = body
    .replace(/\s*\*\s*$/, "")
    .replace(/\*/g, "x")
    .trim()
  return text === "" ? "true" : text
}

/** How many deny rules doctor tests, at most (each is one call of the agent's hook command). */
const RULES_TESTED = 10

/** The `permissions` deny rules the hook command's settings hold (its `--preset`, this project), or why they could not be read. */
const denyRules = (words: ReadonlyArray<string>, projectDir: string) => {
  const at = words.indexOf("--preset")
  const name = at >= 0 ? words[at + 1] : undefined
  return Effect.gen(function* () {
    const preset = name === undefined ? undefined : yield* checkPreset(name)
    return yield* withPlan({ settings: [], projectDir: Option.some(projectDir), preset }, undefined, (plan) =>
      Effect.succeed((plan.permissions?.rules ?? []).map(({ entry }) => entry).filter((entry) => entry.list === "deny"))
    )
  }).pipe(Effect.catch((error) => Effect.succeed(error.message)))
}

/**
 * `agent-hooks doctor --host <agent>`.
 *
 * @internal
 */
export const doctor = (options: DoctorOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const agent = HostMode.byName(options.host)
    if (agent === undefined) return yield* Effect.fail(new Failed({ message: `unknown --host ${options.host}` }))
    if (options.user && options.project) return yield* Effect.fail(new Failed({ message: "give --user or --project, not both" }))
    const projectDir = resolve(Option.getOrElse(options.projectDir, () => process.cwd()))
    const scopes: ReadonlyArray<Scope> = options.user ? ["user"] : options.project ? ["project"] : ["project", "user"]
    const expected = eventsOf(agent)
    const preEvent = shellEvent(agent)
    const problems: Array<string> = []
    let wired: { readonly file: string; readonly command: string; readonly scope: Scope } | undefined
    for (const scope of scopes) {
      const layout = layoutOf(agent, scope, projectDir, process.env)
      const files = filesOf(layout, expected)
      const shown = layout.kind === "scripts" ? `${layout.folder}/` : files.join(" and ")
      let entries: ReturnType<typeof wiredEntries>
      try {
        entries = wiredEntries(layout, agent, scope, projectDir)
      } catch (error) {
        problems.push((error as Error).message)
        continue
      }
      // The agent kills a hook at its timeout and then runs the tool (Codex, Gemini CLI, Qwen Code):
      // the timeout in the config must stay above host mode's budget for the --timeout it was given
      for (const [event, entry] of entries) {
        const why = killedBeforeAnswer(agent, entry)
        if (why !== undefined) problems.push(`${entry.file} ${event}: ${why}. Run agent-hooks install --host ${agent.name} again`)
      }
      // A Claude Code clone (Droid, CodeBuddy, Auggie...) wired as --host claude: its answers are read
      // by Claude Code's rules, which this agent does not follow (an ask runs headless)
      const claudeHost = HostMode.byName("claude")
      if (agent.name !== "claude" && claudeHost !== undefined && layout.kind === "json") {
        let misfits: ReturnType<typeof wiredEntries> = new Map()
        try {
          misfits = wiredEntries(layout, claudeHost, scope, projectDir)
        } catch {
          // already said above, by the agent's own reading
        }
        if (misfits.size > 0) {
          const file = [...misfits.values()][0]!.file
          problems.push(
            `${file} runs agent-hooks as --host claude (on ${[...misfits.keys()].join(", ")}), which answers by Claude Code's rules, not ${agent.displayName}'s (an ask there is a call ${agent.displayName} may run): remove those entries and run agent-hooks install --host ${agent.name}${scope === "project" ? " --project" : ""}`
          )
        }
      }
      // agent-hooks' plugin (pi, opencode, Kilo): the file must be the one this agent-hooks writes
      if (layout.kind === "plugin" && entries.size > 0) {
        const stale = pluginStale(layout.file)
        if (stale !== undefined)
          problems.push(
            `${layout.file}: ${stale}. Run agent-hooks install --host ${agent.name}${scope === "project" ? " --project" : ""} again`
          )
      }
      const missing = expected.filter((event) => !entries.has(event))
      if (entries.size === 0) yield* Console.log(`${scope}: ${shown}: no agent-hooks entries`)
      else if (missing.length > 0)
        yield* Console.log(
          `${scope}: ${shown}: agent-hooks on ${entries.size} of ${expected.length} events; missing: ${missing.join(", ")}`
        )
      else yield* Console.log(`${scope}: ${shown}: agent-hooks on all ${expected.length} events`)
      const pre = entries.get(preEvent)
      if (wired === undefined && pre !== undefined) wired = { file: pre.file, command: pre.command, scope }
    }
    // the agent's (and its administrator's) switches that skip the entry: never "protected" under one
    const switches = offSwitches(agent, {
      projectDir,
      env: process.env,
      managedDir: Option.getOrUndefined(options.agentManagedDir ?? Option.none()),
      command: wired?.command,
      entryFile: wired?.file,
      event: preEvent
    })
    const notProtected = () =>
      new Failed({
        message: `${agent.displayName} is not protected: ${switches.length === 1 ? "a switch" : `${switches.length} switches`} above skip${switches.length === 1 ? "s" : ""} the agent-hooks entry, whatever the test call says`
      })
    for (const off of switches) problems.push(describeSwitch(agent, off))
    if (wired === undefined) {
      for (const problem of problems) yield* Console.log(`problem: ${problem}`)
      return yield* Effect.fail(
        new Failed({
          message: `${agent.displayName} is not wired to agent-hooks (no agent-hooks entry on ${preEvent}): run agent-hooks install --host ${agent.name}`
        })
      )
    }
    const command = wired.command
    const own = readOwnCommand(command)!
    // The command cannot start agent-hooks: the agent's calls are blocked (the launcher) or the hook
    // fails (an older entry naming the files itself); a test call would only say so less clearly
    const launcher = own.words.length === 1 ? readLauncher(own.words[0]!) : undefined
    if (launcher !== undefined) yield* Console.log(`client: launcher ${own.words[0]} (starts ${launcher.words.join(" ")})`)
    const gone = [...own.words, ...(launcher?.words ?? [])].filter((word) => word.startsWith("/") && !existsSync(word))
    if (gone.length > 0) {
      for (const problem of problems) yield* Console.log(`problem: ${problem}`)
      return yield* Effect.fail(
        new Failed({
          message: `${wired.file} starts agent-hooks through ${gone.join(" and ")}, which ${gone.length === 1 ? "is" : "are"} gone: ${
            launcher === undefined
              ? `the hook cannot start, and what ${agent.displayName} then does is its own (most run the tool)`
              : `the launcher blocks every tool call of ${agent.displayName}, saying so`
          }. Install agent-hooks again (npm install -g @agent-hooks/cli), then run agent-hooks install --host ${agent.name}${wired.scope === "project" ? " --project" : ""}`
        })
      )
    }
    // A project's config comes with the project (a cloned repository): its quoted words could start
    // anything. The test call runs only the command this very agent-hooks installs.
    // The native client (install --native) runs the Node and CLI compiled into it
    const native = own.words.length === 1 ? readClient(own.words[0]!) : undefined
    if (launcher !== undefined) {
      // the launcher's own line above
    } else if (native === undefined) {
      yield* Console.log(`client: Node (${own.words.join(" ")})`)
      // written before agent-hooks.cjs was the entry: right, and slower than it needs to be
      const file = own.words.at(-1)!
      const faster = nodeEntry(file)
      if (faster !== file)
        yield* Console.log(
          `note: the command starts ${file}; agent-hooks install --host ${agent.name} again writes ${faster}, which answers a call through the daemon with about 2 ms less CPU`
        )
    } else {
      yield* Console.log(`client: native, ${own.words[0]} (through ${native.node} ${native.bin} when the daemon does not answer)`)
      for (const word of [native.node, native.bin])
        if (!existsSync(word))
          problems.push(`the native client runs ${word}, which does not exist: run agent-hooks install --host ${agent.name} --native again`)
      if (native.node === process.execPath && native.version !== process.version)
        problems.push(
          `the native client was built for Node ${native.version}, and ${native.node} is now ${process.version}: it never reaches the daemon (every call starts Node). Run agent-hooks install --host ${agent.name} --native again`
        )
    }
    const mine = runner()
    const myClient = nativeFolder(process.env)
    const mineNative =
      native !== undefined &&
      myClient !== undefined &&
      own.words[0] === clientPath(myClient, agent.name, wired.scope, projectDir) &&
      !("error" in mine) &&
      sameRunner([native.node, native.bin], mine)
    if (wired.scope === "project" && !mineNative && ("error" in mine || !sameRunner(own.words, mine))) {
      for (const problem of problems) yield* Console.log(`problem: ${problem}`)
      return yield* Effect.fail(
        new Failed({
          message: `${wired.file} calls ${own.words.join(" ")}, not this agent-hooks (${"error" in mine ? mine.error : mine.join(" ")}): doctor does not run a command a project's file names. If it is yours, run agent-hooks install --host ${agent.name} --project again, then doctor`
        })
      )
    }
    // The test call, as the agent makes it
    const env: Record<string, string | undefined> = { ...process.env }
    delete env[HOST_MODE_ENV]
    for (const name of agent.projectDirEnv) env[name] = projectDir
    const spawn = (payload: Record<string, unknown>) =>
      spawnSync("/bin/sh", ["-c", command], {
        input: JSON.stringify(payload),
        cwd: projectDir,
        env,
        encoding: "utf8",
        timeout: (own.timeout + 5) * 1000,
        killSignal: "SIGKILL"
      })
    const call = (shellCommand: string) => {
      const result = spawn(testPayload(agent, shellCommand, projectDir))
      return { status: result.status, ...verdict(agent, result.status, result.stdout ?? "", result.stderr ?? "") }
    }
    // Another agent that runs this agent's hook files (VS Code, Copilot CLI) starts this command with
    // its own payload: say whether host mode judges that call as the other agent's, leaves it to the
    // other agent's own entry (and whether there is one), or blocks it; read as the other agent reads it
    for (const reader of READERS[agent.name] ?? []) {
      const other = HostMode.byName(reader.agent)!
      // the rule --foreign auto follows, from the same function: whether that agent's own entry can judge its calls
      const auto = foreignAuto(other, shellEvent(other), projectDir, process.env)
      const result = spawn(testPayload(other, options.testCommand, projectDir))
      const stderr = result.stderr ?? ""
      const seen = verdict(other, result.status, result.stdout ?? "", stderr)
      const runs = `${reader.displayName} runs ${reader.reads}, so it starts this command too`
      const theirs = auto.leave ? `it is in ${auto.file}` : auto.why
      if (stderr.includes(`judged as ${reader.displayName}'s call`)) {
        if (seen.kind === "allow") {
          problems.push(
            `${runs}, and judges ${reader.displayName}'s call as its own, but ${reader.displayName} would run ${JSON.stringify(options.testCommand)}: ${seen.reason.trim()}`
          )
        } else {
          yield* Console.log(
            `note: ${runs}: host mode judges ${reader.displayName}'s calls here as ${reader.displayName}'s (the test call is ${seen.kind === "block" ? "blocked" : "held for the user"}); ${reader.displayName}'s own agent-hooks entry: ${theirs}`
          )
        }
      } else if (
        result.status === 0 &&
        (result.stdout ?? "").trim() === "" &&
        stderr.includes(`this call comes from ${reader.displayName}`)
      ) {
        if (stderr.includes("--foreign auto:") && !auto.leave) {
          // the command left the call to an entry the rule does not trust: another agent-hooks than this one
          problems.push(
            `${runs}, and leaves ${reader.displayName}'s calls to its own entry, which cannot judge them: ${auto.why}. Nobody judges those calls: run agent-hooks install --host ${agent.name} again with this agent-hooks (it judges them here), and agent-hooks install --host ${reader.agent} --user`
          )
        } else if (auto.leave && !stderr.includes("(--foreign leave)")) {
          yield* Console.log(
            `note: ${reader.displayName} runs ${reader.reads} too; host mode leaves its calls to its own agent-hooks entry, which is there and can judge them (${auto.file}): each agent's calls are judged once`
          )
        } else {
          yield* Console.log(
            `note: ${runs}; host mode leaves its calls to ${reader.displayName}'s own agent-hooks entry (--foreign leave), and ${auto.leave ? `it is in ${auto.file}` : `${theirs}: ${reader.displayName}'s calls are not guarded`}. If you use ${reader.displayName} here, run agent-hooks install --host ${reader.agent} --user, or let host mode judge them (--foreign auto, the default)`
          )
        }
      } else if (seen.kind === "block" && stderr.includes("(--foreign block)")) {
        yield* Console.log(`note: ${runs}: host mode blocks every ${reader.displayName} call (--foreign block)`)
      } else {
        problems.push(
          `${runs}, and that command neither judges nor leaves ${reader.displayName}'s call (exit ${result.status ?? "(killed)"}): it misreads it. Run agent-hooks install --host ${agent.name} again with this agent-hooks`
        )
      }
    }
    const payload = testPayload(agent, options.testCommand, projectDir)
    const seen = call(options.testCommand)
    const result = seen
    // A harmless call too: a policy that cannot load blocks everything, which is not a policy that works
    const harmless = call("ls")
    if (harmless.kind === "block") problems.push(`host mode blocks even \`ls\`, so ${agent.displayName} cannot work: ${harmless.reason}`)
    // The permissions rules: each shell deny rule's own call, as the agent makes it, must be blocked
    const rules = yield* denyRules(own.words, projectDir)
    if (typeof rules === "string") yield* Console.log(`note: the permissions rules could not be tested: ${rules}`)
    else {
      const samples = rules.flatMap((entry) => {
        const sample = sampleOf(entry.rule)
        return sample === undefined ? [] : [{ entry, sample }]
      })
      let tested = 0
      for (const { entry, sample } of samples.slice(0, RULES_TESTED)) {
        const ruled = call(sample)
        tested++
        if (ruled.kind !== "block")
          problems.push(
            `permissions rule ${JSON.stringify(entry.rule)} (${entry.source}) does not block ${JSON.stringify(sample)} in ${agent.displayName}: ${ruled.reason.trim()}`
          )
      }
      if (tested > 0)
        yield* Console.log(
          `permissions: ${tested} of ${rules.length} deny rules tested with a call each names${samples.length > tested ? ` (the first ${RULES_TESTED} shell rules)` : ""}`
        )
    }
    yield* Console.log(
      `test call: ${agent.displayName} ${preEvent}${toolOf(payload)} ${JSON.stringify(options.testCommand)} -> exit ${result.status ?? "(killed)"}`
    )
    for (const problem of problems) yield* Console.log(`problem: ${problem}`)
    if (seen.kind === "block") yield* Console.log(`blocked: ${seen.reason}`)
    else if (seen.kind === "ask") yield* Console.log(`asks the user: ${seen.reason}`)
    if (seen.kind === "allow") {
      return yield* Effect.fail(
        new Failed({
          message: `${agent.displayName} would run ${JSON.stringify(options.testCommand)}: ${seen.reason.trim()}; the policy (agent-hooks list) needs a PreToolUse Bash hook that blocks it`
        })
      )
    }
    if (switches.length > 0) return yield* Effect.fail(notProtected())
    if (problems.length > 0) return yield* Effect.fail(new Failed({ message: `${problems.length} problem(s) above` }))
    yield* Console.log(
      `${agent.displayName}: wired (${wired.file}), and the test call is ${seen.kind === "block" ? "blocked" : "held for the user"}`
    )
  })
