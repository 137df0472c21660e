/**
 * The per-user daemon of `agent-hooks hook` itself (internal/hookDaemon.ts), run as an agent runs it:
 * the BUILT CLI, real processes, a real daemon under a HOME of this file's own, its protocol spoken
 * on its socket. What its clients do with it (Node's and the native one: every answer byte for byte
 * the in-process one, every daemon that cannot answer never used) is HookClients.test.ts, one
 * scenario for both; here what the daemon does: it refuses a loosened socket, runs no call a client
 * gave up, exits when idle, keeps compiled settings but never a stale policy, runs calls at once each
 * in its own environment, and says when a call's hooks started.
 *
 * Which process answered is seen from the policy itself: a probe hook on PreToolUse writes its
 * parent's pid (the process that spawned it: the daemon, or the CLI process in-process).
 */
import { spawn, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as HostMode from "@agent-hooks/core/HostMode"
import { afterAll, describe, expect, it } from "vitest"
import { testPayload } from "../src/internal/doctor.ts"
import { bin, node, scratchFolder } from "./cliHarness.ts"
import { daemonHarness, nodeClient, preToolUse, shell, until } from "./daemonHarness.ts"
import type { Result } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-daemon-")
const linux = process.platform === "linux"

const {
  probe,
  env,
  home,
  daemons,
  socketFile,
  killDaemons,
  policyFiles: withProbe,
  call: callVia,
  lastSpawner,
  answeringDaemon: answering
} = daemonHarness(scratch, join(fixtures, "hooks"))

/** The call through Node's client (`daemon`), or in-process with no daemon. */
const call = (args: ReadonlyArray<string>, stdin: string, daemon: boolean, extra: Record<string, string> = {}): Result =>
  callVia(daemon ? nodeClient : "in-process", args, stdin, extra)

type Payload = Record<string, unknown>
const policyFiles = () => withProbe(join(fixtures, "policy.json"))

/** The running daemon (started when there is none), once it answers a call (its probe hook's spawner is the daemon). */
const answeringDaemon = (): Promise<number> => answering(nodeClient, policyFiles())

afterAll(async () => {
  if (linux) await killDaemons()
})

/** A request line as the client sends it for `agent-hooks hook --host claude` with this file's policy, and `stdin`. */
const claudeRequest = (stdin: Buffer) => ({
  v: 1,
  argv: ["hook", "--host", "claude", ...policyFiles()],
  env: env(true),
  cwd: scratch(),
  umask: 0o022,
  stdinIsTerminal: false,
  stdinLength: stdin.length
})

describe.runIf(linux)("the daemon's socket and its protocol", () => {
  it("a daemon whose socket is no longer 0600 refuses every connection and exits", async () => {
    const pid = await answeringDaemon()
    chmodSync(socketFile()!, 0o666)
    const replies = await new Promise<string>((resolve) => {
      const connection = createConnection(socketFile()!)
      let text = ""
      connection.setEncoding("utf8")
      connection.on("data", (chunk: string) => (text += chunk))
      connection.on("error", () => {})
      connection.on("close", () => resolve(text))
      const stdin = Buffer.from(shell("codex", "ls"))
      connection.write(
        `${JSON.stringify({ v: 1, argv: ["hook", "--host", "codex"], env: env(true), cwd: scratch(), umask: 0o022, stdinIsTerminal: false, stdinLength: stdin.length })}\n`
      )
      connection.write(stdin)
    })
    expect(replies).toBe("")
    await until("the daemon gone", () => !daemons().includes(pid))
  }, 60_000)

  it("a client that gives up before it says go: the daemon does not run the call (the client runs it in-process)", async () => {
    const pid = await answeringDaemon()
    rmSync(probe(), { force: true })
    const stdin = Buffer.from(shell("claude", "ls"))
    const request = claudeRequest(stdin)
    const replies = await new Promise<string>((resolve) => {
      const connection = createConnection(socketFile()!)
      let text = ""
      connection.setEncoding("utf8")
      connection.on("data", (chunk: string) => {
        text += chunk
        // accepted: this client says nothing for a while (as a client that gave up), then goes
        if (text.includes("\n")) setTimeout(() => connection.destroy(), 1500)
      })
      connection.on("close", () => resolve(text))
      connection.write(`${JSON.stringify(request)}\n`)
      connection.write(stdin)
    })
    expect(
      replies
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).t)
    ).toStrictEqual(["accepted"])
    expect(existsSync(probe())).toBe(false)
    // and it is free for the next call
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true)
    expect(lastSpawner()).toBe(pid)
  }, 60_000)

  it("an idle daemon exits and removes its socket", async () => {
    await killDaemons()
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true, { AGENT_HOOKS_DAEMON_IDLE: "1" })
    await until("a daemon", () => daemons().length > 0)
    await until("the idle daemon gone", () => daemons().length === 0 && socketFile() === undefined)
  }, 60_000)

  it("the daemon says started before the first hook, only to a client that asks (a client that does not is answered as before)", async () => {
    const pid = await answeringDaemon()
    const stdin = Buffer.from(shell("claude", "ls"))
    const ask = (started: boolean | undefined) =>
      new Promise<Array<string>>((resolve) => {
        const connection = createConnection(socketFile()!)
        let text = ""
        connection.setEncoding("utf8")
        connection.on("data", (chunk: string) => {
          text += chunk
          if (text.split("\n").length === 2) connection.write("go\n")
        })
        connection.on("close", () =>
          resolve(
            text
              .trim()
              .split("\n")
              .map((line) => JSON.parse(line).t)
          )
        )
        const request = { ...claudeRequest(stdin), ...(started === undefined ? {} : { started }) }
        connection.write(`${JSON.stringify(request)}\n`)
        connection.write(stdin)
      })
    expect(await ask(true)).toStrictEqual(["accepted", "started", "done"])
    // the daemon's own process, or one of its helpers
    expect([lastSpawner(), parentOf(lastSpawner()!)]).toContain(pid)
    expect(await ask(undefined)).toStrictEqual(["accepted", "done"])
    expect(await ask(false)).toStrictEqual(["accepted", "done"])
  }, 60_000)
})

