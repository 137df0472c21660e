/**
 * The per-user daemon of `agent-hooks hook` (internal/hookClient.ts, internal/hookDaemon.ts), run
 * as an agent runs it: the BUILT CLI, real processes, the agents' recorded payloads, a real daemon
 * under a HOME of this file's own. Every call it answers must be byte for byte the in-process answer
 * (`AGENT_HOOKS_DAEMON=0`); a daemon that is dead, stale, busy, or not the user's own is never used
 * for the answer and never changes it.
 *
 * Which process answered is seen from the policy itself: a probe hook on PreToolUse writes its
 * parent's pid (the process that spawned it: the daemon, or the CLI process in-process).
 */
import { spawn, spawnSync } from "node:child_process"
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as HostMode from "@agent-hooks/core/HostMode"
import { afterAll, describe, expect, it } from "vitest"
import { testPayload } from "../src/internal/doctor.ts"
import { bin, node, scratchFolder } from "./cliHarness.ts"
import { daemonHarness, running, sleep, until } from "./daemonHarness.ts"
import type { Result } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const hostFixtures = realpathSync(fileURLToPath(new URL("../../core/test/fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-daemon-")
const linux = process.platform === "linux"

const {
  home,
  folder,
  probe,
  env,
  daemons,
  socketFile,
  killDaemons,
  policyFiles: withProbe
} = daemonHarness(scratch, join(fixtures, "hooks"))

const call = (args: ReadonlyArray<string>, stdin: string, daemon: boolean, extra: Record<string, string> = {}): Result => {
  const result = spawnSync(node, [bin, "hook", ...args], {
    input: stdin,
    cwd: scratch(),
    env: env(daemon, extra),
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The pid the probe hook saw as its parent on the last call (the process that spawned it). */
const lastSpawner = (): number => Number(readFileSync(probe(), "utf8").trim().split("\n").at(-1))

/** A running daemon, started by a first call (which itself runs in-process). */
const startDaemon = async (settings: ReadonlyArray<string>): Promise<number> => {
  call(["--host", "claude", ...settings], shell("claude", "ls"), true)
  await until("the daemon's socket", () => socketFile() !== undefined && daemons().length > 0)
  return daemons()[0]!
}

/** The running daemon (started when there is none), once it answers a call (its probe hook's spawner is the daemon). */
const answeringDaemon = async (): Promise<number> => {
  const pid = daemons()[0] ?? (await startDaemon(policyFiles()))
  await until("the daemon answering", () => {
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true)
    return lastSpawner() === pid
  })
  return pid
}

afterAll(async () => {
  if (linux) await killDaemons()
})

type Payload = Record<string, unknown>
const recorded = (host: string): ReadonlyArray<Payload> =>
  [`${host}.json`, `${host}.shapes.json`].flatMap((file) => JSON.parse(readFileSync(join(hostFixtures, file), "utf8")))
const hosts = ["claude", "codex", "gemini", "qwen"] as const
type Host = (typeof hosts)[number]
const shell = (host: Host, command: string): string => {
  const event = host === "gemini" ? "BeforeTool" : "PreToolUse"
  const tool = host === "gemini" || host === "qwen" ? "run_shell_command" : "Bash"
  const base = recorded(host).find((p) => p["hook_event_name"] === event && p["tool_name"] === tool)!
  return JSON.stringify({ ...base, cwd: "/work/p", tool_input: { command, description: "x" } })
}

const policyFiles = () => withProbe(join(fixtures, "policy.json"))

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

describe.runIf(linux)("the daemon answers as the call in-process does", () => {
  it.each(hosts)(
    "%s: every recorded payload, the policy's answers, hostile input",
    async (host) => {
      const settings = policyFiles()
      const pid = daemons()[0] ?? (await startDaemon(settings))
      const inputs = [
        ...recorded(host).map((payload) => JSON.stringify({ ...payload, cwd: "/work/p" })),
        ...["rm -rf /", "echo JSONDENY", "echo ASKME", "echo REWRITEME", "ls", "echo \u0000\ud800 \u2028 ✓"].map((command) =>
          shell(host, command)
        ),
        "",
        "not json",
        "[1]",
        `${"[".repeat(300)}${"]".repeat(300)}`,
        JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "x".repeat(200_000) } })
      ]
      let viaDaemon = 0
      for (const [i, stdin] of inputs.entries()) {
        const flags = i % 3 === 0 ? ["--ask", "deny", "--quiet"] : i % 3 === 1 ? ["--rewrite", "deny", "--timeout", "30"] : []
        for (const args of [["--host", host, ...flags, ...settings]]) {
          const inProcess = call(args, stdin, false)
          const before = existsSync(probe()) ? readFileSync(probe(), "utf8") : ""
          const daemon = call(args, stdin, true)
          expect(daemon, `${host} input ${i} ${args.join(" ")}`).toStrictEqual(inProcess)
          const after = existsSync(probe()) ? readFileSync(probe(), "utf8") : ""
          if (after !== before) {
            expect(lastSpawner(), "a PreToolUse the daemon answered: its probe hook was spawned by the daemon").toBe(pid)
            viaDaemon++
          }
        }
      }
      // the probe runs on every PreToolUse: the daemon answered them all (none ran in-process)
      expect(viaDaemon).toBeGreaterThan(8)
    },
    240_000
  )

  it("a command line host mode cannot read blocks the same way; --help runs in-process", async () => {
    const settings = policyFiles()
    if (daemons().length === 0) await startDaemon(settings)
    for (const args of [
      ["--host", "nope"],
      ["--host", "claude", "--timeout", "0"],
      ["--host", "claude", "extra"],
      ["--host", "claude", "--help"]
    ]) {
      expect(call(args, shell("claude", "ls"), true)).toStrictEqual(call(args, shell("claude", "ls"), false))
    }
  }, 60_000)

  it("--help with stdin left open answers at once, as in-process (it reads no stdin)", async () => {
    if (daemons().length === 0) await startDaemon(policyFiles())
    const child = spawn(node, [bin, "hook", "--help"], { cwd: scratch(), env: env(true), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    child.stdout.on("data", (d) => (stdout += d))
    const status = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL")
        resolve(null)
      }, 20_000)
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve(code)
      })
    })
    child.stdin.destroy()
    expect(status).toBe(0)
    expect(stdout).toContain("agent-hooks hook")
  }, 60_000)

  it("reads the settings again on every call: a change is seen by the next call", async () => {
    const settings = policyFiles()
    const pid = daemons()[0] ?? (await startDaemon(settings))
    const file = join(scratch(), "changing.json")
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "exit 0" }] }] } }))
    const args = ["--host", "claude", "--settings", file, ...settings]
    expect(call(args, shell("claude", "ls"), true).status).toBe(0)
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo changed >&2; exit 2" }] }] } }))
    const blocked = call(args, shell("claude", "ls"), true)
    expect(blocked.status).toBe(2)
    expect(blocked.stderr).toContain("changed")
    expect(lastSpawner()).toBe(pid)
    writeFileSync(file, "{ not json")
    const broken = call(args, shell("claude", "ls"), true)
    expect(broken).toStrictEqual(call(args, shell("claude", "ls"), false))
    expect(broken.status).toBe(2)
  }, 60_000)

  it("the call's environment, folder and umask are the hooks' own", async () => {
    const settings = policyFiles()
    if (daemons().length === 0) await startDaemon(settings)
    const file = join(scratch(), "env.json")
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: 'echo "$MY_VAR $(pwd) $(umask)" >&2; exit 2' }] }] } })
    )
    const sub = join(scratch(), "sub")
    mkdirSync(sub, { recursive: true })
    const run = (daemon: boolean) =>
      spawnSync("sh", ["-c", `umask 027; exec "$0" "$@"`, node, bin, "hook", "--host", "claude", "--settings", file], {
        input: shell("claude", "ls"),
        cwd: sub,
        env: env(daemon, { MY_VAR: `v-${daemon}` }),
        encoding: "utf8"
      })
    const viaDaemon = run(true)
    expect(viaDaemon.stderr).toContain(`v-true ${sub} 0027`)
    expect(viaDaemon.stderr.replace("v-true", "v-false")).toBe(run(false).stderr)
    // a variable of the call before is not left for the next one
    const without = (daemon: boolean) =>
      spawnSync(node, [bin, "hook", "--host", "claude", "--settings", file], {
        input: shell("claude", "ls"),
        cwd: sub,
        env: env(daemon),
        encoding: "utf8"
      }).stderr
    expect(without(true).startsWith(` ${sub} `), "MY_VAR is unset").toBe(true)
    expect(without(true)).toBe(without(false))
  }, 60_000)

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

