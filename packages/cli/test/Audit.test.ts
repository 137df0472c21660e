/**
 * `agent-hooks audit verify` and `audit show` on logs written by `agent-hooks run` (the BUILT CLI,
 * real hook scripts), and `run` exporting its spans to an OTLP receiver before it exits.
 */
import { spawn, spawnSync } from "node:child_process"
import { createHash, createHmac } from "node:crypto"
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, node, requireBuild } from "./cliHarness.ts"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"
import { OtlpReceiver } from "@agent-hooks/test-utils"

const blockRm = fileURLToPath(new URL("../../node/test/fixtures/block-rm.sh", import.meta.url))
const cleanups = Cleanups.register("agent-hooks-cli-audit-")

beforeAll(() => {
  requireBuild()
})

const cli = (args: ReadonlyArray<string>, options: { stdin?: string; env?: Record<string, string> } = {}) => {
  const result = spawnSync(node, [bin, ...args], {
    input: options.stdin ?? "",
    env: { ...process.env, NO_COLOR: "1", AGENT_HOOKS_AUDIT_KEY: "", OTEL_EXPORTER_OTLP_ENDPOINT: "", ...options.env },
    encoding: "utf8"
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** A project whose settings audit to `audit.jsonl`, after three `run`s (one blocked). */
const auditedRuns = (env: Record<string, string> = {}, commands: ReadonlyArray<string> = ["ls", "rm -rf /", "git status"]) =>
  auditedRunsIn(cleanups.tempDir(), env, commands)

const auditedRunsIn = (
  dir: string,
  env: Record<string, string> = {},
  commands: ReadonlyArray<string> = ["ls", "rm -rf /", "git status"]
) => {
  const settings = join(dir, "settings.json")
  writeFileSync(
    settings,
    JSON.stringify({
      auditLog: "audit.jsonl",
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
    })
  )
  for (const command of commands) {
    cli(["run", "PreToolUse", "--settings", settings, "--project-dir", dir], {
      stdin: JSON.stringify({ tool_name: "Bash", tool_input: { command } }),
      env
    })
  }
  return join(dir, "audit.jsonl")
}

/**
 * `auditedRuns()` (no key, the three default commands) is run once per file; each test gets its own
 * copy of that project (settings, log, head file) to read or tamper with.
 */
let template: string | undefined
const copyOfAuditedRuns = (): string => {
  template ??= auditedRunsIn(realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cli-audit-runs-"))))
  const dir = cleanups.tempDir()
  cpSync(dirname(template), dir, { recursive: true })
  return join(dir, "audit.jsonl")
}
afterAll(() => {
  if (template !== undefined) rmSync(dirname(template), { recursive: true, force: true })
})

describe("agent-hooks audit", () => {
  it("verify passes on what run wrote, with the key checking every checkpoint", () => {
    const log = auditedRuns({ AGENT_HOOKS_AUDIT_KEY: "team-key" })
    const result = cli(["audit", "verify", log], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    // Three runs, three writers: open checkpoint, hook, outcome, close checkpoint each.
    expect(result.stdout).toContain(`${log}: 12 records, 3 writers, 6 checkpoints (signatures checked)`)
    expect(result.stdout).toContain("ok: no record was edited, inserted, deleted or reordered")
  })

  it("verify names the first edited line and exits 1; --json gives the report", () => {
    const log = copyOfAuditedRuns()
    const lines = readFileSync(log, "utf8").split("\n")
    // The blocked run's hook record (second run: lines 3 and 4) now claims success.
    expect(lines[2]).toContain('"status":"blocking-error"')
    lines[2] = lines[2]!.replace('"status":"blocking-error"', '"status":"success"')
    writeFileSync(log, lines.join("\n"))
    const result = cli(["audit", "verify", log])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`agent-hooks: ${log}:3: line 3 (writer w-`)
    expect(result.stderr).toContain("was edited: its content does not match its hash")
    const json = cli(["audit", "verify", "--json", log])
    expect(json.status).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, records: 6, problems: [{ line: 3, kind: "edited" }] })
  })

  it("verify with the key reports a chain that has no signed checkpoint", () => {
    const log = copyOfAuditedRuns()
    const result = cli(["audit", "verify", log], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("checkpoint-missing")
  })

  it("show prints one line per record, --json one object per record", () => {
    const log = copyOfAuditedRuns()
    const text = cli(["audit", "show", log])
    expect(text.status).toBe(0)
    const lines = text.stdout.trim().split("\n")
    expect(lines).toHaveLength(6)
    expect(lines[2]).toMatch(
      /^ {4}3 {2}\S+Z {2}w-[0-9a-f]+#1 {2}hook {5}PreToolUse\(Bash\) {2}".*block-rm\.sh" {2}blocking-error {2}exit 2 {2}decision deny/
    )
    expect(lines[3]).toContain('outcome  PreToolUse(Bash)  BLOCKED  decision deny  1 hook  reason "rm -rf is not allowed here"')
    const json = cli(["audit", "show", "--json", log])
    const records = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(records.map((r) => [r.line, r.kind])).toEqual([
      [1, "hook"],
      [2, "outcome"],
      [3, "hook"],
      [4, "outcome"],
      [5, "hook"],
      [6, "outcome"]
    ])
  })

  it("without FILE, reads the auditLog the settings name", () => {
    const log = copyOfAuditedRuns()
    const settings = join(log, "..", "settings.json")
    const result = cli(["audit", "verify", "--settings", settings])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`${log}: 6 records, 3 writers, no checkpoints`)
    const shown = cli(["audit", "show", "--json", "--settings", settings])
    expect(shown.stdout.trim().split("\n")).toHaveLength(6)
    const dir = cleanups.tempDir()
    writeFileSync(join(dir, "plain.json"), JSON.stringify({ hooks: {} }))
    const none = cli(["audit", "verify", "--settings", join(dir, "plain.json")])
    expect(none.status).toBe(1)
    expect(none.stderr).toContain(`agent-hooks: no FILE given, and the settings set no auditLog (read: ${join(dir, "plain.json")})`)
  })

  it("run: a record the audit trail could not write is one stderr line per record, --quiet included, and in the Outcome", () => {
    const dir = cleanups.tempDir()
    const settings = join(dir, "settings.json")
    // /dev/full takes the open and refuses every write.
    writeFileSync(
      settings,
      JSON.stringify({
        auditLog: "/dev/full",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "cat >/dev/null" }] }] }
      })
    )
    const run = cli(["run", "PreToolUse", "--quiet", "--settings", settings, "--project-dir", dir], {
      stdin: JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
    })
    expect(run.status).toBe(0)
    const gaps = (JSON.parse(run.stdout) as { warnings: Array<string> }).warnings.filter((w) => w.startsWith("audit record not written"))
    expect(gaps.length).toBeGreaterThan(0)
    expect(run.stderr.split("\n").filter((line) => line.includes("audit record not written"))).toEqual(
      gaps.map((gap) => `agent-hooks: warning: ${gap}`)
    )
  })

  it("a missing file is a clear error", () => {
    const result = cli(["audit", "verify", "/nonexistent/audit.jsonl"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("agent-hooks: /nonexistent/audit.jsonl: cannot read the audit log")
  })
})