describe.runIf(linux)("the daemon keeps compiled settings between calls, never a stale policy", () => {
  const project = () => join(scratch(), "project")
  // the user's own settings: ~/.agent-hooks/settings.json (this file's env sets HOME)
  const userFile = () => join(home(), ".agent-hooks", "settings.json")
  const projectFile = () => join(project(), ".agent-hooks", "settings.json")
  // the settings are found as the agent's own: the user's and the project's files, no --settings
  const args = ["--host", "claude"]
  /** An empty project folder (its settings folder made) and the user's settings folder. */
  const freshProject = () => {
    rmSync(project(), { recursive: true, force: true })
    mkdirSync(join(project(), ".agent-hooks"), { recursive: true })
    mkdirSync(join(home(), ".agent-hooks"), { recursive: true })
  }
  const both = (command: string) => {
    const extra = { CLAUDE_PROJECT_DIR: project() }
    const inProcess = call(args, shell("claude", command), false, extra)
    const daemon = call(args, shell("claude", command), true, extra)
    expect(daemon).toStrictEqual(inProcess)
    return daemon
  }

  it("a settings file created, rewritten in the same second to the same size, or deleted is seen by the very next call", async () => {
    const pid = await answeringDaemon()
    freshProject()
    // the user's policy allows; the daemon compiles it and keeps it, "no project settings" with it
    writeFileSync(userFile(), preToolUse(`echo "$PPID" >> "$PROBE"; exit 0`))
    expect(both("ls").status).toBe(0)
    expect(both("ls").status).toBe(0)
    expect(lastSpawner()).toBe(pid)
    // from the attacker's side: a project file added after that takes effect at once
    writeFileSync(projectFile(), preToolUse(`echo "$PPID" >> "$PROBE"; echo project-blocks >&2; exit 2`))
    const blocked = both("ls")
    expect(blocked.status).toBe(2)
    expect(blocked.stderr).toContain("project-blocks")
    expect(lastSpawner()).toBe(pid)
    // deleted: the user's policy alone again
    rmSync(projectFile())
    expect(both("ls").status).toBe(0)
    expect(lastSpawner()).toBe(pid)
    // the user's policy tightened in place: same inode, same size, within the same second (the bytes differ)
    const allow = `echo "$PPID" >> "$PROBE"; exit 0`
    const deny = `echo "$PPID" >> "$PROBE"; exit 2`
    expect(deny.length).toBe(allow.length)
    for (let round = 0; round < 3; round++) {
      writeFileSync(userFile(), preToolUse(allow))
      expect(call(args, shell("claude", "ls"), true, { CLAUDE_PROJECT_DIR: project() }).status).toBe(0)
      writeFileSync(userFile(), preToolUse(deny))
      expect(call(args, shell("claude", "ls"), true, { CLAUDE_PROJECT_DIR: project() }).status).toBe(2)
      expect(lastSpawner()).toBe(pid)
    }
    // a file that no longer decodes: the same answer as in-process (blocked, naming the file)
    writeFileSync(userFile(), "{ not json")
    const broken = both("ls")
    expect(broken.status).toBe(2)
    expect(broken.stderr).toContain(userFile())
  }, 120_000)

  it("a guard that did not judge blocks through the daemon as in-process: a cedar hook given a lone surrogate, a command that never ran", async () => {
    const pid = await answeringDaemon()
    freshProject()
    writeFileSync(
      join(home(), ".agent-hooks", "no-rm.cedar"),
      `@id("no-rm-rf") @reason("rm -rf is not allowed") forbid (principal, action, resource) when { context.tool_input.command like "*rm -rf*" };\npermit (principal, action, resource);\n`
    )
    writeFileSync(
      userFile(),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: `echo "$PPID" >> "$PROBE"; exit 0` }] },
            { hooks: [{ type: "cedar", policies: "no-rm.cedar" }] }
          ]
        }
      })
    )
    // JSON.stringify writes the lone surrogate as its escape, as an attacker's payload does
    const surrogate = both("rm -rf / #\ud800")
    expect(surrogate.status, surrogate.stderr).toBe(2)
    expect(surrogate.stderr).toContain("rm -rf is not allowed")
    expect([lastSpawner(), parentOf(lastSpawner()!)]).toContain(pid)
    expect(both("ls").status).toBe(0)
    // a guard whose command is not there (exit 127): blocked, saying so
    writeFileSync(projectFile(), preToolUse("/nonexistent/agent-hooks-guard"))
    const missing = both("ls")
    expect(missing.status, missing.stderr).toBe(2)
    expect(missing.stderr).toContain("its command was not found (exit 127)")
  }, 120_000)

  it("a project settings file that is a FIFO: the answer in-process gives, and the daemon keeps answering after many such calls", async () => {
    const pid = await answeringDaemon()
    freshProject()
    writeFileSync(userFile(), preToolUse(`echo "$PPID" >> "$PROBE"; exit 0`))
    // a read of it would wait for a writer that never comes: it is refused as what it is, at once
    expect(spawnSync("mkfifo", [projectFile()]).status).toBe(0)
    const fifo = ["--host", "claude", "--timeout", "3"]
    const extra = { CLAUDE_PROJECT_DIR: project() }
    // in-process: blocked, naming the FIFO, and the process ends (NonRegularFiles.test.ts)
    const inProcess = spawnSync(node, [bin, "hook", ...fifo], {
      input: shell("claude", "ls"),
      cwd: scratch(),
      env: env(false, extra),
      encoding: "utf8",
      timeout: 10_000
    })
    expect(inProcess.status).toBe(2)
    expect(inProcess.stdout).toContain("a FIFO (named pipe), not a regular file")
    // more calls than the process has I/O threads (4): none may hold one for good
    for (let i = 0; i < 5; i++) {
      const daemon = call(fifo, shell("claude", "ls"), true, extra)
      expect(daemon.status).toBe(2)
      expect(daemon.stdout).toBe(inProcess.stdout)
    }
    rmSync(projectFile())
    expect(both("ls").status).toBe(0)
    expect(lastSpawner()).toBe(pid)
  }, 120_000)

  it("a project's AGENT_HOOKS_HOME or AGENT_HOOKS_MANAGED_DIR does not choose the policy through the daemon either", async () => {
    await answeringDaemon()
    freshProject()
    writeFileSync(userFile(), preToolUse(`echo "blocked by the user's policy" >&2; exit 2`))
    // what a cloned repository ships, and names in its env key / .env (relative: resolved in the hook's folder)
    const fake = join(scratch(), ".fake")
    mkdirSync(fake, { recursive: true })
    writeFileSync(join(fake, "settings.json"), JSON.stringify({ hooks: {} }))
    writeFileSync(join(fake, "managed-settings.json"), JSON.stringify({ allowManagedHooksOnly: true }))
    const variables: ReadonlyArray<Record<string, string>> = [
      { AGENT_HOOKS_HOME: ".fake" },
      { AGENT_HOOKS_HOME: fake },
      { AGENT_HOOKS_MANAGED_DIR: ".fake" }
    ]
    for (const variable of variables) {
      const extra = { CLAUDE_PROJECT_DIR: project(), ...variable }
      const daemon = call(args, shell("claude", "rm -rf /x"), true, extra)
      expect(daemon.status, daemon.stderr).toBe(2)
      expect(daemon.stderr).toContain("blocked by the user's policy")
      expect(daemon.stderr).toContain("is ignored in host mode")
      expect(daemon).toStrictEqual(call(args, shell("claude", "rm -rf /x"), false, extra))
    }
    rmSync(fake, { recursive: true })
  }, 60_000)

  it("the environment decides the plan too: a variable the settings read changes the answer on the next call", async () => {
    await answeringDaemon()
    freshProject()
    // a hook that fails (exit 1): a non-blocking error, unless AGENT_HOOKS_FAIL_CLOSED makes every failure a block
    writeFileSync(userFile(), preToolUse(`echo "$PPID" >> "$PROBE"; exit 1`))
    const extra = { CLAUDE_PROJECT_DIR: project() }
    const open = call(args, shell("claude", "ls"), true, extra)
    const closed = call(args, shell("claude", "ls"), true, { ...extra, AGENT_HOOKS_FAIL_CLOSED: "1" })
    expect(open).toStrictEqual(call(args, shell("claude", "ls"), false, extra))
    expect(closed).toStrictEqual(call(args, shell("claude", "ls"), false, { ...extra, AGENT_HOOKS_FAIL_CLOSED: "1" }))
    expect(open.status).not.toBe(closed.status)
  }, 60_000)
})

