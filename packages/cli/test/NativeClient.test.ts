/**
 * The native client of the per-user daemon (`packages/cli/native/hook-client.c`, built here with the
 * machine's `cc` into this file's scratch folder, as `install --native` builds it), run as an agent
 * runs it, against the BUILT CLI's real daemon: every answer must be byte for byte the in-process
 * answer (`AGENT_HOOKS_DAEMON=0`), and a daemon that is missing, stale, not the user's own, busy,
 * killed mid-call or talking garbage is never used for the answer and never changes it.
 *
 * Which process answered is seen from the policy itself: a probe hook on PreToolUse writes its
 * parent's pid (the daemon, or the Node process that ran the call in-process).
 * `AGENT_HOOKS_NATIVE_SANITIZE=1` builds the client with AddressSanitizer and UBSan.
 */
import { spawn, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
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
import { daemonHarness, running, until } from "./daemonHarness.ts"
import type { Result } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-native-")
const linux = process.platform === "linux"
const hasCc = spawnSync("cc", ["--version"]).status === 0
const sanitize = process.env["AGENT_HOOKS_NATIVE_SANITIZE"] === "1"

const client = () => join(scratch(), "hook-client")

beforeAll(() => {
  if (!linux || !hasCc) return
  const real = realpathSync(bin)
  const built = buildClient(clientSource(real), client(), { node: process.execPath, bin: real, version: process.version }, { sanitize })
  if (!("ok" in built)) throw new Error(built.error)
})

const {
  home,
  folder,
  probe,
  env: daemonEnv,
  daemons,
  socketFile,
  spawners,
  killDaemons,
  policyFiles: withProbe
} = daemonHarness(scratch, join(fixtures, "hooks"))
// LeakSanitizer's report would be part of stderr: the client exits or exec's with its buffers held
const env = (daemon: boolean, extra: Record<string, string> = {}) => daemonEnv(daemon, { ASAN_OPTIONS: "detect_leaks=0", ...extra })
const policyFiles = () => withProbe(join(fixtures, "policy.json"))

/** The call through the native client (`native`), or in-process through Node with no daemon. */
const call = (args: ReadonlyArray<string>, stdin: string | Buffer, native: boolean, extra: Record<string, string> = {}): Result => {
  const result = spawnSync(native ? client() : node, native ? ["hook", ...args] : [bin, "hook", ...args], {
    input: stdin,
    cwd: scratch(),
    env: env(native, extra),
    encoding: "utf8",
    timeout: 25_000,
    maxBuffer: 64 * 1024 * 1024
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const lastSpawner = (): number | undefined => spawners().at(-1)

afterAll(async () => {
  if (linux) await killDaemons()
})

const hosts = ["claude", "codex", "gemini", "qwen"] as const
type Host = (typeof hosts)[number]
const shell = (host: Host, command: string): string => {
  const gemini = host === "gemini"
  const tool = gemini || host === "qwen" ? "run_shell_command" : "Bash"
  return JSON.stringify({
    session_id: "s",
    cwd: "/work/p",
    hook_event_name: gemini ? "BeforeTool" : "PreToolUse",
    tool_name: tool,
    tool_input: { command, description: "x" },
    ...(host === "codex" ? { model: "m", turn_id: "t", transcript_path: null, permission_mode: "default", tool_use_id: "u" } : {})
  })
}

/** A daemon that answers (started by a first call, which itself runs in-process). */
const answeringDaemon = async (): Promise<number> => {
  if (daemons().length === 0) {
    call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true)
    await until("the daemon's socket", () => socketFile() !== undefined && daemons().length > 0)
  }
  // One daemon, answering: a call that found a stale socket while the new daemon was starting
  // started another, which replaces the first one's socket when it is up (and the first one exits)
  await until(
    "one daemon answering",
    () => {
      call(["--host", "claude", ...policyFiles()], shell("claude", "ls"), true)
      const running = daemons()
      return running.length === 1 && lastSpawner() === running[0]
    },
    30_000
  )
  return lastSpawner()!
}

describe.runIf(linux && hasCc)(`the native client answers as the call in-process does${sanitize ? " (ASan, UBSan)" : ""}`, () => {
  it.each(hosts)(
    "%s: blocks, allows, JSON answers, flags, a 5 MB payload, input that is not JSON: through the daemon, byte for byte",
    async (host) => {
      const pid = await answeringDaemon()
      const settings = policyFiles()
      const inputs = [
        ...["rm -rf /", "echo JSONDENY", "echo ASKME", "echo REWRITEME", "ls", "echo \u0000\ud800 \u2028 ✓"].map((command) =>
          shell(host, command)
        ),
        "",
        "not json",
        // bytes that are not UTF-8, a NUL, a lone newline: the payload goes as bytes
        Buffer.from([0x7b, 0xff, 0x22, 0x00, 0xc3, 0x0a, 0xed, 0xa0, 0x80]),
        shell(host, `echo ${"x".repeat(5 * 1024 * 1024)}`)
      ]
      // A call the daemon does not accept within 1.5 s runs in-process (the same answer): on a loaded
      // machine, the 5 MB payload can. Every other call whose hooks ran is the daemon's.
      const inNode: Array<number> = []
      let viaDaemon = 0
      for (const [i, stdin] of inputs.entries()) {
        const args = ["--host", host, ...(i % 3 === 0 ? ["--ask", "deny", "--quiet"] : i % 3 === 1 ? ["--timeout", "30"] : []), ...settings]
        const inProcess = call(args, stdin, false)
        const before = spawners().length
        const native = call(args, stdin, true)
        expect(native, `${host} input ${i}`).toStrictEqual(inProcess)
        if (spawners().length > before) {
          if (lastSpawner() === pid) viaDaemon++
          else inNode.push(i)
        }
      }
      expect(
        inNode.filter((i) => i !== inputs.length - 1),
        "calls not answered by the daemon"
      ).toStrictEqual([])
      expect(viaDaemon).toBeGreaterThanOrEqual(6)
    },
    240_000
  )

  it("a command line host mode cannot read, --help, another subcommand: the same answer", async () => {
    await answeringDaemon()
    for (const args of [
      ["--host", "nope"],
      ["--host", "claude", "extra"],
      ["--host", "claude", "--help"]
    ])
      expect(call(args, shell("claude", "ls"), true)).toStrictEqual(call(args, shell("claude", "ls"), false))
    const version = spawnSync(client(), ["--version"], { env: env(true), encoding: "utf8" })
    expect(version.stdout).toBe(spawnSync(node, [bin, "--version"], { env: env(false), encoding: "utf8" }).stdout)
  }, 60_000)

  it("hostile environment, arguments and payload reach the hooks byte for byte, as through Node (property)", async () => {
    const pid = await answeringDaemon()
    const out = join(scratch(), "seen.bin")
    const settings = join(scratch(), "seen.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                {
                  type: "command",
                  command: `echo "$PPID" >> "$PROBE"; { printf '%s\\n--\\n' "$HOSTILE"; pwd; umask; cat; } > "${out}"; printf '%s' "$HOSTILE" >&2; exit 2`
                }
              ]
            }
          ]
        }
      })
    )
    // bytes as the shell's printf writes them (octal): any byte but NUL, invalid UTF-8 included
    const octal = (bytes: ReadonlyArray<number>) => bytes.map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("")
    const bytes = fc.array(
      fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 255 }), weight: 1 },
        {
          arbitrary: fc.constantFrom(0x22, 0x5c, 0x27, 0x0a, 0x0d, 0x1b, 0x7f, 0xc0, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0xff, 0xe2, 0x82, 0xac),
          weight: 1
        },
        { arbitrary: fc.constantFrom(0x22, 0x5c, 0x01, 0x1f), weight: 1 }
      ),
      { maxLength: 40 }
    )
    const run = (native: boolean, value: ReadonlyArray<number>, arg: ReadonlyArray<number> | undefined, command: string) => {
      rmSync(out, { force: true })
      const program = native ? `"$CLIENT"` : `"$NODE" "$BIN"`
      const result = spawnSync(
        "/bin/sh",
        [
          "-c",
          `umask 027; HOSTILE="$(printf '${octal(value)}x')"; export HOSTILE; exec ${program} hook --host claude --settings "$SETTINGS" --event ${arg === undefined ? "PreToolUse" : `"$(printf '${octal(arg)}x')"`} 2>&1`
        ],
        {
          input: shell("claude", command),
          cwd: scratch(),
          env: env(native, { CLIENT: client(), NODE: node, BIN: bin, SETTINGS: settings }),
          timeout: 25_000
        }
      )
      return { status: result.status, output: result.stdout, seen: existsSync(out) ? readFileSync(out) : undefined }
    }
    let viaDaemon = 0
    let inNode = 0
    await fc.assert(
      fc.asyncProperty(bytes, bytes, fc.string({ maxLength: 30 }), fc.boolean(), async (value, arg, command, withArg) => {
        const argBytes = withArg ? arg : undefined
        const inProcess = run(false, value, argBytes, command)
        const before = spawners().length
        const native = run(true, value, argBytes, command)
        expect(native.status).toBe(inProcess.status)
        expect(
          native.output.equals(inProcess.output),
          `${native.output.toString("latin1")}\n!==\n${inProcess.output.toString("latin1")}`
        ).toBe(true)
        expect(native.seen?.toString("hex")).toBe(inProcess.seen?.toString("hex"))
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

describe.runIf(linux && hasCc)("a daemon the native client cannot use: the call runs in-process, with the same answer", () => {
  const args = () => ["--host", "codex", ...policyFiles()]
  const same = (command: string, warning?: RegExp) => {
    const inProcess = call(args(), shell("codex", command), false)
    const native = call(args(), shell("codex", command), true)
    expect(native.status).toBe(inProcess.status)
    expect(native.stdout).toBe(inProcess.stdout)
    if (warning === undefined) expect(native.stderr).toBe(inProcess.stderr)
    else {
      expect(native.stderr).toMatch(warning)
      expect(native.stderr).toContain(inProcess.stderr)
    }
    return native
  }

  it("no daemon: in-process, and a daemon is started for the next call", async () => {
    await killDaemons()
    rmSync(join(home(), ".cache"), { recursive: true, force: true })
    same("rm -rf /")
    expect(lastSpawner()).not.toBe(undefined)
    await until("a daemon", () => daemons().length > 0 && socketFile() !== undefined)
    const pid = daemons()[0]!
    await until("the new daemon answering the native client", () => {
      call(args(), shell("codex", "ls"), true)
      return lastSpawner() === pid
    })
  }, 60_000)

  it("a stale socket nobody listens on: in-process, then a new daemon", async () => {
    await answeringDaemon()
    const socket = socketFile()!
    await killDaemons()
    expect(existsSync(socket)).toBe(true)
    same("echo JSONDENY")
    await until("a new daemon", () => daemons().length > 0)
  }, 60_000)

  it("a socket or folder that is not the user's own private one, or not a socket: refused, said on stderr", async () => {
    const pid = await answeringDaemon()
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
    const real = join(scratch(), "elsewhere")
    renameSync(folder(), real)
    symlinkSync(real, folder())
    refused(/not using the daemon: .* is a symlink/)
    rmSync(folder())
    renameSync(real, folder())
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
    await answeringDaemon()
  }, 60_000)

  it("busy with a call: another call at the same time runs in-process, once; both answered", async () => {
    const pid = await answeringDaemon()
    const file = join(scratch(), "slow.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: 'echo "$PPID" >> "$PROBE"; sleep 2; echo slow >&2; exit 2' }] }] }
      })
    )
    const run = () =>
      running(client(), ["hook", "--host", "claude", "--settings", file], { cwd: scratch(), env: env(true) }, shell("claude", "ls"))
    rmSync(probe(), { force: true })
    const [a, b] = await Promise.all([run(), run()])
    expect(a).toStrictEqual(b)
    expect(a.status).toBe(2)
    expect(a.stderr).toContain("slow")
    // the hook ran twice, not three times: the busy call was not sent to the daemon again
    expect(spawners()).toHaveLength(2)
    expect(spawners()).toContain(pid)
  }, 60_000)

  it("a daemon killed mid-call: said on stderr, and the call runs again in-process", async () => {
    const pid = await answeringDaemon()
    const file = join(scratch(), "killed.json")
    const marker = join(scratch(), "killed.started")
    rmSync(marker, { force: true })
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                {
                  type: "command",
                  command: `echo "$PPID" >> "$PROBE"; if [ ! -e "${marker}" ]; then touch "${marker}"; sleep 30; fi; echo second >&2; exit 2`
                }
              ]
            }
          ]
        }
      })
    )
    rmSync(probe(), { force: true })
    const child = spawn(client(), ["hook", "--host", "claude", "--settings", file], { cwd: scratch(), env: env(true) })
    let stderr = ""
    child.stderr.on("data", (d) => (stderr += d))
    child.stdin.end(shell("claude", "ls"))
    await until("the policy's hook started in the daemon", () => existsSync(marker))
    process.kill(pid, "SIGKILL")
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(status).toBe(2)
    expect(stderr).toBe(`${lostLine(true)}second\n`)
    expect(spawners()[0]).toBe(pid)
    expect(spawners()).toHaveLength(2)
    expect(spawners()[1]).not.toBe(pid)
  }, 60_000)
})

