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
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { readText, target } from "./configFile.ts"
import type { Scope } from "./hostConfig.ts"
import { configPath, eventsOf, hostEventFor, notInstallable, ownEntries, readOwnCommand, timeoutUnitMs } from "./hostConfig.ts"
import { parse, toValue } from "./jsonc.ts"
import { budgetMs, HOST_MODE_ENV } from "./hook.ts"

/** Options of `agent-hooks doctor`. */
export interface DoctorOptions {
  readonly host: HostMode.HostName
  readonly user: boolean
  readonly project: boolean
  readonly projectDir: Option.Option<string>
  /** The shell command of the test call. */
  readonly testCommand: string
}

/** The agent's PreToolUse payload for its shell tool running `command`, in the agent's own shape and names. */
export const testPayload = (agent: HostMode.Agent, command: string, projectDir: string): Record<string, unknown> => {
  const common = { session_id: "agent-hooks-doctor", transcript_path: join(projectDir, ".agent-hooks-doctor.jsonl"), cwd: projectDir }
  switch (agent.name) {
    case "claude":
      return {
        ...common,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "agent-hooks doctor test call" },
        tool_use_id: "toolu_agent_hooks_doctor"
      }
    case "codex":
      return {
        ...common,
        turn_id: "agent-hooks-doctor",
        hook_event_name: "PreToolUse",
        model: "agent-hooks-doctor",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: "call_agent_hooks_doctor"
      }
    case "gemini":
      return {
        ...common,
        hook_event_name: "BeforeTool",
        timestamp: new Date().toISOString(),
        tool_name: "run_shell_command",
        tool_input: { command, description: "agent-hooks doctor test call" }
      }
    case "qwen":
      return {
        ...common,
        hook_event_name: "PreToolUse",
        timestamp: new Date().toISOString(),
        permission_mode: "default",
        tool_name: "run_shell_command",
        tool_input: { command, is_background: false, description: "agent-hooks doctor test call" },
        tool_use_id: "toolu_agent_hooks_doctor",
        tool_call_id: "call_agent_hooks_doctor"
      }
    default:
      return notInstallable(agent)
  }
}

/** How the agent reads a hook's answer to a PreToolUse: `block`, `ask`, or `allow` (the call runs). */
export const verdict = (agent: HostMode.Agent, status: number | null, stdout: string, stderr: string): { readonly kind: "block" | "ask" | "allow"; readonly reason: string } => {
  // exit 2 blocks in every agent, but Codex and Qwen Code run the tool when stderr is empty
  if (status === 2 && stderr.trim() !== "") return { kind: "block", reason: stderr.trim() }
  if (status === 2 && agent.name === "claude") return { kind: "block", reason: "(no reason)" }
  if (status !== 0) return { kind: "allow", reason: `the hook failed with exit ${status ?? "(killed)"}: ${agent.displayName} then runs the tool. ${stderr.trim()}` }
  let json: Record<string, unknown> = {}
  try {
    json = stdout.trim() === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>)
  } catch {
    return { kind: "allow", reason: "the hook printed something that is not JSON" }
  }
  const specific = (json["hookSpecificOutput"] ?? {}) as Record<string, unknown>
  const decision = agent.name === "gemini" ? json["decision"] : specific["permissionDecision"]
  const reason = String((agent.name === "gemini" ? json["reason"] : specific["permissionDecisionReason"]) ?? "")
  if (decision === "deny" || decision === "block") return { kind: "block", reason }
  if (decision === "ask" && agent.canAsk) return { kind: "ask", reason }
  return { kind: "allow", reason: "the policy let the call through" }
}

const readJson = (file: string): unknown => {
  const text = readText(file)
  if (text === undefined) return undefined
  try {
    return toValue(parse(text))
  } catch {
    return undefined
  }
}