/** The process that spawned each probe line's hook: the daemon itself, one of its helpers, or else a client in-process. */
const parentOf = (pid: number): number | undefined => {
  try {
    return Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1])
  } catch {
    return undefined
  }
}

describe.runIf(linux)("calls at once: each its own environment, folder and settings", () => {
  it("five calls at the same time with different folders, variables and policies each get their own answer; the daemon runs at most 4", async () => {
    const pid = await answeringDaemon()
    const runOne = (i: number) => {
      const folder = join(scratch(), `concurrent-${i}`)
      mkdirSync(folder, { recursive: true })
      const file = join(folder, "policy.json")
      const code = i % 2 === 0 ? 2 : 0
      writeFileSync(file, preToolUse(`echo "$PPID" >> "$PROBE"; sleep 2; echo "call-$MY_VAR in $(pwd) policy-${i}" >&2; exit ${code}`))
      return new Promise<Result & { readonly i: number; readonly folder: string }>((resolve) => {
        const child = spawn(node, [bin, "hook", "--host", "claude", "--settings", file], {
          cwd: folder,
          env: env(true, { MY_VAR: `v${i}` })
        })
        let stdout = ""
        let stderr = ""
        child.stdout.on("data", (d) => (stdout += d))
        child.stderr.on("data", (d) => (stderr += d))
        child.on("close", (status) => resolve({ status, stdout, stderr, i, folder }))
        child.stdin.end(shell("claude", "ls"))
      })
    }
    // the first time the daemon starts its helpers (a call that cannot wait for one runs in-process); then they are warm
    for (const round of [0, 1]) {
      rmSync(probe(), { force: true })
      const results = await Promise.all([0, 1, 2, 3, 4].map(runOne))
      for (const result of results) {
        expect(result.status, `call ${result.i}: ${result.stderr}`).toBe(result.i % 2 === 0 ? 2 : 0)
        if (result.status === 2) expect(result.stderr).toContain(`call-v${result.i} in ${result.folder} policy-${result.i}`)
        for (const other of results.filter((one) => one.i !== result.i)) expect(result.stderr).not.toContain(`call-v${other.i} `)
      }
      const spawners = readFileSync(probe(), "utf8").trim().split("\n").map(Number)
      expect(spawners).toHaveLength(5)
      const byDaemon = spawners.filter((spawner) => spawner === pid || parentOf(spawner) === pid)
      expect(byDaemon.length).toBeLessThanOrEqual(4)
      if (round === 1) expect(byDaemon.length).toBeGreaterThanOrEqual(2)
    }
  }, 120_000)
})