describe.runIf(linux)("a daemon that cannot answer: the call runs in-process, with the same answer", () => {
  const args = () => ["--host", "codex", ...policyFiles()]

  it("a killed daemon (its socket left behind): in-process, and a new daemon takes its place", async () => {
    const first = daemons()[0] ?? (await startDaemon(policyFiles()))
    process.kill(first, "SIGKILL")
    await until("the daemon gone", () => !daemons().includes(first))
    expect(socketFile()).toBeDefined()
    const answer = call(args(), shell("codex", "rm -rf /"), true)
    expect(answer).toStrictEqual(call(args(), shell("codex", "rm -rf /"), false))
    expect(answer.status).toBe(2)
    expect(lastSpawner()).not.toBe(first)
    await until("a new daemon", () => daemons().some((pid) => pid !== first))
    const second = daemons()[0]!
    await until("the new daemon's socket", () => {
      call(args(), shell("codex", "ls"), true)
      return lastSpawner() === second
    })
  }, 60_000)

  it("a stale socket nobody listens on: in-process, then replaced", async () => {
    await killDaemons()
    const socket = socketFile()!
    rmSync(socket, { force: true })
    // a socket file whose process is gone
    const holder = spawn(node, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(socket)}, () => { require("node:fs").chmodSync(${JSON.stringify(socket)}, 0o600); process.exit(0) })`
    ])
    await new Promise((resolve) => holder.on("exit", resolve))
    expect(existsSync(socket)).toBe(true)
    const answer = call(args(), shell("codex", "echo JSONDENY"), true)
    expect(answer).toStrictEqual(call(args(), shell("codex", "echo JSONDENY"), false))
    await until("a new daemon", () => daemons().length > 0)
  }, 60_000)

  it("a socket or folder that is not the user's own private one is refused, said on stderr", async () => {
    const pid = await answeringDaemon()
    const socket = socketFile()!
    const refused = (what: RegExp) => {
      const inProcess = call(args(), shell("codex", "rm -rf /"), false)
      const answer = call(args(), shell("codex", "rm -rf /"), true)
      expect(answer.status).toBe(inProcess.status)
      expect(answer.stdout).toBe(inProcess.stdout)
      expect(answer.stderr).toMatch(what)
      expect(answer.stderr).toContain(inProcess.stderr)
      expect(lastSpawner()).not.toBe(pid)
    }
    chmodSync(socket, 0o666)
    refused(/not using the daemon: .* has mode 666, not 600/)
    chmodSync(socket, 0o600)
    chmodSync(folder(), 0o755)
    refused(/not using the daemon: .* has mode 755, not 700/)
    chmodSync(folder(), 0o700)
    if (process.getuid?.() === 0) {
      chownSync(socket, 65534, 65534)
      refused(/not using the daemon: .* belongs to uid 65534/)
      chownSync(socket, 0, 0)
    }
    // the folder a symlink to a private folder of the user's: refused, not followed
    const real = join(scratch(), "elsewhere")
    renameSync(folder(), real)
    symlinkSync(real, folder())
    refused(/not using the daemon: .* is a symlink/)
    rmSync(folder())
    renameSync(real, folder())
    call(args(), shell("codex", "ls"), true)
    expect(lastSpawner()).toBe(pid)
  }, 60_000)

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

  it("two calls at the same time: both answered alike (the second by a helper of the daemon, or in-process while one starts)", async () => {
    const pid = daemons()[0] ?? (await startDaemon(policyFiles()))
    const file = join(scratch(), "slow.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: 'echo "$PPID" >> "$PROBE"; sleep 2; echo slow >&2; exit 2' }] }] }
      })
    )
    const run = () =>
      running(node, [bin, "hook", "--host", "claude", "--settings", file], { cwd: scratch(), env: env(true) }, shell("claude", "ls"))
    rmSync(probe(), { force: true })
    const [a, b] = await Promise.all([run(), run()])
    expect(a).toStrictEqual(b)
    expect(a.status).toBe(2)
    expect(a.stderr).toContain("slow")
    const spawners = readFileSync(probe(), "utf8").trim().split("\n").map(Number)
    expect(spawners).toHaveLength(2)
    expect(spawners).toContain(pid)
  }, 60_000)

  it("an agent that kills its hook: the daemon stops the call and its hooks, and serves the next", async () => {
    const pid = daemons()[0] ?? (await startDaemon(policyFiles()))
    const file = join(scratch(), "hung.json")
    const marker = join(scratch(), "hung.pid")
    rmSync(marker, { force: true })
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `echo $$ > "${marker}"; exec sleep 60` }] }] } })
    )
    const child = spawn(node, [bin, "hook", "--host", "claude", "--settings", file], {
      cwd: scratch(),
      env: env(true),
      stdio: ["pipe", "ignore", "ignore"]
    })
    child.stdin.end(shell("claude", "ls"))
    await until("the hung hook", () => existsSync(marker) && readFileSync(marker, "utf8").trim() !== "")
    const hung = Number(readFileSync(marker, "utf8").trim())
    child.kill("SIGKILL")
    await until(
      "the hung hook killed",
      () => !existsSync(`/proc/${hung}`) || readFileSync(`/proc/${hung}/stat`, "utf8").split(" ")[2] === "Z"
    )
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true)
    expect(lastSpawner()).toBe(pid)
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

  it("a daemon stuck after it took the call: the client writes host mode's last-resort block in time", async () => {
    const pid = await answeringDaemon()
    const file = join(scratch(), "stuck.json")
    const marker = join(scratch(), "stuck.started")
    rmSync(marker, { force: true })
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `touch "${marker}"; exec sleep 30` }] }] } })
    )
    const child = spawn(node, [bin, "hook", "--host", "codex", "--timeout", "3", "--settings", file], { cwd: scratch(), env: env(true) })
    let stderr = ""
    child.stderr.on("data", (d) => (stderr += d))
    child.stdin.end(shell("codex", "ls"))
    await until("the policy's hook started", () => existsSync(marker))
    // the daemon's process no longer runs: its own budget (2 s) cannot answer
    process.kill(pid, "SIGSTOP")
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
    process.kill(pid, "SIGCONT")
    expect(status).toBe(2)
    expect(stderr).toContain("host mode did not finish within 3 s")
  }, 60_000)

  it("AGENT_HOOKS_DAEMON=0: no daemon is started", async () => {
    await killDaemons()
    rmSync(join(home(), ".cache"), { recursive: true, force: true })
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), false)
    await sleep(500)
    expect(existsSync(folder())).toBe(false)
    expect(daemons()).toStrictEqual([])
  }, 60_000)

  it("an idle daemon exits and removes its socket", async () => {
    await killDaemons()
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true, { AGENT_HOOKS_DAEMON_IDLE: "1" })
    await until("a daemon", () => daemons().length > 0)
    await until("the idle daemon gone", () => daemons().length === 0 && socketFile() === undefined)
  }, 60_000)
})

describe.runIf(linux)("the daemon is started only into a private folder", () => {
  it("a daemon folder anybody may enter is not used, and no daemon is started into it", async () => {
    await killDaemons()
    rmSync(join(home(), ".cache"), { recursive: true, force: true })
    mkdirSync(folder(), { recursive: true, mode: 0o777 })
    chmodSync(folder(), 0o777)
    const answer = call(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /"), true)
    expect(answer.status).toBe(2)
    expect(answer.stderr).toMatch(/has mode 777, not 700/)
    await sleep(500)
    expect(daemons()).toStrictEqual([])
    rmSync(folder(), { recursive: true, force: true })
  }, 60_000)
})

describe.runIf(linux)("the daemon keeps compiled settings between calls, never a stale policy", () => {
  const project = () => join(scratch(), "project")
  // the user's own settings: $AGENT_HOOKS_HOME/settings.json (this file's env sets it)
  const userFile = () => join(scratch(), "ah", "settings.json")
  const projectFile = () => join(project(), ".agent-hooks", "settings.json")
  const hookOf = (command: string) => JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } })
  // the settings are found as the agent's own: the user's and the project's files, no --settings
  const args = ["--host", "claude"]
  /** An empty project folder (its settings folder made) and the user's settings folder. */
  const freshProject = () => {
    rmSync(project(), { recursive: true, force: true })
    mkdirSync(join(project(), ".agent-hooks"), { recursive: true })
    mkdirSync(join(scratch(), "ah"), { recursive: true })
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
    writeFileSync(userFile(), hookOf(`echo "$PPID" >> "$PROBE"; exit 0`))
    expect(both("ls").status).toBe(0)
    expect(both("ls").status).toBe(0)
    expect(lastSpawner()).toBe(pid)
    // from the attacker's side: a project file added after that takes effect at once
    writeFileSync(projectFile(), hookOf(`echo "$PPID" >> "$PROBE"; echo project-blocks >&2; exit 2`))
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
      writeFileSync(userFile(), hookOf(allow))
      expect(call(args, shell("claude", "ls"), true, { CLAUDE_PROJECT_DIR: project() }).status).toBe(0)
      writeFileSync(userFile(), hookOf(deny))
      expect(call(args, shell("claude", "ls"), true, { CLAUDE_PROJECT_DIR: project() }).status).toBe(2)
      expect(lastSpawner()).toBe(pid)
    }
    // a file that no longer decodes: the same answer as in-process (blocked, naming the file)
    writeFileSync(userFile(), "{ not json")
    const broken = both("ls")
    expect(broken.status).toBe(2)
    expect(broken.stderr).toContain(userFile())
  }, 120_000)

  it("a project settings file that is a FIFO: the answer in-process gives, and the daemon keeps answering after many such calls", async () => {
    const pid = await answeringDaemon()
    freshProject()
    writeFileSync(userFile(), hookOf(`echo "$PPID" >> "$PROBE"; exit 0`))
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

  it("the environment decides the plan too: a variable the settings read changes the answer on the next call", async () => {
    await answeringDaemon()
    freshProject()
    // a hook that fails (exit 1): a non-blocking error, unless AGENT_HOOKS_FAIL_CLOSED makes every failure a block
    writeFileSync(userFile(), hookOf(`echo "$PPID" >> "$PROBE"; exit 1`))
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
      writeFileSync(
        file,
        JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  {
                    type: "command",
                    command: `echo "$PPID" >> "$PROBE"; sleep 2; echo "call-$MY_VAR in $(pwd) policy-${i}" >&2; exit ${code}`
                  }
                ]
              }
            ]
          }
        })
      )
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

describe.runIf(linux)("a daemon that dies with a call: never a hook run twice in silence", () => {
  it("killed after the call's hooks started: the call runs again in-process and stderr says its hooks may have run twice", async () => {
    const pid = await answeringDaemon()
    const file = join(scratch(), "killed.json")
    const marker = join(scratch(), "killed.started")
    rmSync(marker, { force: true })
    rmSync(probe(), { force: true })
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: `echo "$PPID" >> "$PROBE"; touch "${marker}"; sleep 1; echo guard >&2; exit 2` }] }
          ]
        }
      })
    )
    const child = spawn(node, [bin, "hook", "--host", "claude", "--settings", file], { cwd: scratch(), env: env(true) })
    let stderr = ""
    child.stderr.on("data", (d) => (stderr += d))
    child.stdin.end(shell("claude", "ls"))
    await until("the policy's hook started in the daemon", () => existsSync(marker))
    process.kill(pid, "SIGKILL")
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(status).toBe(2)
    expect(stderr).toContain("guard")
    expect(stderr).toContain(
      "the agent-hooks daemon stopped after it had started this call's hooks; the call ran again in-process, so its hooks may have run twice"
    )
    const spawners = readFileSync(probe(), "utf8").trim().split("\n").map(Number)
    expect(spawners).toHaveLength(2)
    expect(spawners[0]).toBe(pid)
    expect(spawners[1]).not.toBe(pid)
    await until("the killed daemon gone", () => !daemons().includes(pid))
    // its socket left behind: gone, so that the next call starts one daemon (not one per call that finds it stale)
    rmSync(socketFile()!, { force: true })
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
    expect([lastSpawner(), parentOf(lastSpawner())]).toContain(pid)
    expect(await ask(undefined)).toStrictEqual(["accepted", "done"])
    expect(await ask(false)).toStrictEqual(["accepted", "done"])
  }, 60_000)
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