describe("agent-hooks run with OpenTelemetry", () => {
  it("exports the dispatch's spans before it exits", async () => {
    const otlp = await OtlpReceiver.start()
    try {
      const dir = cleanups.tempDir()
      const settings = join(dir, "settings.json")
      writeFileSync(
        settings,
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] } })
      )
      // Asynchronous: the receiver answers from this same process.
      const child = spawn(node, [bin, "run", "PreToolUse", "--settings", settings], {
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: "ci-agent" },
        stdio: ["pipe", "pipe", "pipe"]
      })
      child.stdin.end(JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } }))
      let stdout = ""
      child.stdout.on("data", (chunk) => (stdout += chunk))
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve))
      expect(status).toBe(2)
      expect(JSON.parse(stdout)).toMatchObject({ blocked: true })
      // Sent before the exit: nothing is waited for here.
      const names = otlp.spans.map((span) => span.name).sort()
      expect(names).toEqual(["agent-hooks PreToolUse", "agent-hooks hook command"])
      expect(otlp.spans[0]!.resource["service.name"]).toBe("ci-agent")
    } finally {
      await otlp.close()
    }
  })
})

describe("agent-hooks run exporting the audit trail (AGENT_HOOKS_AUDIT_OTLP), audit verify --otlp", () => {
  /** One `run` of the built CLI, asynchronously: the receiver answers from this same process. */
  const runAsync = (settings: string, dir: string, command: string, env: Record<string, string>) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(node, [bin, "run", "PreToolUse", "--settings", settings, "--project-dir", dir], {
        env: { ...process.env, NO_COLOR: "1", AGENT_HOOKS_AUDIT_KEY: "team-key", OTEL_EXPORTER_OTLP_ENDPOINT: "", ...env },
        stdio: ["pipe", "ignore", "pipe"]
      })
      child.stdin.end(JSON.stringify({ session_id: "s-1", tool_name: "Bash", tool_input: { command } }))
      let stderr = ""
      child.stderr.on("data", (chunk) => (stderr += chunk))
      child.on("close", (status) => resolve({ status, stderr }))
    })

  it("each run sends its records before it exits; verify --otlp checks them from the collector's file, and catches a dropped or flipped record", async () => {
    const otlp = await OtlpReceiver.start()
    try {
      const dir = cleanups.tempDir()
      const settings = join(dir, "settings.json")
      writeFileSync(
        settings,
        JSON.stringify({
          auditLog: "audit.jsonl",
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
        })
      )
      for (const command of ["ls", "rm -rf /"]) {
        const run = await runAsync(settings, dir, command, { AGENT_HOOKS_AUDIT_OTLP: `${otlp.url}/v1/logs` })
        expect(run.stderr).not.toContain("audit export")
      }
      // Sent before each exit: eight records (two runs: open, hook, outcome, close) and two heads, nothing waited for.
      expect(otlp.logs).toHaveLength(10)
      expect(otlp.logs.filter((l) => l.eventName !== "agent_hooks.audit.head").map((l) => l.body)).toEqual(
        readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n")
      )
      // The collector's file exporter: one OTLP/JSON payload per line.
      const exported = join(dir, "audit-export.jsonl")
      writeFileSync(exported, otlp.logPayloads.map((text) => JSON.stringify(JSON.parse(text))).join("\n") + "\n")
      const ok = cli(["audit", "verify", "--otlp", exported], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
      expect(ok.stderr).toBe("")
      expect(ok.status).toBe(0)
      expect(ok.stdout).toContain(
        `${exported} (OTLP export): ${otlp.logPayloads.length} payloads, 8 records, 2 writers, 4 checkpoints (signatures checked), 2 heads`
      )
      expect(ok.stdout).toContain("ok: no exported record was edited, dropped or forged")

      // The blocked run's outcome flipped to allowed, in the exported stream.
      const flipped = join(dir, "flipped.jsonl")
      writeFileSync(flipped, readFileSync(exported, "utf8").replace('\\"blocked\\":true', '\\"blocked\\":false'))
      expect(readFileSync(flipped, "utf8")).not.toBe(readFileSync(exported, "utf8"))
      const caught = cli(["audit", "verify", "--otlp", flipped], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
      expect(caught.status).toBe(1)
      expect(caught.stderr).toMatch(
        new RegExp(
          `^agent-hooks: ${flipped}:\\d+: payload line \\d+, record \\d+ \\(writer w-[0-9a-f]{16}, seq 3\\) was edited: its content does not match its hash`
        )
      )

      // A whole payload (one run's batch) dropped: the heads and links no longer add up.
      const lines = readFileSync(exported, "utf8").trim().split("\n")
      const dropped = join(dir, "dropped.jsonl")
      writeFileSync(dropped, `${lines.slice(1).join("\n")}\n`)
      const gone = cli(["audit", "verify", "--otlp", dropped, "--json"], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
      expect(gone.status).toBe(1)
      expect(JSON.parse(gone.stdout)).toMatchObject({ ok: false, problems: [{ kind: "deleted" }] })

      // Not an export: said, with the line.
      const wrong = cli(["audit", "verify", "--otlp", join(dir, "audit.jsonl")])
      expect(wrong.status).toBe(1)
      expect(wrong.stderr).toContain(`${join(dir, "audit.jsonl")}:1: line 1 is not an OTLP logs payload (no "resourceLogs" array)`)
      expect(cli(["audit", "verify", join(dir, "audit.jsonl"), "--otlp", exported]).stderr).toContain(
        "give either an audit log (FILE) or --otlp FILE, not both"
      )
    } finally {
      await otlp.close()
    }
  })

  it("a collector that is down does not hold back the run or touch the local log; the run says what was not exported", async () => {
    const otlp = await OtlpReceiver.start({ status: 503 })
    try {
      const dir = cleanups.tempDir()
      const settings = join(dir, "settings.json")
      writeFileSync(settings, JSON.stringify({ auditLog: "audit.jsonl", hooks: {} }))
      const run = await runAsync(settings, dir, "ls", { AGENT_HOOKS_AUDIT_OTLP: `${otlp.url}/v1/logs` })
      expect(run.status).toBe(0)
      expect(run.stderr).toContain(`agent-hooks: warning: audit export to ${otlp.url}/v1/logs: failed (HTTP 503)`)
      expect(run.stderr).toMatch(
        /4 records were not exported before the writer closed \(HTTP 503\); they are in the local log .*audit\.jsonl only/
      )
      expect(cli(["audit", "verify", join(dir, "audit.jsonl")], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } }).status).toBe(0)
    } finally {
      await otlp.close()
    }
  })
})