describe.runIf(linux)("a payload of many megabytes", () => {
  it("a payload of many megabytes is answered by the daemon (not in-process after the accept window), as in-process", async () => {
    const pid = await answeringDaemon()
    const base = JSON.parse(shell("claude", "echo JSONDENY")) as Payload
    const payloads = {
      // one long string: its chunks are joined once, not at every chunk
      "a 14 MB string": { ...base, tool_input: { command: "echo JSONDENY", description: "x".repeat(14 * 1024 * 1024) } },
      // small values by the hundred thousand: only the payload's top level is read before the call is accepted
      "a million small values": {
        ...base,
        tool_input: {
          command: "echo JSONDENY",
          description: "x".repeat(12 * 1024 * 1024),
          lines: Array.from({ length: 1_000_000 }, () => 0)
        }
      }
    }
    for (const [what, payload] of Object.entries(payloads)) {
      const stdin = JSON.stringify(payload)
      const args = ["--host", "claude", ...policyFiles()]
      const inProcess = call(args, stdin, false)
      expect(inProcess.stdout, what).toContain("denied by JSON")
      const started = Date.now()
      const viaDaemon = call(args, stdin, true)
      expect(viaDaemon, what).toStrictEqual(inProcess)
      expect(lastSpawner(), `${what}: the daemon ran the call's hooks`).toBe(pid)
      expect(Date.now() - started, what).toBeLessThan(20_000)
    }
  }, 120_000)
})

