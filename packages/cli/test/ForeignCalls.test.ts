/**
 * Another agent's call reaching host mode (`hook --foreign`): VS Code runs Claude Code's settings
 * files and Copilot CLI's hook folders, Copilot CLI runs VS Code's files there. The commands
 * `install` wrote, run as the agent runs them (`sh -c`, in the project), with the other agent's
 * payload; each answer read as THAT agent reads it (doctor's `verdict`, the documented answer
 * formats the core's host tests check). The BUILT CLI, in a fresh HOME and project.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { testPayload, verdict } from "../src/internal/doctor.ts"
import { foreignReader } from "../src/internal/foreignPayload.ts"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-foreign-")
type Box = ReturnType<typeof box>

const env = (b: Box, extra: Record<string, string> = {}) => cliEnv({ HOME: b.home, AGENT_HOOKS_DAEMON: "0", ...extra })
const cli = (b: Box, args: ReadonlyArray<string>) => runCli(args, { cwd: b.dir, env: env(b), timeout: 60_000 })

/** A policy in Claude Code's names: a PreToolUse Bash hook that blocks `rm -rf`. */
const policy = (b: Box) =>
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }] }
      ]
    }
  })

/** Where `install --host <host> --project` writes, and its PreToolUse command. */
const files = {
  claude: [".claude/settings.json", (config: any) => config.hooks.PreToolUse[0].hooks[0].command as string],
  copilot: [".github/hooks/agent-hooks-copilot.json", (config: any) => config.hooks.preToolUse[0].bash as string],
  vscode: [".github/hooks/agent-hooks-vscode.json", (config: any) => config.hooks.PreToolUse[0].command as string]
} as const

/** Installs host mode for `host` in the project and gives its PreToolUse command. */
const installed = (b: Box, host: keyof typeof files, ...flags: ReadonlyArray<string>): string => {
  const result = cli(b, ["install", "--host", host, "--project"])
  expect(result.status, result.stdout + result.stderr).toBe(0)
  const [file, command] = files[host]
  return `${command(JSON.parse(readFileSync(join(b.dir, file), "utf8")))}${flags.map((flag) => ` ${flag}`).join("")}`
}

/** A fresh HOME and project with the policy, and host mode installed there for `host`: its PreToolUse command. */
const wired = (host: keyof typeof files, ...flags: ReadonlyArray<string>) => {
  const b = box()
  policy(b)
  return { b, command: installed(b, host, ...flags) }
}