/** SHA-256 (hex) of a line as the trail seals it: the line without its last member `,"hash":"…"`. */
const sealed = (body: string): string => createHash("sha256").update(body).digest("hex")

/** Rewrites one writer's chain from `from` (a line index) on with fresh hashes, as someone who can write the file would. */
const rehashChain = (lines: Array<string>, writer: string) => {
  let prev: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const record = JSON.parse(lines[i]!)
    if (record.writer !== writer) continue
    if (prev !== undefined) record.prev = prev
    delete record.hash
    const body = JSON.stringify(record)
    prev = sealed(body)
    lines[i] = `${body.slice(0, -1)},"hash":"${prev}"}`
  }
}

const KEY = { AGENT_HOOKS_AUDIT_KEY: "team-key" }

/** Three `run`s through a guard on Bash, each blocked, audited with the key. */
const threeRuns = () => {
  const log = auditedRuns(KEY, ["rm -rf /tmp/x", "rm -rf /", "rm -rf ~"])
  const lines = readFileSync(log, "utf8").trimEnd().split("\n")
  const writers = [...new Set(lines.map((line) => JSON.parse(line).writer as string))]
  expect(writers).toHaveLength(3)
  const verify = () => cli(["audit", "verify", log], { env: KEY })
  expect(verify().status).toBe(0)
  return { log, lines, writers, verify, write: (next: ReadonlyArray<string>) => writeFileSync(log, `${next.join("\n")}\n`) }
}

