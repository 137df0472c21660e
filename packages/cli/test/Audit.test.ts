/**
 * `agent-hooks audit verify` and `audit show` on logs written by `agent-hooks run` (the BUILT CLI,
 * real hook scripts), and `run` exporting its spans to an OTLP receiver before it exits.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"
import { OtlpReceiver } from "@agent-hooks/test-utils"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const blockRm = fileURLToPath(new URL("../../node/test/fixtures/block-rm.sh", import.meta.url))
const isNode = typeof process.versions.bun !== "string" && typeof process.versions.deno !== "string" &&
  /^node(\.exe)?$/i.test(basename(process.execPath))
const node = isNode ? process.execPath : "node"
const cleanups = Cleanups.register("agent-hooks-cli-audit-")

beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
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
const auditedRuns = (env: Record<string, string> = {}) => {
  const dir = cleanups.tempDir()
  const settings = join(dir, "settings.json")
  writeFileSync(settings, JSON.stringify({ auditLog: "audit.jsonl", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] } }))
  for (const command of ["ls", "rm -rf /", "git status"]) {
    cli(["run", "PreToolUse", "--settings", settings, "--project-dir", dir], { stdin: JSON.stringify({ tool_name: "Bash", tool_input: { command } }), env })
  }
  return join(dir, "audit.jsonl")
}

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
    const log = auditedRuns()
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
    const log = auditedRuns()
    const result = cli(["audit", "verify", log], { env: { AGENT_HOOKS_AUDIT_KEY: "team-key" } })
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("checkpoint-missing")
  })

  it("show prints one line per record, --json one object per record", () => {
    const log = auditedRuns()
    const text = cli(["audit", "show", log])
    expect(text.status).toBe(0)
    const lines = text.stdout.trim().split("\n")
    expect(lines).toHaveLength(6)
    expect(lines[2]).toMatch(/^ {4}3 {2}\S+Z {2}w-[0-9a-f]+#1 {2}hook {5}PreToolUse\(Bash\) {2}".*block-rm\.sh" {2}blocking-error {2}exit 2 {2}decision deny/)
    expect(lines[3]).toContain('outcome  PreToolUse(Bash)  BLOCKED  decision deny  1 hook  reason "rm -rf is not allowed here"')
    const json = cli(["audit", "show", "--json", log])
    const records = json.stdout.trim().split("\n").map((line) => JSON.parse(line))
    expect(records.map((r) => [r.line, r.kind])).toEqual([[1, "hook"], [2, "outcome"], [3, "hook"], [4, "outcome"], [5, "hook"], [6, "outcome"]])
  })

  it("without FILE, reads the auditLog the settings name", () => {
    const log = auditedRuns()
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
      writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] } }))
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
