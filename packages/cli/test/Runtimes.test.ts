/**
 * The BUILT CLI (`packages/cli/dist/bin.js`) under the three runtimes: `node bin.js`,
 * `bun bin.js` and `deno run -A bin.js` get the same settings and the same stdin, and must give
 * the same outcome (stdout JSON without `durationMs`, exit status, stderr) for an allow, an exit-2
 * block, a JSON deny and a timeout; after the timeout no process of the hook survives.
 *
 * Runs in every lane: the runtime running the tests is used for its own column, the other two
 * are taken from PATH (the toolchain in `.tools/node_modules/.bin`).
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, cliEnv } from "./cliHarness.ts"

type Runtime = "node" | "bun" | "deno"
const runtimes: ReadonlyArray<Runtime> = ["node", "bun", "deno"]
const current: Runtime = typeof process.versions.bun === "string" ? "bun" : "Deno" in globalThis ? "deno" : "node"
const executable = (runtime: Runtime): string => (runtime === current ? process.execPath : runtime)
const argv = (runtime: Runtime, args: ReadonlyArray<string>): Array<string> =>
  runtime === "deno" ? ["run", "-A", bin, ...args] : [bin, ...args]

/** Alive and not a zombie (some hosts reap orphans ~1.7 s late). */
const isAlive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}
const waitUntilDead = async (pids: ReadonlyArray<number>, ms: number): Promise<Array<number>> => {
  const deadline = Date.now() + ms
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  return pids.filter(isAlive)
}

interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const exec = (runtime: Runtime, args: ReadonlyArray<string>, stdin: string, cwd: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const child = spawn(executable(runtime), argv(runtime, args), { cwd, env: cliEnv(), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(new Error(`could not start ${runtime}: ${error.message}`))
    })
    child.on("close", (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(stdin)
  })

/** The outcome with the timings removed, for comparing runtimes. */
const normalize = (result: Result): Record<string, unknown> => {
  const lines = result.stdout.split("\n").filter((line) => line !== "")
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toHaveLength(1)
  const outcome = JSON.parse(lines[0]!) as Record<string, unknown> & { hooks?: Array<Record<string, unknown>> }
  return {
    status: result.status,
    stderr: result.stderr,
    outcome: { ...outcome, hooks: (outcome.hooks ?? []).map(({ durationMs: _, ...hook }) => hook) }
  }
}

let scratch = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-runtimes-")))
})
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

/** Writes `hooks` as a settings file and runs `PreToolUse` with `payload` under the three runtimes, one after another. */
const runEverywhere = async (name: string, hooks: Array<Record<string, unknown>>, payload: unknown) => {
  const dir = join(scratch, name)
  const settings = join(dir, "settings.json")
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } }))
  const results = new Map<Runtime, Result>()
  for (const runtime of runtimes) {
    results.set(
      runtime,
      await exec(runtime, ["run", "PreToolUse", "--settings", settings, "--project-dir", dir], JSON.stringify(payload), dir)
    )
  }
  return { dir, results }
}

const expectSameEverywhere = (results: Map<Runtime, Result>) => {
  const node = normalize(results.get("node")!)
  for (const runtime of ["bun", "deno"] as const) {
    expect({ runtime, ...normalize(results.get(runtime)!) }).toEqual({ runtime, ...node })
  }
  return node as { status: number | null; stderr: string; outcome: Record<string, any> }
}

const bash = (command: string) => ({ tool_name: "Bash", tool_input: { command } })
const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra })

describe("the built CLI under node, bun and deno", () => {
  it("allow: exit 0, the payload reached the hook, same outcome everywhere", async () => {
    const { dir, results } = await runEverywhere(
      "allow",
      [hook(`cat >> "$AGENT_HOOKS_PROJECT_DIR/seen.jsonl"; echo >> "$AGENT_HOOKS_PROJECT_DIR/seen.jsonl"`)],
      bash("ls")
    )
    const same = expectSameEverywhere(results)
    expect(same.status).toBe(0)
    expect(same.outcome).toMatchObject({ event: "PreToolUse", blocked: false, decision: null })
    expect(same.outcome.hooks[0]).toMatchObject({ exitCode: 0, status: "success", timedOut: false })
    const seen = readFileSync(join(dir, "seen.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(seen).toHaveLength(3)
    for (const input of seen) expect(input).toMatchObject({ hook_event_name: "PreToolUse", ...bash("ls") })
  }, 60_000)

  it("exit-2 block: exit status 2, stderr as the reason, same outcome everywhere", async () => {
    const { results } = await runEverywhere("block", [hook("cat >/dev/null; echo 'rm -rf is not allowed' >&2; exit 2")], bash("rm -rf /"))
    const same = expectSameEverywhere(results)
    expect(same.status).toBe(2)
    expect(same.outcome).toMatchObject({ blocked: true, decision: "deny", reason: "rm -rf is not allowed" })
    expect(same.outcome.hooks[0]).toMatchObject({ exitCode: 2, status: "blocking-error" })
  }, 60_000)

  it("JSON deny: exit status 2, the hook's reason, same outcome everywhere", async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "use the API" }
    })
    const { results } = await runEverywhere("deny", [hook(`cat >/dev/null; printf '%s\\n' '${deny}'`)], bash("curl example.com"))
    const same = expectSameEverywhere(results)
    expect(same.status).toBe(2)
    expect(same.outcome).toMatchObject({ blocked: true, decision: "deny", reason: "use the API" })
  }, 60_000)

  it('detached async hooks whose script is missing (cd, bash -c, env, exec, "$CLAUDE_PROJECT_DIR"): each runtime\'s launcher logs exit 127 after run has exited', async () => {
    const dir = join(scratch, "detached")
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(join(dir, "sub"), { recursive: true })
    const shapes = [
      `"$CLAUDE_PROJECT_DIR"/missing.sh`,
      "cd sub && ./missing.sh",
      "bash -c ./missing.sh",
      "env FOO=1 ./missing.sh",
      "exec ./missing.sh"
    ]
    const logs = new Map<Runtime, string>()
    for (const runtime of runtimes) {
      const settings = join(dir, `${runtime}.json`)
      logs.set(runtime, join(dir, `${runtime}.jsonl`))
      writeFileSync(
        settings,
        JSON.stringify({
          executionLog: logs.get(runtime),
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: shapes.map((command) => hook(command, { async: true })) }] }
        })
      )
      const result = await exec(
        runtime,
        ["run", "PreToolUse", "--settings", settings, "--project-dir", dir],
        JSON.stringify(bash("ls")),
        dir
      )
      expect(result.status, `${runtime}: ${result.stderr}`).toBe(0)
    }
    const ended = (runtime: Runtime) =>
      existsSync(logs.get(runtime)!)
        ? readFileSync(logs.get(runtime)!, "utf8")
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((line) => line["detached"] === "ended")
        : []
    const deadline = Date.now() + 15_000
    while (runtimes.some((runtime) => ended(runtime).length < shapes.length) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100))
    for (const runtime of runtimes) {
      expect({
        runtime,
        ended: ended(runtime)
          .map((line) => [line["command"], line["exitCode"], line["status"]])
          .sort()
      }).toEqual({
        runtime,
        ended: shapes.map((command) => [command, 127, "non-blocking-error"]).sort()
      })
    }
  }, 90_000)

  it("timeout: the hook and its TERM-ignoring grandchildren are killed, fail-open, same outcome everywhere", async () => {
    const script = [
      "trap '' TERM",
      `(trap '' TERM; sleep 60) & echo $! >> "$AGENT_HOOKS_PROJECT_DIR/pids"`,
      `(trap '' TERM; sleep 60) & echo $! >> "$AGENT_HOOKS_PROJECT_DIR/pids"`,
      "printf ready",
      "while :; do sleep 1; done"
    ].join("\n")
    const { dir, results } = await runEverywhere("timeout", [hook(script, { timeout: 1 }), hook("echo quick")], bash("ls"))
    const same = expectSameEverywhere(results)
    expect(same.status).toBe(0)
    expect(same.outcome.blocked).toBe(false)
    expect(same.outcome.hooks[0]).toMatchObject({ timedOut: true, status: "cancelled", exitCode: null, signal: "SIGKILL", stdout: "ready" })
    expect(same.outcome.hooks[1]).toMatchObject({ status: "success", stdout: "quick\n" })
    const pids = readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number)
    expect(pids).toHaveLength(6)
    expect(await waitUntilDead(pids, 3_000)).toEqual([])
  }, 90_000)
})