/** Runs a command as the agent runs it (`sh -c`, in the project) with `payload`. */
const runHook = (b: Box, command: string, payload: unknown, extra: Record<string, string> = {}) => {
  const result = spawnSync("/bin/sh", ["-c", command], {
    input: JSON.stringify(payload),
    cwd: b.dir,
    env: env(b, extra),
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** What `agent` does with the answer: doctor's reading of each agent's documented PreToolUse answer. */
const seenBy = (agent: HostMode.HostName, result: ReturnType<typeof runHook>) =>
  verdict(HostMode.byName(agent)!, result.status, result.stdout, result.stderr).kind

const call = (b: Box, agent: HostMode.HostName, command: string) => testPayload(HostMode.byName(agent)!, command, b.dir)

/** The host whose entry it is, and the agent that also runs that entry. */
const pairs = [
  { host: "claude", other: "vscode", name: "VS Code", hostName: "Claude Code" },
  { host: "copilot", other: "vscode", name: "VS Code", hostName: "Copilot CLI" },
  { host: "vscode", other: "copilot", name: "Copilot CLI", hostName: "VS Code" }
] as const

describe.each(pairs)("$name's call under --host $host", ({ host, other, name, hostName }) => {
  it("is judged as its own (default auto, no entry of its own): blocked in its form when the policy blocks, let through when it allows", () => {
    const { b, command } = wired(host)
    const blocked = runHook(b, command, call(b, other, "rm -rf /"))
    expect(seenBy(other, blocked), blocked.stdout + blocked.stderr).toBe("block")
    expect(blocked.stdout + blocked.stderr).toContain("no rm -rf here")
    expect(blocked.stderr).toContain(`judged as ${name}'s call under ${hostName}'s entry`)
    expect(blocked.stderr).toContain(`${name} has no agent-hooks entry of its own`)
    if (other === "vscode") {
      // VS Code: exit 2, and Claude Code's deny in hookSpecificOutput
      expect(blocked.status).toBe(2)
      expect(JSON.parse(blocked.stdout).hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "deny" })
    } else {
      // Copilot CLI: exit 0 and its flat deny
      expect(blocked.status).toBe(0)
      expect(JSON.parse(blocked.stdout)).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no rm -rf here" })
    }
    const allowed = runHook(b, command, call(b, other, "ls"))
    expect(allowed.status, allowed.stderr).toBe(0)
    expect(seenBy(other, allowed)).toBe("allow")
    expect(allowed.stderr).toContain(`judged as ${name}'s call`)
  })

  it("--foreign leave leaves it (exit 0, no answer, said on stderr); --foreign block blocks it in its form, saying what to do", () => {
    const { b, command } = wired(host)
    const left = runHook(b, `${command} --foreign leave`, call(b, other, "rm -rf /"))
    expect(left.status).toBe(0)
    expect(left.stdout).toBe("")
    expect(left.stderr).toContain(`this call comes from ${name}`)
    expect(left.stderr).toContain("not judged here (--foreign leave)")
    expect(seenBy(other, left)).toBe("allow")
    for (const shell of ["ls", "rm -rf /"]) {
      const blocked = runHook(b, `${command} --foreign block`, call(b, other, shell))
      expect(seenBy(other, blocked), blocked.stdout + blocked.stderr).toBe("block")
      expect(blocked.stdout + blocked.stderr).toContain(`blocks every ${name} call (--foreign block)`)
      expect(blocked.stdout + blocked.stderr).toContain(`agent-hooks install --host ${other}`)
    }
  })

  it("auto leaves it to its own entry in the user's config once that is installed, which judges it (once); the host's own calls are still judged", () => {
    const { b, command } = wired(host)
    expect(cli(b, ["install", "--host", other, "--user"]).status).toBe(0)
    const [, theirsOf] = files[other]
    const userFile = join(b.home, ".copilot", "hooks", `agent-hooks-${other}.json`)
    const theirs = theirsOf(JSON.parse(readFileSync(userFile, "utf8")))
    const left = runHook(b, command, call(b, other, "rm -rf /"))
    expect(left.status, left.stderr).toBe(0)
    expect(left.stdout).toBe("")
    expect(left.stderr).toContain(`--foreign auto: ${name}'s own agent-hooks entry in ${userFile} judges it`)
    const judged = runHook(b, theirs, call(b, other, "rm -rf /"))
    expect(seenBy(other, judged), judged.stdout + judged.stderr).toBe("block")
    expect(judged.stderr).not.toContain("judged as")
    const own = runHook(b, command, call(b, host, "rm -rf /"))
    expect(seenBy(host, own), own.stdout + own.stderr).toBe("block")
    expect(own.stderr).not.toContain("judged as")
    const doctor = cli(b, ["doctor", "--host", host])
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
    expect(doctor.stdout).toContain("each agent's calls are judged once")
  }, 180_000)

  it("attacker: a cloned project's own entry for it (install's exact command, its timeout 1 s) does not make auto step aside; doctor says it is judged here", () => {
    const { b, command } = wired(host)
    // the repository ships the file `install --host ${other} --project` writes, with a timeout the agent kills it at
    installed(b, other)
    const path = join(b.dir, files[other][0])
    const key = other === "copilot" ? "timeoutSec" : "timeout"
    const text = readFileSync(path, "utf8")
    for (const shipped of [text, text.replace(new RegExp(`"${key}": \\d+`, "g"), `"${key}": 1`)]) {
      writeFileSync(path, shipped)
      const result = runHook(b, command, call(b, other, "rm -rf /"))
      expect(seenBy(other, result), result.stdout + result.stderr).toBe("block")
      expect(result.stdout + result.stderr).toContain("no rm -rf here")
      expect(result.stderr).toContain(`judged as ${name}'s call under ${hostName}'s entry`)
      expect(result.stderr).toContain(`is the project's, which a cloned repository can write`)
      const doctor = cli(b, ["doctor", "--host", host])
      expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
      expect(doctor.stdout).not.toContain("judged once")
      expect(doctor.stdout).toContain(`host mode judges ${name}'s calls here as ${name}'s (the test call is blocked)`)
      expect(doctor.stdout).toContain("which a cloned repository can write")
    }
  }, 180_000)

  it("attacker: the user's entry that the agent kills before host mode answers (timeout 1 s), or that others may write, or that sits in the project (HOME set there), is no reason to step aside", () => {
    const { b, command } = wired(host)
    expect(cli(b, ["install", "--host", other, "--user"]).status).toBe(0)
    const userFile = join(b.home, ".copilot", "hooks", `agent-hooks-${other}.json`)
    const key = other === "copilot" ? "timeoutSec" : "timeout"
    const text = readFileSync(userFile, "utf8")
    writeFileSync(userFile, text.replace(new RegExp(`"${key}": \\d+`, "g"), `"${key}": 1`))
    const short = runHook(b, command, call(b, other, "rm -rf /"))
    expect(seenBy(other, short), short.stdout + short.stderr).toBe("block")
    expect(short.stderr).toContain("the hook timeout (1 s) is not above host mode's budget")
    const doctor = cli(b, ["doctor", "--host", host])
    expect(doctor.stdout).not.toContain("judged once")
    expect(doctor.stdout).toContain("the hook timeout (1 s) is not above host mode's budget")
    writeFileSync(userFile, text)
    chmodSync(userFile, 0o666)
    const loose = runHook(b, command, call(b, other, "rm -rf /"))
    expect(seenBy(other, loose), loose.stdout + loose.stderr).toBe("block")
    expect(loose.stderr).toContain("may be written by others")
    chmodSync(userFile, 0o644)
    // a HOME the project chose (an agent's project settings can set the hook's environment)
    const fake = join(b.dir, "fakehome")
    mkdirSync(join(fake, ".copilot", "hooks"), { recursive: true })
    writeFileSync(join(fake, ".copilot", "hooks", `agent-hooks-${other}.json`), text)
    const moved = runHook(b, command, call(b, other, "rm -rf /"), { HOME: fake })
    expect(seenBy(other, moved), moved.stdout + moved.stderr).toBe("block")
    expect(moved.stderr).toContain("inside the project")
  }, 180_000)
})

/** Whether the other agent's own reference says it reads the host's entry's timeout key. */
const readsTimeout = { claude: true, copilot: false, vscode: true } as const

describe.each(pairs)("$name's call under --host $host is answered within $name's own timeout for that entry", ({ host, other, name }) => {
  it("the entry's timeout when install wrote it and that agent reads it, even above that agent's default; else that default", () => {
    const b = box()
    policy(b)
    const result = cli(b, ["install", "--host", host, "--project", "--timeout", "90"])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    const [file, commandOf] = files[host]
    const path = join(b.dir, file)
    const command = commandOf(JSON.parse(readFileSync(path, "utf8")))
    expect(command).toContain("--timeout 90")
    const judged = runHook(b, command, call(b, other, "ls"))
    expect(seenBy(other, judged), judged.stderr).toBe("allow")
    expect(judged.stderr).toContain(`judged as ${name}'s call`)
    // the agent kills its hook at 90 s here: its 30 s default would block a policy that takes longer, needlessly.
    // VS Code's reference names no `timeoutSec` (Copilot CLI's key): its 30 s default is kept, never more
    const within = readsTimeout[host]
      ? "answered within 90 s (this entry's own timeout"
      : `answered within 30 s (${name}'s default hook timeout`
    expect(judged.stderr).toContain(within)
    const blocked = runHook(b, command, call(b, other, "rm -rf /"))
    expect(seenBy(other, blocked), blocked.stdout + blocked.stderr).toBe("block")
    expect(blocked.stderr).toContain(within)
    // an entry whose own timeout is not the command's (edited by hand): that agent kills at the entry's
    const key = host === "copilot" ? "timeoutSec" : "timeout"
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(`"${key}": 90`, `"${key}": 12`))
    const edited = runHook(b, command, call(b, other, "ls"))
    expect(seenBy(other, edited), edited.stderr).toBe("allow")
    expect(edited.stderr).toContain(readsTimeout[host] ? "answered within 12 s (this entry's own timeout" : within)
    // an entry without a timeout: that agent's default holds
    writeFileSync(
      path,
      JSON.stringify(JSON.parse(readFileSync(path, "utf8")), (name, value) => (name === key ? undefined : value), 2)
    )
    expect(readFileSync(path, "utf8")).not.toContain(`"${key}"`)
    const none = runHook(b, command, call(b, other, "ls"))
    expect(seenBy(other, none), none.stderr).toBe("allow")
    expect(none.stderr).toContain(`answered within 30 s (${name}'s default hook timeout`)
  })
})

describe("--foreign auto, where the other agent's entry cannot be trusted or read", () => {
  it("an entry in the user's own config counts; a project's entry that runs another program does not, and a file that cannot be read is no answer (judged)", () => {
    const { b, command } = wired("claude")
    const vscodeFile = join(b.dir, ".github", "hooks", "agent-hooks-vscode.json")
    // a cloned repository's look-alike entry, running its own program
    b.put(vscodeFile, {
      hooks: { PreToolUse: [{ type: "command", command: "'/bin/true' hook --host vscode --timeout 30", timeout: 30 }] }
    })
    const fake = runHook(b, command, call(b, "vscode", "rm -rf /"))
    expect(seenBy("vscode", fake), fake.stdout + fake.stderr).toBe("block")
    expect(fake.stderr).toContain("VS Code has no agent-hooks entry of its own on PreToolUse")
    // a file that cannot be read (here a folder where the file goes)
    rmSync(vscodeFile)
    mkdirSync(vscodeFile)
    const broken = runHook(b, command, call(b, "vscode", "rm -rf /"))
    expect(seenBy("vscode", broken), broken.stdout + broken.stderr).toBe("block")
    expect(broken.stderr).toContain("could not be told")
    rmSync(vscodeFile, { recursive: true })
    expect(cli(b, ["install", "--host", "vscode", "--user"]).status).toBe(0)
    const user = runHook(b, command, call(b, "vscode", "rm -rf /"))
    expect(user.status).toBe(0)
    expect(user.stderr).toContain(join(b.home, ".copilot", "hooks", "agent-hooks-vscode.json"))
  })

  it("AGENT_HOOKS_FOREIGN sets the stricter modes, never leave (a project can set it); the flag wins, and a value it does not know blocks, naming it", () => {
    const { b, command } = wired("claude")
    const payload = call(b, "vscode", "rm -rf /")
    const left = runHook(b, command, payload, { AGENT_HOOKS_FOREIGN: "leave" })
    expect(seenBy("vscode", left)).toBe("block")
    expect(left.stderr).toContain(`AGENT_HOOKS_FOREIGN="leave" in the hook's environment is ignored in host mode`)
    const blocked = runHook(b, command, call(b, "vscode", "ls"), { AGENT_HOOKS_FOREIGN: "block" })
    expect(seenBy("vscode", blocked)).toBe("block")
    const judged = runHook(b, `${command} --foreign judge`, payload, { AGENT_HOOKS_FOREIGN: "leave" })
    expect(seenBy("vscode", judged)).toBe("block")
    expect(judged.stderr).toContain("--foreign judge")
    const bad = runHook(b, command, payload, { AGENT_HOOKS_FOREIGN: "sometimes" })
    expect(seenBy("vscode", bad)).toBe("block")
    expect(bad.stdout + bad.stderr).toContain(`AGENT_HOOKS_FOREIGN is "sometimes": expected one of auto, judge, leave, block`)
    const flag = runHook(b, `${command} --foreign maybe`, payload)
    expect(flag.status).toBe(2)
    expect(flag.stderr).toContain("--foreign must be one of auto, judge, leave, block, got maybe")
  })
})

describe("Copilot CLI's call under VS Code's entry, whose event nothing tells", () => {
  it("an entry that does not name its event (written before install named it): a visible hook error naming what to do, never a silent pass; left once Copilot CLI's own entry is in the user's config", () => {
    const { b, command } = wired("vscode")
    const old = command.replace(" --event PreToolUse", "")
    const stop = { timestamp: Date.now(), cwd: b.dir, sessionId: "s" }
    const result = runHook(b, old, stop)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("neither the command nor the payload's keys tell its event")
    expect(result.stderr).toContain("agent-hooks install --host vscode again")
    expect(result.stderr).toContain("agent-hooks install --host copilot")
    // Copilot CLI's own entry in the user's config (a project's would not be trusted to judge)
    expect(cli(b, ["install", "--host", "copilot", "--user"]).status).toBe(0)
    const left = runHook(b, old, stop)
    expect(left.status).toBe(0)
    expect(left.stderr).toContain("Copilot CLI's own agent-hooks entry in")
  })
})

describe("every entry install wrote, called by the other agent that runs it", () => {
  /** A policy in Claude Code's names: each event logs its name; rm -rf is denied; Stop and SubagentStop block. */
  const everyEvent = (b: Box) => {
    const log = join(b.dir, "events.log")
    const logs = (event: string) => ({ type: "command", command: `cat >/dev/null; echo ${event} >> '${log}'` })
    const blockStop = { type: "command", command: `echo '{"decision":"block","reason":"finish the tests first"}'` }
    const hooks: Record<string, unknown> = Object.fromEntries(
      ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"].map(
        (event) => [event, [{ hooks: [logs(event), ...(event === "Stop" || event === "SubagentStop" ? [blockStop] : [])] }]]
      )
    )
    ;(hooks["PreToolUse"] as Array<unknown>).push({
      matcher: "Bash",
      hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }]
    })
    b.put(join(b.home, ".agent-hooks", "settings.json"), { hooks })
    return () => readFileSync(log, "utf8").trim().split("\n").at(-1) ?? ""
  }
  const lastLogged = (read: () => string) => {
    try {
      return read()
    } catch {
      return "(nothing logged)"
    }
  }

  it("install --host vscode names each entry's event; Copilot CLI's call of each event, its payload naming none, is answered as Copilot CLI reads it", () => {
    const b = box()
    const logged = everyEvent(b)
    expect(cli(b, ["install", "--host", "vscode", "--project"]).status).toBe(0)
    const config = JSON.parse(readFileSync(join(b.dir, files.vscode[0]), "utf8")).hooks as Record<string, Array<{ command: string }>>
    const bare = { timestamp: Date.now(), cwd: b.dir, sessionId: "s" }
    const bash = (command: string) => ({ ...bare, toolName: "bash", toolArgs: JSON.stringify({ command }) })
    // VS Code's event → Copilot CLI's payload for it (only tool and prompt calls have keys that tell), and its answer
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, (r: ReturnType<typeof runHook>) => void]> = [
      ["SessionStart", { ...bare, source: "new" }, "SessionStart", (r) => expect(r.stdout).toBe("")],
      ["UserPromptSubmit", { ...bare, prompt: "hello" }, "UserPromptSubmit", (r) => expect(r.stdout).toBe("")],
      [
        "PreToolUse",
        bash("rm -rf /"),
        "PreToolUse",
        (r) => expect(JSON.parse(r.stdout)).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no rm -rf here" })
      ],
      [
        "PostToolUse",
        { ...bash("ls"), toolResult: { resultType: "success", textResultForLlm: "" } },
        "PostToolUse",
        (r) => expect(r.stdout).toBe("")
      ],
      ["PreCompact", { ...bare, trigger: "auto" }, "PreCompact", (r) => expect(r.stdout).toBe("")],
      ["SubagentStart", bare, "SubagentStart", (r) => expect(r.stdout).toBe("")],
      [
        "SubagentStop",
        bare,
        "SubagentStop",
        (r) => expect(JSON.parse(r.stdout)).toEqual({ decision: "block", reason: "finish the tests first" })
      ],
      ["Stop", bare, "Stop", (r) => expect(JSON.parse(r.stdout)).toEqual({ decision: "block", reason: "finish the tests first" })]
    ]
    expect(Object.keys(config).sort()).toEqual(cases.map(([event]) => event).sort())
    for (const [event, payload, policyEvent, answer] of cases) {
      const command = config[event]![0]!.command
      expect(command).toContain(`--event ${event} `)
      const result = runHook(b, command, payload)
      expect(result.status, `${event}: ${result.stderr}`).toBe(0)
      answer(result)
      expect(result.stderr, event).toContain("judged as Copilot CLI's call under VS Code's entry")
      expect(lastLogged(logged), `${event}: the policy's hooks of the event`).toBe(policyEvent)
    }
    // a call with no key that tells either agent: answered as the entry's event, in VS Code's form
    const unknown = runHook(b, config["Stop"]![0]!.command, { cwd: b.dir, sessionId: "s" })
    expect(unknown.status, unknown.stderr).toBe(2)
    expect(JSON.parse(unknown.stdout).hookSpecificOutput).toMatchObject({
      hookEventName: "Stop",
      decision: "block",
      reason: "finish the tests first"
    })
    expect(lastLogged(logged)).toBe("Stop")
    // and uninstall gives the folder back as it was
    expect(cli(b, ["uninstall", "--host", "vscode", "--project"]).status).toBe(0)
    expect(() => readFileSync(join(b.dir, files.vscode[0]), "utf8")).toThrow()
  })

  it("install --host copilot: VS Code's call of each event through Copilot CLI's entry is answered as VS Code reads it", () => {
    const b = box()
    const logged = everyEvent(b)
    expect(cli(b, ["install", "--host", "copilot", "--project"]).status).toBe(0)
    const config = JSON.parse(readFileSync(join(b.dir, files.copilot[0]), "utf8")).hooks as Record<string, Array<{ bash: string }>>
    const vscode = (hookEventName: string, extra: Record<string, unknown> = {}) => ({
      timestamp: new Date().toISOString(),
      cwd: b.dir,
      sessionId: "s",
      hookEventName,
      ...extra
    })
    // VS Code's Stop and SubagentStop block: exit 2, the block inside hookSpecificOutput
    const stopBlocked = (r: ReturnType<typeof runHook>) => {
      expect(r.status).toBe(2)
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ decision: "block", reason: "finish the tests first" })
    }
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, (r: ReturnType<typeof runHook>) => void]> = [
      ["sessionStart", vscode("SessionStart", { source: "new" }), "SessionStart", (r) => expect(r.status).toBe(0)],
      ["userPromptSubmitted", vscode("UserPromptSubmit", { prompt: "hello" }), "UserPromptSubmit", (r) => expect(r.status).toBe(0)],
      [
        "preToolUse",
        vscode("PreToolUse", { tool_name: "runTerminalCommand", tool_input: { command: "rm -rf /" } }),
        "PreToolUse",
        (r) => {
          expect(r.status).toBe(2)
          expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" })
        }
      ],
      [
        "postToolUse",
        vscode("PostToolUse", { tool_name: "runTerminalCommand", tool_input: { command: "ls" }, tool_response: "" }),
        "PostToolUse",
        (r) => expect(r.status).toBe(0)
      ],
      ["preCompact", vscode("PreCompact", { trigger: "auto" }), "PreCompact", (r) => expect(r.status).toBe(0)],
      ["subagentStart", vscode("SubagentStart"), "SubagentStart", (r) => expect(r.status).toBe(0)],
      ["subagentStop", vscode("SubagentStop"), "SubagentStop", stopBlocked],
      ["agentStop", vscode("Stop"), "Stop", stopBlocked]
    ]
    for (const [event, payload, policyEvent, answer] of cases) {
      const command = config[event]![0]!.bash
      expect(command).toContain(`--event ${event} `)
      const result = runHook(b, command, payload)
      answer(result)
      expect(result.stderr, event).toContain("judged as VS Code's call under Copilot CLI's entry")
      expect(lastLogged(logged), `${event}: the policy's hooks of the event`).toBe(policyEvent)
    }
  })
})