describe.runIf(linux)("another agent's call: the daemon's last resort is in that agent's time for the entry", () => {
  it("VS Code's call under Claude Code's entry of 90 s (which VS Code reads) gets 90 s's budget; the entry's own once edited, VS Code's default once it has none", async () => {
    await answeringDaemon()
    const project = join(scratch(), "foreign-project")
    mkdirSync(project, { recursive: true })
    const install = spawnSync(node, [bin, "install", "--host", "claude", "--project", "--timeout", "90"], {
      cwd: project,
      env: env(false),
      encoding: "utf8"
    })
    expect(install.status, install.stdout + install.stderr).toBe(0)
    const stdin = Buffer.from(JSON.stringify(testPayload(HostMode.byName("vscode")!, "ls", project)))
    /** The `accepted` line's last resort: when the client writes it, and its exit status. */
    const guard = () =>
      new Promise<{ readonly ms: number; readonly exitCode: number }>((resolve, reject) => {
        const connection = createConnection(socketFile()!)
        let text = ""
        connection.setEncoding("utf8")
        connection.on("error", reject)
        connection.on("data", (chunk: string) => {
          text += chunk
          if (!text.includes("\n")) return
          connection.destroy()
          resolve(JSON.parse(text.slice(0, text.indexOf("\n"))).guard)
        })
        const request = { ...claudeRequest(stdin), argv: ["hook", "--host", "claude", "--timeout", "90", ...policyFiles()], cwd: project }
        connection.write(`${JSON.stringify(request)}\n`)
        connection.write(stdin)
      })
    // host mode's budget for 90 s (85 s) and the last resort's 1.5 s after it
    expect((await guard()).ms).toBe(86_500)
    const settings = join(project, ".claude", "settings.json")
    writeFileSync(settings, readFileSync(settings, "utf8").replace('"timeout": 90', '"timeout": 45'))
    // the entry's 45 s, which VS Code reads: 40.5 s and 1.5 s
    expect((await guard()).ms).toBe(42_000)
    writeFileSync(
      settings,
      JSON.stringify(JSON.parse(readFileSync(settings, "utf8")), (name, value) => (name === "timeout" ? undefined : value))
    )
    expect(readFileSync(settings, "utf8")).not.toContain('"timeout"')
    // no timeout in the entry: VS Code's default, 30 s (27 s and 1.5 s)
    expect((await guard()).ms).toBe(28_500)
  }, 60_000)
})