describe.runIf(linux && hasCc)("a daemon that talks garbage: the call runs in-process, with the same answer", () => {
  let contacted = 0
  /** A fake daemon on the real daemon's socket (its name: the one the clients use), answering `reply` to every request. */
  const fake = async (reply: (write: (text: string) => void, end: () => void) => void): Promise<Server> => {
    await answeringDaemon()
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
  /**
   * The native client (or Node's, `viaNode`) run without blocking this process (the fake daemon
   * answers from it).
   */
  const native = (
    stdin: string,
    viaNode = false
  ): Promise<{ readonly status: number | null; readonly stdout: Buffer; readonly stderr: Buffer }> =>
    new Promise((resolve) => {
      const args = ["hook", "--host", "claude", ...policyFiles()]
      const child = viaNode
        ? spawn(node, [bin, ...args], { cwd: scratch(), env: env(true) })
        : spawn(client(), args, { cwd: scratch(), env: env(true) })
      const stdout: Array<Buffer> = []
      const stderr: Array<Buffer> = []
      child.stdout.on("data", (d: Buffer) => stdout.push(d))
      child.stderr.on("data", (d: Buffer) => stderr.push(d))
      child.on("close", (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }))
      child.stdin.end(stdin)
    })
  const answers = async (warning: boolean, viaNode = false) => {
    const inProcess = call(["--host", "claude", ...policyFiles()], shell("claude", "rm -rf /"), false)
    const got = await native(shell("claude", "rm -rf /"), viaNode)
    expect({ status: got.status, stdout: got.stdout.toString("utf8"), stderr: got.stderr.toString("utf8") }).toStrictEqual({
      ...inProcess,
      stderr: `${warning ? lostLine(false) : ""}${inProcess.stderr}`
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
    ["deep nesting", `{"t":"accepted","x":${"[".repeat(100_000)}\n`, false],
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
        expect(contacted, "the native client asked the fake daemon").toBe(1)
        // Node's client reads the same daemon the same way (a done it cannot read is not the answer)
        await answers(warning, true)
        expect(contacted, "Node's client asked the fake daemon").toBe(2)
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

  it("a well-formed answer from the socket is the answer written (stdout, stderr bytes, exit status)", async () => {
    const server = await fake((write) => {
      write('{"t":"accepted"}\n')
      setTimeout(
        () =>
          write(
            `${JSON.stringify({ t: "done", stdout: Buffer.from("out\u0000\n").toString("base64"), stderr: Buffer.from([0xff, 0x0a]).toString("base64"), exitCode: 258 })}\n`
          ),
        100
      )
    })
    try {
      const result = await native(shell("claude", "ls"))
      expect(result.status).toBe(2)
      expect(result.stdout).toStrictEqual(Buffer.from("out\u0000\n"))
      expect(result.stderr).toStrictEqual(Buffer.from([0xff, 0x0a]))
    } finally {
      await stop(server)
    }
  }, 60_000)
})