describe("doctor, per host that reads another's files", () => {
  it("says whether the other agent's calls are judged here, left (and whether its entry is there), or blocked", () => {
    const b = box()
    policy(b)
    installed(b, "claude")
    const judged = cli(b, ["doctor", "--host", "claude"])
    expect(judged.status, judged.stdout + judged.stderr).toBe(0)
    expect(judged.stdout).toContain("host mode judges VS Code's calls here as VS Code's (the test call is blocked)")
    expect(judged.stdout).toContain("VS Code's own agent-hooks entry: VS Code has no agent-hooks entry of its own on PreToolUse")
    // host mode does not take leave from the environment (a project can set it): doctor says what it does
    const leave = runCli(["doctor", "--host", "claude"], { cwd: b.dir, env: env(b, { AGENT_HOOKS_FOREIGN: "leave" }), timeout: 60_000 })
    expect(leave.stdout).toContain("host mode judges VS Code's calls here as VS Code's (the test call is blocked)")
    const block = runCli(["doctor", "--host", "claude"], { cwd: b.dir, env: env(b, { AGENT_HOOKS_FOREIGN: "block" }), timeout: 60_000 })
    expect(block.stdout).toContain("host mode blocks every VS Code call (--foreign block)")
  })
})

/** A JSON value a model could write, with the keys that tell another agent's payload among its own. */
const hostile = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.constantFrom("PreToolUse", "preToolUse", "bash", "runTerminalCommand", "", "rm -rf /"),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(
        fc.constantFrom("hookEventName", "hook_event_name", "toolName", "toolArgs", "timestamp", "toolResult", "prompt"),
        fc.string()
      ),
      tie("value"),
      { maxKeys: 4 }
    )
  )
})).value