/** Switches in the agent's own config that turn every hook off, as `file: what` lines. */
const offSwitches = (agent: HostMode.Agent, projectDir: string): ReadonlyArray<string> => {
  const home = process.env["HOME"] ?? homedir()
  const found: Array<string> = []
  const check = (file: string, test: (value: Record<string, unknown>) => string | undefined) => {
    const value = readJson(file)
    if (typeof value === "object" && value !== null) {
      const what = test(value as Record<string, unknown>)
      if (what !== undefined) found.push(`${file}: ${what}`)
    }
  }
  const disableAll = (value: Record<string, unknown>) => (value["disableAllHooks"] === true ? "disableAllHooks is true" : undefined)
  switch (agent.name) {
    case "claude":
      for (const file of [configPath(agent, "user", projectDir, process.env), join(projectDir, ".claude", "settings.json"), join(projectDir, ".claude", "settings.local.json")]) check(file, disableAll)
      break
    case "qwen":
      for (const file of [configPath(agent, "user", projectDir, process.env), configPath(agent, "project", projectDir, process.env)]) check(file, disableAll)
      break
    case "gemini":
      for (const file of [join(home, ".gemini", "settings.json"), join(projectDir, ".gemini", "settings.json")]) {
        check(file, (value) => {
          const config = value["hooksConfig"] as Record<string, unknown> | undefined
          return config?.["enabled"] === false ? "hooksConfig.enabled is false" : undefined
        })
      }
      break
    case "codex": {
      const toml = readText(join(resolve(process.env["CODEX_HOME"] || join(home, ".codex")), "config.toml"))
      if (toml !== undefined) {
        let section = ""
        for (const raw of toml.split("\n")) {
          const line = raw.replace(/#.*$/, "").trim()
          const header = /^\[([^\]]+)\]$/.exec(line)
          if (header !== null) section = header[1]!.trim()
          else if (section === "features" && /^(?:hooks|codex_hooks)\s*=\s*false$/.test(line)) found.push(`config.toml: [features] ${line}`)
          else if (/^features\.(?:hooks|codex_hooks)\s*=\s*false$/.test(line) && section === "") found.push(`config.toml: ${line}`)
        }
      }
      break
    }
  }
  return found
}

/**
 * `agent-hooks doctor --host <agent>`.
 *
 * @internal
 */