describe("agent-hooks audit: every tool call, from a compliance officer's side", () => {
  /** A project that audits every call; its only hook guards Write. */
  const project = () => {
    const dir = cleanups.tempDir()
    const settings = join(dir, "settings.json")
    writeFileSync(
      settings,
      JSON.stringify({
        auditLog: "audit.jsonl",
        hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
      })
    )
    const run = (event: string, payload: Record<string, unknown>, env: Record<string, string> = KEY) =>
      cli(["run", event, "--settings", settings], { stdin: JSON.stringify(payload), env })
    return { dir, settings, log: join(dir, "audit.jsonl"), run }
  }
  const records = (log: string) =>
    readFileSync(log, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))

  it("a tool call no hook matches is in the trail with its session, tool name and arguments, and verify passes", () => {
    const p = project()
    const ran = p.run("PreToolUse", { session_id: "s-audit", tool_name: "Bash", tool_input: { command: "git push origin main" } })
    expect(ran.status).toBe(0)
    expect(JSON.parse(ran.stdout)).toMatchObject({ blocked: false, hooks: [] })
    p.run("UserPromptSubmit", { session_id: "s-audit", prompt: "push it to main" })
    const dispatches = records(p.log).filter((record) => record.kind === "outcome")
    expect(dispatches).toMatchObject([
      {
        session: "s-audit",
        event: "PreToolUse",
        tool: "Bash",
        input: { command: "git push origin main" },
        blocked: false,
        hooks: 0,
        cut: [],
        redacted: []
      },
      { session: "s-audit", event: "UserPromptSubmit", tool: null, input: "push it to main", blocked: false, hooks: 0 }
    ])
    for (const record of dispatches) expect(Date.parse(record.time)).not.toBeNaN()
    const verified = cli(["audit", "verify", p.log], { env: KEY })
    expect(verified.stdout).toContain("ok: no record was edited")
    expect(verified.status).toBe(0)
    const shown = cli(["audit", "show", p.log, "--tool", "Bash"])
    expect(shown.stdout.trim().split("\n")).toHaveLength(1)
    expect(shown.stdout).toContain(
      'outcome  PreToolUse(Bash)  allowed  decision -  0 hooks  session s-audit  tool Bash  input {"command":"git push origin main"}'
    )
  })

  it("a secret in the arguments appears in no record, and verify still passes", () => {
    const p = project()
    const secrets = [
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      "hunter2hunter2",
      "s3cr3t-in-url",
      "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"
    ]
    const command = `AWS_ACCESS_KEY_ID=${secrets[0]} git push https://me:${secrets[3]}@example.com/x.git && mysql --password ${secrets[2]} && echo ${secrets[4]}`
    p.run("PreToolUse", { session_id: "s-secret", tool_name: "Bash", tool_input: { command, env: { GITHUB_TOKEN: secrets[1] } } })
    // A hook that echoes the secret into its reason: the reason is redacted too.
    p.run("PreToolUse", { session_id: "s-secret", tool_name: "Write", tool_input: { file_path: "x", content: `rm -rf / ${secrets[1]}` } })
    const text = readFileSync(p.log, "utf8")
    for (const secret of secrets) expect(text).not.toContain(secret)
    const bash = records(p.log).find((record) => record.kind === "outcome" && record.tool === "Bash")
    expect(bash.input.command).toContain("git push https://me:[REDACTED:url-password]@example.com/x.git")
    expect(bash.input.env).toEqual({ GITHUB_TOKEN: "[REDACTED:secret-key]" })
    expect(bash.redacted).toEqual(expect.arrayContaining(["aws-access-key-id", "url-password", "secret-flag", "api-key", "secret-key"]))
    const verified = cli(["audit", "verify", p.log], { env: KEY })
    expect(verified.status).toBe(0)
  })

  it("a long argument is cut with its length and the SHA-256 of the whole, so whoever has it can show it is the one recorded", () => {
    const p = project()
    const content = "x".repeat(10_000) + "END"
    p.run("PostToolUse", { session_id: "s-big", tool_name: "Write", tool_input: { file_path: "big.txt", content }, tool_response: {} })
    const record = records(p.log).find((r) => r.kind === "outcome")
    expect(record.input.content).toHaveLength(4096)
    expect(record.cut).toEqual([
      {
        path: "input.content",
        chars: 10_003,
        sha256: createHash("sha256").update(content).digest("hex"),
        why: expect.stringContaining("4096")
      }
    ])
    expect(cli(["audit", "verify", p.log], { env: KEY }).status).toBe(0)
  })

  it("the settings' auditRedact patterns redact too; a bad pattern is named where it is", () => {
    const p = project()
    writeFileSync(p.settings, JSON.stringify({ auditLog: "audit.jsonl", auditRedact: ["ticket-[0-9]{4}", "(unclosed"] }))
    const ran = p.run("PreToolUse", { tool_name: "Bash", tool_input: { command: "echo ticket-1234" } })
    expect(ran.stderr).toContain(`${p.settings} at auditRedact[1]: redaction pattern "(unclosed" is not a regular expression`)
    expect(readFileSync(p.log, "utf8")).not.toContain("ticket-1234")
    expect(readFileSync(p.log, "utf8")).toContain("echo [REDACTED:custom-1]")
  })

  it("show filters by session, tool and time; --json gives the same records whole", () => {
    const p = project()
    p.run("PreToolUse", { session_id: "s-a", tool_name: "Bash", tool_input: { command: "ls" } })
    p.run("PreToolUse", { session_id: "s-b", tool_name: "Write", tool_input: { file_path: "f", content: "rm -rf /" } })
    p.run("PreToolUse", { session_id: "s-b", tool_name: "Bash", tool_input: { command: "pwd" } })
    const json = (args: ReadonlyArray<string>) =>
      cli(["audit", "show", p.log, "--json", ...args])
        .stdout.trim()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l))
    expect(json(["--session", "s-b"]).map((r) => [r.kind, r.tool])).toEqual([
      ["hook", "Write"],
      ["outcome", "Write"],
      ["outcome", "Bash"]
    ])
    expect(json(["--session", "s-b", "--tool", "Bash"]).map((r) => r.input)).toEqual([{ command: "pwd" }])
    expect(json(["--since", "2999-01-01"])).toEqual([])
    expect(json(["--until", "2999-01-01"]).filter((r) => r.kind === "outcome")).toHaveLength(3)
    const bad = cli(["audit", "show", p.log, "--since", "yesterday"])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('--since: expected an ISO 8601 date or time (2026-11-25, 2026-11-25T10:00:00Z), got "yesterday"')
  })
})