/** Each host's own payload: the keys its agent sets, every value model-steered. */
const ownPayloads = {
  claude: fc.record({
    session_id: fc.string(),
    transcript_path: fc.string(),
    cwd: fc.string(),
    permission_mode: fc.string(),
    hook_event_name: fc.constantFrom("PreToolUse", "UserPromptSubmit", "PostToolUse"),
    tool_name: fc.string(),
    tool_input: fc.dictionary(fc.string(), hostile),
    prompt: hostile
  }),
  vscode: fc.record({
    timestamp: fc.string(),
    cwd: fc.string(),
    sessionId: fc.string(),
    hookEventName: fc.constantFrom("PreToolUse", "Stop"),
    tool_name: fc.string(),
    tool_input: hostile,
    tool_use_id: fc.string()
  }),
  copilot: fc.record({ timestamp: fc.integer(), cwd: fc.string(), toolName: fc.string(), toolArgs: fc.string(), prompt: hostile })
}

describe("a call of the host's own agent cannot be made to look like another agent's", () => {
  it("property: whatever values a model steers into the agent's own keys, the payload is the agent's own", () => {
    for (const host of ["claude", "vscode", "copilot"] as const) {
      fc.assert(
        fc.property(ownPayloads[host], (payload) => foreignReader(host, payload as Record<string, unknown>) === undefined),
        { numRuns: PropertyRuns.forLane(300) }
      )
    }
  })

  it("property, real processes: a Claude Code call with hostile values is judged as Claude Code's even under --foreign leave", () => {
    const { b, command } = wired("claude", "--foreign", "leave")
    fc.assert(
      fc.property(fc.dictionary(fc.string(), hostile, { maxKeys: 4 }), hostile, (extra, cwd) => {
        const payload = { ...call(b, "claude", "rm -rf /"), cwd, tool_input: { ...extra, command: "rm -rf /" } }
        const result = runHook(b, command, payload)
        expect(seenBy("claude", result), result.stdout + result.stderr).toBe("block")
        expect(result.status).toBe(2)
        expect(result.stderr).toContain("no rm -rf here")
        expect(result.stderr).not.toContain("this call comes from")
        expect(result.stderr).not.toContain("judged as")
      }),
      { numRuns: PropertyRuns.forLane(6, 2), seed: 7 }
    )
    // and the keys themselves, as values
    const steered = runHook(b, command, {
      ...call(b, "claude", "rm -rf /"),
      tool_input: { command: "rm -rf /", hookEventName: "PreToolUse", toolName: "bash", toolArgs: "{}" }
    })
    expect(seenBy("claude", steered)).toBe("block")
    expect(steered.stderr).not.toContain("this call comes from")
  })
})