export const doctor = (options: DoctorOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const agent = HostMode.byName(options.host)
    if (agent === undefined) return yield* Effect.fail(new Failed({ message: `unknown --host ${options.host}` }))
    if (options.user && options.project) return yield* Effect.fail(new Failed({ message: "give --user or --project, not both" }))
    const projectDir = resolve(Option.getOrElse(options.projectDir, () => process.cwd()))
    const scopes: ReadonlyArray<Scope> = options.user ? ["user"] : options.project ? ["project"] : ["project", "user"]
    const expected = eventsOf(agent)
    const problems: Array<string> = []
    let wired: { readonly file: string; readonly commands: Map<string, string> } | undefined
    for (const scope of scopes) {
      const file = configPath(agent, scope, projectDir, process.env)
      let text: string | undefined
      try {
        text = readText(target(file, scope === "project" ? projectDir : undefined))
      } catch (error) {
        problems.push((error as Error).message)
        continue
      }
      if (text === undefined) {
        yield* Console.log(`${scope}: ${file}: no such file`)
        continue
      }
      let entries
      try {
        entries = ownEntries(agent, text, file)
      } catch (error) {
        problems.push((error as Error).message)
        continue
      }
      const commands = new Map(entries.map((entry) => [entry.event, entry.commands[0]!]))
      // The agent kills a hook at its timeout and then runs the tool (Codex, Gemini CLI, Qwen Code):
      // the timeout in the config must stay above host mode's budget for the --timeout it was given
      for (const entry of entries) {
        const own = readOwnCommand(entry.commands[0]!)!
        const seconds = (entry.timeouts[0] ?? agent.hookTimeout * timeoutUnitMs(agent)) / timeoutUnitMs(agent)
        if (seconds * 1000 <= budgetMs(own.timeout)) {
          problems.push(
            `${file} "hooks"."${entry.event}": the hook timeout (${seconds} s) is not above host mode's budget for --timeout ${own.timeout} (${budgetMs(own.timeout) / 1000} s): ${agent.displayName} would kill host mode first and run the tool. Run agent-hooks install --host ${agent.name} again`
          )
        }
      }
      const missing = expected.filter((event) => !commands.has(event))
      if (commands.size === 0) yield* Console.log(`${scope}: ${file}: no agent-hooks entries`)
      else if (missing.length > 0) yield* Console.log(`${scope}: ${file}: agent-hooks on ${commands.size} of ${expected.length} events; missing: ${missing.join(", ")}`)
      else yield* Console.log(`${scope}: ${file}: agent-hooks on all ${expected.length} events`)
      if (wired === undefined && commands.has(hostEventFor(agent, "PreToolUse")!)) wired = { file, commands }
    }
    for (const off of offSwitches(agent, projectDir)) problems.push(`${agent.displayName}'s hooks are off: ${off}`)
    const preEvent = hostEventFor(agent, "PreToolUse")!
    if (wired === undefined) {
      for (const problem of problems) yield* Console.log(`problem: ${problem}`)
      return yield* Effect.fail(
        new Failed({ message: `${agent.displayName} is not wired to agent-hooks (no agent-hooks entry on ${preEvent}): run agent-hooks install --host ${agent.name}` })
      )
    }
    const command = wired.commands.get(preEvent)!
    const own = readOwnCommand(command)!
    for (const word of own.words) {
      if (word.startsWith("/") && !existsSync(word)) problems.push(`the hook command names ${word}, which does not exist: run agent-hooks install --host ${agent.name} again`)
    }
    // The test call, as the agent makes it
    const env: Record<string, string | undefined> = { ...process.env }
    delete env[HOST_MODE_ENV]
    for (const name of agent.projectDirEnv) env[name] = projectDir
    const call = (shellCommand: string) => {
      const result = spawnSync("/bin/sh", ["-c", command], {
        input: JSON.stringify(testPayload(agent, shellCommand, projectDir)),
        cwd: projectDir,
        env,
        encoding: "utf8",
        timeout: (own.timeout + 5) * 1000,
        killSignal: "SIGKILL"
      })
      return { status: result.status, ...verdict(agent, result.status, result.stdout ?? "", result.stderr ?? "") }
    }
    const payload = testPayload(agent, options.testCommand, projectDir)
    const seen = call(options.testCommand)
    const result = seen
    // A harmless call too: a policy that cannot load blocks everything, which is not a policy that works
    const harmless = call("ls")
    if (harmless.kind === "block") problems.push(`host mode blocks even \`ls\`, so ${agent.displayName} cannot work: ${harmless.reason}`)
    yield* Console.log(`test call: ${agent.displayName} ${preEvent} ${String(payload["tool_name"])} ${JSON.stringify(options.testCommand)} -> exit ${result.status ?? "(killed)"}`)
    for (const problem of problems) yield* Console.log(`problem: ${problem}`)
    if (seen.kind === "block") yield* Console.log(`blocked: ${seen.reason}`)
    else if (seen.kind === "ask") yield* Console.log(`asks the user: ${seen.reason}`)
    if (seen.kind === "allow") {
      return yield* Effect.fail(
        new Failed({ message: `${agent.displayName} would run ${JSON.stringify(options.testCommand)}: ${seen.reason.trim()}; the policy (agent-hooks list) needs a PreToolUse Bash hook that blocks it` })
      )
    }
    if (problems.length > 0) return yield* Effect.fail(new Failed({ message: `${problems.length} problem(s) above` }))
    yield* Console.log(`${agent.displayName}: wired (${wired.file}), and the test call is ${seen.kind === "block" ? "blocked" : "held for the user"}`)
  })
