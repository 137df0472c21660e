/**
 * The clients of the per-user daemon of `agent-hooks hook`, run as an agent runs them against the
 * BUILT CLI's real daemon: Node's client (the CLI itself, internal/hookClient.ts) and the native
 * client (`packages/cli/native/hook-client.c`, built here with the machine's `cc` into this file's
 * scratch folder, as `install --native` builds it; only where there is a C compiler). One table of
 * clients runs one set of scenarios: a scenario written once holds for both. Every answer must be
 * byte for byte the in-process answer (`AGENT_HOOKS_DAEMON=0`); a daemon that is missing, dead,
 * stale, not the user's own, busy, stuck, killed mid-call or talking garbage is never used for the
 * answer and never changes it.
 *
 * Which process answered is seen from the policy itself: a probe hook on PreToolUse writes its
 * parent's pid (the daemon, or the Node process that ran the call in-process). The daemon's own
 * behaviour (its protocol, its cache of settings, its helpers, its idle exit) is HookDaemon.test.ts.
 * `AGENT_HOOKS_NATIVE_SANITIZE=1` builds the native client with AddressSanitizer and UBSan.
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
import { createServer } from "node:net"
import type { Server } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PropertyRuns } from "@agent-hooks/test-utils"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lostLine } from "../src/internal/hookClient.ts"
import { buildClient, clientSource } from "../src/internal/nativeClient.ts"
import { bin, node, scratchFolder } from "./cliHarness.ts"
import {
  daemonHarness,
  entry,
  entryClient,
  hosts,
  nativeClient,
  nodeClient,
  preToolUse,
  recorded,
  running,
  shell,
  sleep,
  until
} from "./daemonHarness.ts"
import type { Client } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-clients-")
const linux = process.platform === "linux"
const hasCc = spawnSync("cc", ["--version"]).status === 0
const sanitize = process.env["AGENT_HOOKS_NATIVE_SANITIZE"] === "1"

const nativeFile = () => join(scratch(), "hook-client")

/**
 * The clients every scenario runs through: Node's as `install` writes it (`agent-hooks.cjs`; through
 * `bin.js`, which older configs name, in HookDaemon.test.ts and NodeEntry.node.test.ts), and the
 * native one where a C compiler is, built as `install --native` builds it.
 */
const clients: ReadonlyArray<Client> = [entryClient, ...(hasCc ? [nativeClient(nativeFile)] : [])]

beforeAll(() => {
  if (!linux || !hasCc) return
  const real = realpathSync(entry)
  const built = buildClient(clientSource(real), nativeFile(), { node: process.execPath, bin: real, version: process.version }, { sanitize })
  if (!("ok" in built)) throw new Error(built.error)
})

const {
  home,
  folder,
  probe,
  env,
  daemons,
  socketFile,
  spawners,
  killDaemons,
  policyFiles: withProbe,
  call,
  lastSpawner,
  answeringDaemon: answering
} = daemonHarness(scratch, join(fixtures, "hooks"))
const policyFiles = () => withProbe(join(fixtures, "policy.json"))
const answeringDaemon = (via: Client) => answering(via, policyFiles())

afterAll(async () => {
  if (linux) await killDaemons()
})

/** The environment of a call through `via` in `sh -c` (its `shell` words). */
const shellEnv = (daemon: boolean, extra: Record<string, string> = {}) =>
  env(daemon, { NODE: node, BIN: bin, ENTRY: entry, CLIENT: nativeFile(), ...extra })

describe.runIf(linux && hasCc)("the native client itself", () => {
  it("--version: the CLI's", () => {
    const version = spawnSync(nativeFile(), ["--version"], { env: env(true), encoding: "utf8" })
    expect(version.stdout).toBe(spawnSync(node, [bin, "--version"], { env: env(false), encoding: "utf8" }).stdout)
  })
})