describe("agent-hooks audit verify: evidence removed or rewritten", () => {
  it("a whole run deleted from the middle is caught", () => {
    const t = threeRuns()
    t.write(t.lines.filter((line) => JSON.parse(line).writer !== t.writers[1]))
    const result = t.verify()
    expect(result.status).toBe(1)
    expect(result.stdout).toContain(`deleted: line 5 (writer ${t.writers[2]}, seq 1) was written right after record`)
  })

  it("the last run deleted is caught by the head file; the head file deleted is caught too", () => {
    const t = threeRuns()
    t.write(t.lines.filter((line) => JSON.parse(line).writer !== t.writers[2]))
    const result = t.verify()
    expect(result.status).toBe(1)
    expect(result.stdout).toContain(`the log's head file names writer ${t.writers[2]}'s record 4`)
    rmSync(`${t.log}.head`)
    const headless = t.verify()
    expect(headless.status).toBe(1)
    expect(headless.stdout).toContain("head-missing: the log's head file is missing")
  })

  it("a log cut back to an earlier state, with the head file of that state put back, passes locally; the head shipped off the machine catches it", () => {
    const t = threeRuns()
    // The attacker kept the log and head of two runs ago, and puts them back after the third run.
    const shipped = join(t.log, "..", "shipped.head")
    writeFileSync(shipped, readFileSync(`${t.log}.head`))
    const firstRun = t.lines.filter((line) => JSON.parse(line).writer === t.writers[0])
    t.write(firstRun)
    const first = JSON.parse(firstRun.at(-1)!)
    const oldHead = JSON.parse(readFileSync(`${t.log}.head`, "utf8"))
    // An old head names the first run's close checkpoint: forged here with the key, as a saved copy would be.
    const mac = createHmac("sha256", KEY.AGENT_HOOKS_AUDIT_KEY)
      .update(`agent-hooks audit head v1\n${first.writer}\n${first.seq}\n${first.hash}`)
      .digest("hex")
    writeFileSync(`${t.log}.head`, JSON.stringify({ ...oldHead, writer: first.writer, seq: first.seq, hash: first.hash, mac }))
    expect(t.verify().status).toBe(0)
    const against = cli(["audit", "verify", t.log, "--head", shipped], { env: KEY })
    expect(against.status).toBe(1)
    expect(against.stdout).toContain(`the log's head file names writer ${t.writers[2]}'s record 4`)
  })

  it.each([0, 1, 2])(
    "with the key, run %i's BLOCKED record flipped to allowed, rehashed and its close checkpoint dropped, is caught",
    (run) => {
      const t = threeRuns()
      const lines = [...t.lines]
      const writer = t.writers[run]!
      const at = lines.findIndex((line) => line.includes(`"writer":"${writer}"`) && line.includes('"kind":"outcome"'))
      expect(lines[at]).toContain('"blocked":true')
      lines[at] = lines[at]!.replace('"blocked":true', '"blocked":false').replace('"decision":"deny"', '"decision":null')
      rehashChain(lines, writer)
      const close = lines.findIndex((line) => line.includes(`"writer":"${writer}"`) && line.includes('"reason":"close"'))
      lines.splice(close, 1)
      t.write(lines)
      const result = t.verify()
      expect(result.status).toBe(1)
      expect(result.stdout).toMatch(/deleted: .*(written right after record|head file names)/)
    }
  )
})