for (const client of clients) {
  const through = (args: ReadonlyArray<string>, stdin: string | Buffer, extra: Record<string, string> = {}) =>
    call(client, args, stdin, extra)
  const inProcess = (args: ReadonlyArray<string>, stdin: string | Buffer, extra: Record<string, string> = {}) =>
    call("in-process", args, stdin, extra)
  /** `client` started without blocking this process (a daemon of this process may answer it). */
  const start = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string | undefined> } = {}) => {
    const [command, argv] = client.command(args)
    return spawn(command, argv, { cwd: scratch(), env: options.env ?? env(true) })
  }

  describe.runIf(linux)(`${client.name} answers as the call in-process does${client.native && sanitize ? " (ASan, UBSan)" : ""}`, () => {
    it.each(hosts)(
      "%s: every recorded payload, the policy's answers, flags, hostile input, bytes that are not UTF-8, a 5 MB payload: through the daemon, byte for byte",
      async (host) => {
        const pid = await answeringDaemon(client)
        const settings = policyFiles()
        const inputs: Array<string | Buffer> = [
          ...recorded(host).map((payload) => JSON.stringify({ ...payload, cwd: "/work/p" })),
          ...["rm -rf /", "echo JSONDENY", "echo ASKME", "echo REWRITEME", "ls", "echo \u0000\ud800 \u2028 ✓"].map((command) =>
            shell(host, command)
          ),
          "",
          "not json",
          "[1]",
          `${"[".repeat(300)}${"]".repeat(300)}`,
          JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "x".repeat(200_000) } }),
          // bytes that are not UTF-8, a NUL, a lone newline: the payload goes as bytes
          Buffer.from([0x7b, 0xff, 0x22, 0x00, 0xc3, 0x0a, 0xed, 0xa0, 0x80]),
          shell(host, `echo ${"x".repeat(5 * 1024 * 1024)}`)
        ]
        // A call the daemon does not accept within 1.5 s runs in-process (the same answer): on a loaded
        // machine, the 5 MB payload (the last input) can. Every other call whose hooks ran is the daemon's.
        const inNode: Array<number> = []
        let viaDaemon = 0
        for (const [i, stdin] of inputs.entries()) {
          const flags = i % 3 === 0 ? ["--ask", "deny", "--quiet"] : i % 3 === 1 ? ["--rewrite", "deny", "--timeout", "30"] : []
          const args = ["--host", host, ...flags, ...settings]
          const expected = inProcess(args, stdin)
          const before = spawners().length
          const answer = through(args, stdin)
          expect(answer, `${host} input ${i} ${args.join(" ")}`).toStrictEqual(expected)
          if (spawners().length > before) {
            if (lastSpawner() === pid) viaDaemon++
            else inNode.push(i)
          }
        }
        expect(
          inNode.filter((i) => i !== inputs.length - 1),
          "calls not answered by the daemon"
        ).toStrictEqual([])
        // the probe runs on every PreToolUse: the daemon answered them
        expect(viaDaemon).toBeGreaterThan(8)
      },
      240_000
    )

    it("a guard's deny and a rewrite that quote a 6 MB command, and an answer cut at the cap: through the daemon as in-process (denied, rewritten whole, blocked)", async () => {
      // The attacker's shape: a command of megabytes; the guard quotes it in its deny, or hands it back rewritten.
      const pid = await answeringDaemon(client)
      const script = join(scratch(), "quote.js")
      writeFileSync(
        script,
        `let s = ""
process.stdin.setEncoding("utf8").on("data", (d) => (s += d)).on("end", () => {
  const command = JSON.parse(s).tool_input.command
  const specific = { hookEventName: "PreToolUse" }
  if (process.argv[2] === "rewrite") Object.assign(specific, { permissionDecision: "allow", updatedInput: { command: command + " # checked" } })
  else if (process.argv[2] === "cut") Object.assign(specific, { permissionDecision: "deny", permissionDecisionReason: "x".repeat(33 * 1024 * 1024) })
  else Object.assign(specific, { permissionDecision: "deny", permissionDecisionReason: "refused: " + command })
  process.stdout.write(JSON.stringify({ hookSpecificOutput: specific }))
})
`
      )
      const large = shell("claude", `rm -rf / # ${"x".repeat(6_000_000)}`)
      for (const [mode, stdin] of [
        ["deny", large],
        ["rewrite", large],
        ["cut", shell("claude", "rm -rf /")]
      ] as const) {
        const file = join(scratch(), `quote-${mode}.json`)
        writeFileSync(file, preToolUse(`${JSON.stringify(node)} ${JSON.stringify(script)} ${mode}`))
        const args = ["--host", "claude", "--settings", file, ...policyFiles().slice(2)]
        const expected = inProcess(args, stdin)
        const before = spawners().length
        const answer = through(args, stdin)
        expect({ ...answer, stdout: answer.stdout.length }, mode).toStrictEqual({ ...expected, stdout: expected.stdout.length })
        expect(answer.stdout === expected.stdout, mode).toBe(true)
        expect(spawners().length, `${mode}: the probe ran`).toBeGreaterThan(before)
        expect(lastSpawner(), `${mode}: the daemon answered`).toBe(pid)
        const specific = JSON.parse(answer.stdout).hookSpecificOutput
        if (mode === "rewrite") {
          expect(specific.permissionDecision).toBe("allow")
          expect(specific.updatedInput.command).toBe(`rm -rf / # ${"x".repeat(6_000_000)} # checked`)
        } else {
          expect(specific.permissionDecision, mode).toBe("deny")
          expect(specific.permissionDecisionReason, mode).toContain(
            mode === "deny" ? "refused: rm -rf / # xxx" : `its answer was cut at ${32 * 1024 * 1024} bytes of stdout, so it was not read`
          )
        }
      }
    }, 240_000)

    it("a command line host mode cannot read blocks the same way; --help runs in-process", async () => {
      await answeringDaemon(client)
      for (const args of [
        ["--host", "nope"],
        ["--host", "claude", "--timeout", "0"],
        ["--host", "claude", "extra"],
        ["--host", "claude", "--help"]
      ])
        expect(through(args, shell("claude", "ls"))).toStrictEqual(inProcess(args, shell("claude", "ls")))
    }, 60_000)

    it("--help with stdin left open answers at once, as in-process (it reads no stdin)", async () => {
      await answeringDaemon(client)
      const [command, argv] = client.command(["hook", "--help"])
      const child = spawn(command, argv, { cwd: scratch(), env: env(true), stdio: ["pipe", "pipe", "pipe"] })
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
      const pid = await answeringDaemon(client)
      const settings = policyFiles()
      const file = join(scratch(), "changing.json")
      writeFileSync(file, preToolUse("exit 0"))
      const args = ["--host", "claude", "--settings", file, ...settings]
      expect(through(args, shell("claude", "ls")).status).toBe(0)
      writeFileSync(file, preToolUse("echo changed >&2; exit 2"))
      const blocked = through(args, shell("claude", "ls"))
      expect(blocked.status).toBe(2)
      expect(blocked.stderr).toContain("changed")
      expect(lastSpawner()).toBe(pid)
      writeFileSync(file, "{ not json")
      const broken = through(args, shell("claude", "ls"))
      expect(broken).toStrictEqual(inProcess(args, shell("claude", "ls")))
      expect(broken.status).toBe(2)
    }, 60_000)

    it("the call's environment, folder and umask are the hooks' own", async () => {
      await answeringDaemon(client)
      const file = join(scratch(), "env.json")
      writeFileSync(file, preToolUse('echo "$MY_VAR $(pwd) $(umask)" >&2; exit 2'))
      const sub = join(scratch(), "sub")
      mkdirSync(sub, { recursive: true })
      const run = (daemon: boolean) =>
        spawnSync("sh", ["-c", `umask 027; exec ${daemon ? client.shell : nodeClient.shell} hook --host claude --settings "$SETTINGS"`], {
          input: shell("claude", "ls"),
          cwd: sub,
          env: shellEnv(daemon, { MY_VAR: `v-${daemon}`, SETTINGS: file }),
          encoding: "utf8"
        })
      const viaDaemon = run(true)
      expect(viaDaemon.stderr).toContain(`v-true ${sub} 0027`)
      expect(viaDaemon.stderr.replace("v-true", "v-false")).toBe(run(false).stderr)
      // a variable of the call before is not left for the next one
      const without = (daemon: boolean) =>
        spawnSync("sh", ["-c", `exec ${daemon ? client.shell : nodeClient.shell} hook --host claude --settings "$SETTINGS"`], {
          input: shell("claude", "ls"),
          cwd: sub,
          env: shellEnv(daemon, { SETTINGS: file }),
          encoding: "utf8"
        }).stderr
      expect(without(true).startsWith(` ${sub} `), "MY_VAR is unset").toBe(true)
      expect(without(true)).toBe(without(false))
    }, 60_000)

    it("hostile environment, arguments and payload reach the hooks byte for byte, as in-process (property)", async () => {
      const pid = await answeringDaemon(client)
      const out = join(scratch(), "seen.bin")
      const settings = join(scratch(), "seen.json")
      writeFileSync(
        settings,
        preToolUse(
          `echo "$PPID" >> "$PROBE"; { printf '%s\\n--\\n' "$HOSTILE"; pwd; umask; cat; } > "${out}"; printf '%s' "$HOSTILE" >&2; exit 2`
        )
      )
      // bytes as the shell's printf writes them (octal): any byte but NUL, invalid UTF-8 included
      const octal = (bytes: ReadonlyArray<number>) => bytes.map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("")
      const bytes = fc.array(
        fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 255 }), weight: 1 },
          {
            arbitrary: fc.constantFrom(
              0x22,
              0x5c,
              0x27,
              0x0a,
              0x0d,
              0x1b,
              0x7f,
              0xc0,
              0xed,
              0xa0,
              0x80,
              0xf4,
              0x90,
              0xff,
              0xe2,
              0x82,
              0xac
            ),
            weight: 1
          },
          { arbitrary: fc.constantFrom(0x22, 0x5c, 0x01, 0x1f), weight: 1 }
        ),
        { maxLength: 40 }
      )
      const run = (daemon: boolean, value: ReadonlyArray<number>, arg: ReadonlyArray<number> | undefined, command: string) => {
        rmSync(out, { force: true })
        const program = daemon ? client.shell : nodeClient.shell
        const result = spawnSync(
          "/bin/sh",
          [
            "-c",
            `umask 027; HOSTILE="$(printf '${octal(value)}x')"; export HOSTILE; exec ${program} hook --host claude --settings "$SETTINGS" --event ${arg === undefined ? "PreToolUse" : `"$(printf '${octal(arg)}x')"`} 2>&1`
          ],
          { input: shell("claude", command), cwd: scratch(), env: shellEnv(daemon, { SETTINGS: settings }), timeout: 25_000 }
        )
        return { status: result.status, output: result.stdout, seen: existsSync(out) ? readFileSync(out) : undefined }
      }
      let viaDaemon = 0
      let inNode = 0
      await fc.assert(
        fc.asyncProperty(bytes, bytes, fc.string({ maxLength: 30 }), fc.boolean(), async (value, arg, command, withArg) => {
          const argBytes = withArg ? arg : undefined
          const expected = run(false, value, argBytes, command)
          const before = spawners().length
          const answer = run(true, value, argBytes, command)
          expect(answer.status).toBe(expected.status)
          expect(
            answer.output.equals(expected.output),
            `${answer.output.toString("latin1")}\n!==\n${expected.output.toString("latin1")}`
          ).toBe(true)
          expect(answer.seen?.toString("hex")).toBe(expected.seen?.toString("hex"))
          // the calls whose hooks ran were answered by the daemon (a request it cannot read would run in Node)
          if (spawners().length > before) {
            if (lastSpawner() === pid) viaDaemon++
            else inNode++
          }
        }),
        { numRuns: PropertyRuns.forLane(25) }
      )
      // one may miss the daemon's 1.5 s to accept on a loaded machine; a request the daemon cannot read misses every time
      expect(inNode, `${inNode} calls ran in Node, ${viaDaemon} in the daemon`).toBeLessThanOrEqual(1)
      expect(viaDaemon).toBeGreaterThan(0)
    }, 240_000)
  })

  describe.runIf(linux)(`a daemon ${client.name} cannot use: the call runs in-process, with the same answer`, () => {
    const args = () => ["--host", "codex", ...policyFiles()]
    const same = (command: string, warning?: RegExp) => {
      const expected = inProcess(args(), shell("codex", command))
      const answer = through(args(), shell("codex", command))
      expect(answer.status).toBe(expected.status)
      expect(answer.stdout).toBe(expected.stdout)
      if (warning === undefined) expect(answer.stderr).toBe(expected.stderr)
      else {
        expect(answer.stderr).toMatch(warning)
        expect(answer.stderr).toContain(expected.stderr)
      }
      return answer
    }

    it("no daemon: in-process, and a daemon is started for the next call", async () => {
      await killDaemons()
      rmSync(join(home(), ".cache"), { recursive: true, force: true })
      same("rm -rf /")
      expect(lastSpawner()).not.toBe(undefined)
      await until("a daemon", () => daemons().length > 0 && socketFile() !== undefined)
      const pid = daemons()[0]!
      await until("the new daemon answering", () => {
        through(args(), shell("codex", "ls"))
        return lastSpawner() === pid
      })
    }, 60_000)

    it("a killed daemon (its socket left behind): in-process, and a new daemon takes its place", async () => {
      const first = await answeringDaemon(client)
      process.kill(first, "SIGKILL")
      await until("the daemon gone", () => !daemons().includes(first))
      expect(socketFile()).toBeDefined()
      const answer = same("rm -rf /")
      expect(answer.status).toBe(2)
      expect(lastSpawner()).not.toBe(first)
      await until("a new daemon", () => daemons().some((pid) => pid !== first))
      const second = daemons()[0]!
      await until("the new daemon's socket", () => {
        through(args(), shell("codex", "ls"))
        return lastSpawner() === second
      })
    }, 60_000)

    it("a stale socket nobody listens on (made by a process that is gone): in-process, then replaced", async () => {
      await answeringDaemon(client)
      await killDaemons()
      const socket = socketFile()!
      rmSync(socket, { force: true })
      const holder = spawn(node, [
        "-e",
        `require("node:net").createServer().listen(${JSON.stringify(socket)}, () => { require("node:fs").chmodSync(${JSON.stringify(socket)}, 0o600); process.exit(0) })`
      ])
      await new Promise((resolve) => holder.on("exit", resolve))
      expect(existsSync(socket)).toBe(true)
      same("echo JSONDENY")
      await until("a new daemon", () => daemons().length > 0)
    }, 60_000)

    it("a socket or folder that is not the user's own private one, or not a socket: refused, said on stderr", async () => {
      const pid = await answeringDaemon(client)
      const socket = socketFile()!
      const refused = (what: RegExp) => {
        same("rm -rf /", what)
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
      through(args(), shell("codex", "ls"))
      expect(lastSpawner()).toBe(pid)
      // the socket's name taken by a file, a FIFO (a reader would block on it), a folder
      const aside = `${socket}.aside`
      renameSync(socket, aside)
      for (const make of [
        () => writeFileSync(socket, "x", { mode: 0o600 }),
        () => spawnSync("mkfifo", ["-m", "600", socket]),
        () => mkdirSync(socket, 0o700)
      ]) {
        make()
        refused(/not using the daemon: .* is not a socket/)
        rmSync(socket, { recursive: true, force: true })
      }
      // a daemon whose socket was moved away exits; the next call starts a new one
      renameSync(aside, socket)
      await answeringDaemon(client)
    }, 60_000)

    it("a daemon folder anybody may enter is not used, and no daemon is started into it", async () => {
      await killDaemons()
      rmSync(join(home(), ".cache"), { recursive: true, force: true })
      mkdirSync(folder(), { recursive: true, mode: 0o777 })
      chmodSync(folder(), 0o777)
      const answer = through(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /"))
      expect(answer.status).toBe(2)
      expect(answer.stderr).toMatch(/has mode 777, not 700/)
      await sleep(500)
      expect(daemons()).toStrictEqual([])
      rmSync(folder(), { recursive: true, force: true })
    }, 60_000)

    it("AGENT_HOOKS_DAEMON=0: no daemon is started", async () => {
      await killDaemons()
      rmSync(join(home(), ".cache"), { recursive: true, force: true })
      const off = { AGENT_HOOKS_DAEMON: "0" }
      const answer = through(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /"), off)
      expect(answer).toStrictEqual(inProcess(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /")))
      await sleep(500)
      expect(existsSync(folder())).toBe(false)
      expect(daemons()).toStrictEqual([])
    }, 60_000)

    it("busy with a call: another call at the same time is answered alike (by a helper of the daemon, or in-process), its hook run once", async () => {
      const pid = await answeringDaemon(client)
      const file = join(scratch(), "slow.json")
      writeFileSync(file, preToolUse('echo "$PPID" >> "$PROBE"; sleep 2; echo slow >&2; exit 2'))
      const run = () =>
        running(
          ...client.command(["hook", "--host", "claude", "--settings", file]),
          { cwd: scratch(), env: env(true) },
          shell("claude", "ls")
        )
      rmSync(probe(), { force: true })
      const [a, b] = await Promise.all([run(), run()])
      expect(a).toStrictEqual(b)
      expect(a.status).toBe(2)
      expect(a.stderr).toContain("slow")
      // the hook ran twice, not three times: the busy call was not sent to the daemon again
      expect(spawners()).toHaveLength(2)
      expect(spawners()).toContain(pid)
    }, 60_000)

    it("an agent that kills its hook: the daemon stops the call and its hooks, and serves the next", async () => {
      const pid = await answeringDaemon(client)
      const file = join(scratch(), "hung.json")
      const marker = join(scratch(), "hung.pid")
      rmSync(marker, { force: true })
      writeFileSync(file, preToolUse(`echo $$ > "${marker}"; exec sleep 60`))
      const [command, argv] = client.command(["hook", "--host", "claude", "--settings", file])
      const child = spawn(command, argv, { cwd: scratch(), env: env(true), stdio: ["pipe", "ignore", "ignore"] })
      child.stdin.end(shell("claude", "ls"))
      await until("the hung hook", () => existsSync(marker) && readFileSync(marker, "utf8").trim() !== "")
      const hung = Number(readFileSync(marker, "utf8").trim())
      child.kill("SIGKILL")
      await until(
        "the hung hook killed",
        () => !existsSync(`/proc/${hung}`) || readFileSync(`/proc/${hung}/stat`, "utf8").split(" ")[2] === "Z"
      )
      through(["--host", "claude", ...policyFiles()], shell("claude", "ls"))
      expect(lastSpawner()).toBe(pid)
    }, 60_000)

    it("a daemon stuck after it took the call: the client writes host mode's last-resort block in time", async () => {
      const pid = await answeringDaemon(client)
      const file = join(scratch(), "stuck.json")
      const marker = join(scratch(), "stuck.started")
      rmSync(marker, { force: true })
      writeFileSync(file, preToolUse(`touch "${marker}"; exec sleep 30`))
      const child = start(["hook", "--host", "codex", "--timeout", "3", "--settings", file])
      let stderr = ""
      child.stderr!.on("data", (d) => (stderr += d))
      child.stdin!.end(shell("codex", "ls"))
      await until("the policy's hook started", () => existsSync(marker))
      // the daemon's process no longer runs: its own budget (2 s) cannot answer
      process.kill(pid, "SIGSTOP")
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
      process.kill(pid, "SIGCONT")
      expect(status).toBe(2)
      expect(stderr).toContain("host mode did not finish within 3 s")
    }, 60_000)

    it("a daemon killed after the call's hooks started: said on stderr (its hooks may have run twice), and the call runs again in-process", async () => {
      const pid = await answeringDaemon(client)
      const file = join(scratch(), "killed.json")
      const marker = join(scratch(), "killed.started")
      rmSync(marker, { force: true })
      writeFileSync(
        file,
        preToolUse(`echo "$PPID" >> "$PROBE"; if [ ! -e "${marker}" ]; then touch "${marker}"; sleep 30; fi; echo second >&2; exit 2`)
      )
      rmSync(probe(), { force: true })
      const child = start(["hook", "--host", "claude", "--settings", file])
      let stderr = ""
      child.stderr!.on("data", (d) => (stderr += d))
      child.stdin!.end(shell("claude", "ls"))
      await until("the policy's hook started in the daemon", () => existsSync(marker))
      process.kill(pid, "SIGKILL")
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
      expect(status).toBe(2)
      expect(stderr).toBe(`${lostLine(true)}second\n`)
      expect(stderr).toContain(
        "the agent-hooks daemon stopped after it had started this call's hooks; the call ran again in-process, so its hooks may have run twice"
      )
      expect(spawners()).toHaveLength(2)
      expect(spawners()[0]).toBe(pid)
      expect(spawners()[1]).not.toBe(pid)
      await until("the killed daemon gone", () => !daemons().includes(pid))
      // its socket left behind: gone, so that the next call starts one daemon (not one per call that finds it stale)
      rmSync(socketFile()!, { force: true })
    }, 60_000)
  })

  describe.runIf(linux)(`a daemon that talks garbage: ${client.name} runs the call in-process, with the same answer`, () => {
    let contacted = 0
    /** A fake daemon on the real daemon's socket (its name: the one the clients use), answering `reply` to every request. */
    const fake = async (reply: (write: (text: string | Buffer) => void, end: () => void) => void): Promise<Server> => {
      await answeringDaemon(client)
      const socket = socketFile()!
      await killDaemons()
      rmSync(socket, { force: true })
      contacted = 0
      const server = createServer((connection) => {
        contacted++
        let got = ""
        connection.setEncoding("latin1")
        connection.on("error", () => {})
        connection.on("data", (chunk: string) => {
          const first = got === ""
          got += chunk
          if (first)
            reply(
              (text) => connection.write(text),
              () => connection.end()
            )
        })
      })
      await new Promise<void>((resolve) => server.listen(socket, resolve))
      chmodSync(socket, 0o600)
      return server
    }
    const stop = (server: Server) => new Promise((resolve) => server.close(resolve))
    /** The client run without blocking this process (the fake daemon answers from it). */
    const ask = (stdin: string): Promise<{ readonly status: number | null; readonly stdout: Buffer; readonly stderr: Buffer }> =>
      new Promise((resolve) => {
        const child = start(["hook", "--host", "claude", ...policyFiles()])
        const stdout: Array<Buffer> = []
        const stderr: Array<Buffer> = []
        child.stdout!.on("data", (d: Buffer) => stdout.push(d))
        child.stderr!.on("data", (d: Buffer) => stderr.push(d))
        child.on("close", (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }))
        child.stdin!.end(stdin)
      })
    const answers = async (warning: boolean) => {
      const expected = inProcess(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /"))
      const got = await ask(shell("claude", "rm -rf /"))
      expect({ status: got.status, stdout: got.stdout.toString("utf8"), stderr: got.stderr.toString("utf8") }).toStrictEqual({
        ...expected,
        stderr: `${warning ? lostLine(false) : ""}${expected.stderr}`
      })
    }

    it.each([
      ["a line that is not JSON", "not json\n", false],
      ["a JSON value that is not a reply", "[1,2]\n", false],
      ["an unknown reply", '{"t":"maybe"}\n', false],
      ["done before accepted", '{"t":"done","stdout":"","stderr":"","exitCode":0}\n', false],
      ["a guard that is not one", '{"t":"accepted","guard":{"stdout":1}}\n', false],
      ["accepted, then not JSON", '{"t":"accepted"}\n{"t":"done",\n', true],
      ["accepted, then not base64", '{"t":"accepted"}\n{"t":"done","stdout":"%%%","stderr":"","exitCode":0}\n', true],
      ["accepted, then an exit code that is not a number", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":"0"}\n', true],
      ["accepted, then closed", '{"t":"accepted"}\n', true],
      // Every answer a client cannot read runs the call again, in both clients alike (never an exit of its own).
      ["accepted, then a bare done", '{"t":"accepted"}\n{"t":"done"}\n', true],
      ["accepted, then a done without stdout", '{"t":"accepted"}\n{"t":"done","stderr":"","exitCode":0}\n', true],
      ["accepted, then a done without an exit code", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":""}\n', true],
      ["accepted, then an exit code of 1e400", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":1e400}\n', true],
      ["accepted, then an exit code of 1e20", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":1e20}\n', true],
      ["accepted, then an exit code of 256", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":256}\n', true],
      ["accepted, then an exit code of -1", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":-1}\n', true],
      ["accepted, then an exit code of 2.5", '{"t":"accepted"}\n{"t":"done","stdout":"","stderr":"","exitCode":2.5}\n', true],
      ["accepted, then url-safe base64", '{"t":"accepted"}\n{"t":"done","stdout":"-_-_","stderr":"","exitCode":0}\n', true],
      ["accepted, then base64 without its padding", '{"t":"accepted"}\n{"t":"done","stdout":"QQ","stderr":"","exitCode":0}\n', true],
      ["accepted, then padding inside base64", '{"t":"accepted"}\n{"t":"done","stdout":"QQ==QQ==","stderr":"","exitCode":0}\n', true],
      ["accepted, then null", '{"t":"accepted"}\nnull\n', true],
      ["accepted, then a string", '{"t":"accepted"}\n"done"\n', true],
      ["a guard whose exit code is 1e400", '{"t":"accepted","guard":{"stdout":"","stderr":"","exitCode":1e400,"ms":1}}\n', false],
      ["a guard whose exit code is 256", '{"t":"accepted","guard":{"stdout":"","stderr":"","exitCode":256,"ms":1}}\n', false],
      ["a guard whose time is 1e400", '{"t":"accepted","guard":{"stdout":"","stderr":"","exitCode":2,"ms":1e400}}\n', false],
      ["deep nesting", `{"t":"accepted","x":${"[".repeat(100_000)}\n`, false],
      ["a reply nested 65 deep", `{"t":"accepted","x":${"[".repeat(65)}${"]".repeat(65)}}\n`, false],
      ["a huge line without an end", "x".repeat(20 * 1024 * 1024), false]
    ] as const)(
      "%s",
      async (_, text, warning) => {
        const server = await fake((write, end) => {
          write(text)
          end()
        })
        try {
          await answers(warning)
          expect(contacted, "the client asked the fake daemon").toBe(1)
        } finally {
          await stop(server)
        }
      },
      60_000
    )

    it("a daemon that never answers: in-process once its time to accept (1.5 s) is over", async () => {
      const server = await fake(() => {})
      try {
        const started = Date.now()
        await answers(false)
        expect(Date.now() - started).toBeLessThan(20_000)
      } finally {
        await stop(server)
      }
    }, 60_000)

    /** The client's answer when the fake daemon accepts the call and then says `lines`. */
    const answered = async (lines: ReadonlyArray<string>) => {
      const server = await fake((write) => {
        write('{"t":"accepted"}\n')
        setTimeout(() => {
          for (const line of lines) write(line)
        }, 100)
      })
      try {
        return await ask(shell("claude", "ls"))
      } finally {
        await stop(server)
      }
    }

    it("an answer of megabytes (a rewrite of a large input) is written whole, not lost", async () => {
      // The attacker's shape: a payload of 6 MB that a hook rewrites; the daemon's answer quotes it all.
      const stdout = Buffer.from(
        JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "x".repeat(6_000_000) } } })
      )
      const result = await answered([`${JSON.stringify({ t: "done", stdout: stdout.toString("base64"), stderr: "", exitCode: 0 })}\n`])
      expect(result.stderr.toString("utf8")).toBe("")
      expect(result.status).toBe(0)
      expect(result.stdout.equals(stdout)).toBe(true)
    }, 60_000)

    it("an answer in many small pieces, `started` said twice, an exit status written long, a value nested 64 deep: read alike", async () => {
      const done = `{"t":"done","x":${"[".repeat(64)}${"]".repeat(64)},"stdout":"${Buffer.from("deny").toString("base64")}","stderr":"","exitCode":0.${"0".repeat(70)}2e71}\n`
      const result = await answered(['{"t":"started"}\n{"t":"started"}\n', ...done.match(/.{1,7}/gs)!])
      expect(result.stderr.toString("utf8")).toBe("")
      expect(result.status).toBe(2)
      expect(result.stdout.toString("utf8")).toBe("deny")
    }, 60_000)

    it("a last resort due in 1e10 ms waits (it is not written at once): the daemon's answer is the answer", async () => {
      const server = await fake((write) => {
        write(`${JSON.stringify({ t: "accepted", guard: { stdout: "GUARD", stderr: "", exitCode: 2, ms: 1e10 } })}\n`)
        setTimeout(
          () => write(`${JSON.stringify({ t: "done", stdout: Buffer.from("answer").toString("base64"), stderr: "", exitCode: 0 })}\n`),
          500
        )
      })
      try {
        const result = await ask(shell("claude", "ls"))
        expect(result.stderr.toString("utf8")).toBe("")
        expect(result.status).toBe(0)
        expect(result.stdout.toString("utf8")).toBe("answer")
      } finally {
        await stop(server)
      }
    }, 60_000)

    it("a last resort's texts are written as Node writes them: bytes that are not UTF-8 and a lone surrogate become U+FFFD", async () => {
      const line = Buffer.concat([
        Buffer.from('{"t":"accepted","guard":{"stdout":"a'),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('b\\ud800c","stderr":"","exitCode":2,"ms":0}}\n')
      ])
      // the fake daemon says nothing more: the last resort is due at once (ms 0)
      const server = await fake((write) => write(line))
      try {
        const result = await ask(shell("claude", "ls"))
        expect(result.status).toBe(2)
        expect(result.stdout).toStrictEqual(Buffer.from("a\ufffd\ufffdb\ufffdc"))
      } finally {
        await stop(server)
      }
    }, 60_000)

    it("a well-formed answer from the socket is the answer written (stdout, stderr bytes, exit status)", async () => {
      const server = await fake((write) => {
        write('{"t":"accepted"}\n')
        setTimeout(
          () =>
            write(
              `${JSON.stringify({ t: "done", stdout: Buffer.from("out\u0000\n").toString("base64"), stderr: Buffer.from([0xff, 0x0a]).toString("base64"), exitCode: 2 })}\n`
            ),
          100
        )
      })
      try {
        const result = await ask(shell("claude", "ls"))
        expect(result.status).toBe(2)
        expect(result.stdout).toStrictEqual(Buffer.from("out\u0000\n"))
        expect(result.stderr).toStrictEqual(Buffer.from([0xff, 0x0a]))
      } finally {
        await stop(server)
      }
    }, 60_000)
  })
}