describe("agent-hooks serve feeds the audit trail", () => {
  it("records every request, matched or not, in one chain closed on EOF, and verifies with its head", async () => {
    const dir = cleanups.tempDir()
    const settings = join(dir, "settings.json")
    writeFileSync(
      settings,
      JSON.stringify({
        auditLog: "audit.jsonl",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
      })
    )
    const child = spawn(node, [bin, "serve", "--settings", settings, "--project-dir", dir], {
      env: { ...process.env, NO_COLOR: "1", ...KEY },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (chunk) => (out += chunk))
    const requests = [
      { id: 1, event: "PreToolUse", payload: { session_id: "agent-a", tool_name: "Bash", tool_input: { command: "rm -rf /" } } },
      {
        id: 2,
        event: "PreToolUse",
        payload: { session_id: "agent-b", tool_name: "WebFetch", tool_input: { url: "https://example.com/?token=abc123secret" } }
      }
    ]
    for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`)
    // Answers first, then EOF: the server closes its writer (closing checkpoint, head file) and exits.
    while (out.split("\n").filter((line) => line.includes('"outcome"')).length < 2) await new Promise((resolve) => setTimeout(resolve, 50))
    child.stdin.end()
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0)
    const log = join(dir, "audit.jsonl")
    const records = readFileSync(log, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(new Set(records.map((record) => record.writer)).size).toBe(1)
    expect(records.filter((record) => record.kind === "outcome")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ session: "agent-a", tool: "Bash", input: { command: "rm -rf /" }, blocked: true }),
        expect.objectContaining({
          session: "agent-b",
          tool: "WebFetch",
          input: { url: "https://example.com/?token=[REDACTED:secret-assignment]" },
          hooks: 0
        })
      ])
    )
    expect(records.at(-1)).toMatchObject({ kind: "checkpoint", reason: "close" })
    const verified = cli(["audit", "verify", log], { env: KEY })
    expect(verified.stdout).toContain("head file checked")
    expect(verified.status).toBe(0)
  })
})

describe("agent-hooks audit verify: twelve writers at once (parallel tool calls)", () => {
  /** `count` `run`s started together, each blocked by the guard; resolves with their exit codes. */
  const parallelRuns = (count: number, env: Record<string, string>) => {
    const dir = cleanups.tempDir()
    const settings = join(dir, "settings.json")
    writeFileSync(
      settings,
      JSON.stringify({
        auditLog: "audit.jsonl",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
      })
    )
    const one = (i: number) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(node, [bin, "run", "PreToolUse", "--settings", settings, "--project-dir", dir], {
          env: { ...process.env, NO_COLOR: "1", AGENT_HOOKS_AUDIT_KEY: "", OTEL_EXPORTER_OTLP_ENDPOINT: "", ...env },
          stdio: ["pipe", "ignore", "ignore"]
        })
        child.on("error", reject)
        child.on("close", (code) => resolve(code))
        child.stdin.end(JSON.stringify({ session_id: `s-${i}`, tool_name: "Bash", tool_input: { command: `rm -rf /srv/${i}` } }))
      })
    return Promise.all(Array.from({ length: count }, (_, i) => one(i))).then((codes) => ({ codes, log: join(dir, "audit.jsonl") }))
  }

  it.each([
    ["without the key", {}],
    ["with the key", KEY]
  ] as const)("%s: every one of 12 blocked chains written at once, deleted, fails verify", async (_, env) => {
    const { codes, log } = await parallelRuns(12, env)
    expect(codes).toEqual(Array.from({ length: 12 }, () => 2))
    const lines = readFileSync(log, "utf8").trimEnd().split("\n")
    const writers = [...new Set(lines.map((line) => JSON.parse(line).writer as string))]
    expect(writers).toHaveLength(12)
    const verify = () => cli(["audit", "verify", log], { env })
    expect(verify().stdout).toContain("ok: no record was edited")
    const passed: Array<string> = []
    for (const writer of writers) {
      writeFileSync(log, `${lines.filter((line) => JSON.parse(line).writer !== writer).join("\n")}\n`)
      const result = verify()
      if (result.status !== 1 || !/deleted: /.test(result.stdout)) passed.push(writer)
    }
    // Not one of the 12 chains can go unseen.
    expect(passed).toEqual([])
  })
})
