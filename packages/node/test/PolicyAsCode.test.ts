/**
 * Policy engines as hooks: an `http` hook with `api: "opa"` against a server that speaks OPA's
 * Data API (the fixed policy of docs/policy-as-code.md).
 */
import { afterEach, describe, expect, it } from "vitest"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createHookEngine } from "@agent-hooks/node"
import type { NodeEngineOptions } from "@agent-hooks/node"
import { OpaServer } from "@agent-hooks/test-utils"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
const engineWith = async (settings: object, options: NodeEngineOptions = {}) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-policy-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify(settings))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, ...options })
  cleanups.push(() => engine.close())
  return engine
}
const opa = async () => {
  const server = await OpaServer.start()
  cleanups.push(() => server.close())
  return server
}
const opaHook = (url: string, extra: object = {}) => ({ hooks: { PreToolUse: [{ hooks: [{ type: "http", api: "opa", url, ...extra }] }] } })
const bash = (command: string) => ({ tool_name: "Bash", tool_input: { command } })

describe("http hooks with api: opa (OPA's Data API)", () => {
  it("sends {input: <hook input>} and reads a boolean allow: true is no objection, false blocks", async () => {
    const server = await opa()
    const engine = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/allow`))
    const ok = await engine.dispatch("PreToolUse", bash("ls -la"))
    expect(ok).toMatchObject({ blocked: false, warnings: [] })
    const no = await engine.dispatch("PreToolUse", bash("rm -rf /"))
    expect(no.blocked).toBe(true)
    expect(no.reason).toContain("denied by the OPA policy at")
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/data/agent_hooks/pretooluse/allow", body: { input: { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la" } } } })
  })

  it("reads a deny set: its reasons are the block's reason; an empty set is no objection", async () => {
    const server = await opa()
    const engine = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/deny`))
    expect(await engine.dispatch("PreToolUse", bash("echo hi"))).toMatchObject({ blocked: false, warnings: [] })
    const no = await engine.dispatch("PreToolUse", bash("rm -rf build"))
    expect(no).toMatchObject({ blocked: true, reason: "rm -rf is not allowed: rm -rf build" })
  })

  it("reads a decision object {allow, deny}, and the whole package document, which has both", async () => {
    const server = await opa()
    for (const path of ["agent_hooks/pretooluse/decision", "agent_hooks/pretooluse"]) {
      const engine = await engineWith(opaHook(`${server.url}/v1/data/${path}`))
      expect(await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: { file_path: "src/a.ts" } })).toMatchObject({ blocked: false })
      const no = await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: { file_path: "/repo/.git/config" } })
      expect(no).toMatchObject({ blocked: true, reason: "no writes under .git/: /repo/.git/config" })
    }
  })

  it("an undefined result ({}) is never an allow: it blocks, or with onUndefined: fail is a visible failure", async () => {
    const server = await opa()
    const url = `${server.url}/v1/data/agent_hooks/pretooluse/allow_read`
    const read = { tool_name: "Read", tool_input: { file_path: "a" } }
    const blocking = await engineWith(opaHook(url))
    expect(await blocking.dispatch("PreToolUse", read)).toMatchObject({ blocked: false })
    const undefinedResult = await blocking.dispatch("PreToolUse", bash("ls"))
    expect(undefinedResult.blocked).toBe(true)
    expect(undefinedResult.reason).toContain("the result is undefined")
    // A path no policy defines is undefined too.
    const nowhere = await engineWith(opaHook(`${server.url}/v1/data/no/such/rule`))
    expect((await nowhere.dispatch("PreToolUse", bash("ls"))).blocked).toBe(true)

    const failing = await engineWith(opaHook(url, { onUndefined: "fail" }))
    const failed = await failing.dispatch("PreToolUse", bash("ls"))
    expect(failed.blocked).toBe(false)
    expect(failed.hooks[0]).toMatchObject({ status: "non-blocking-error" })
    expect(failed.hooks[0]!.stderr).toContain("the result is undefined")
    const closed = await engineWith(opaHook(url, { onUndefined: "fail", onFailure: "block" }))
    expect((await closed.dispatch("PreToolUse", bash("ls"))).blocked).toBe(true)
  })

  it("a result that is not a decision is a failed hook that names what came and what is expected", async () => {
    const server = await opa()
    const engine = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/version`))
    const outcome = await engine.dispatch("PreToolUse", bash("ls"))
    expect(outcome.hooks[0]!.stderr).toContain("the result is a string")
    expect(outcome.hooks[0]!.stderr).toContain(`expected {"result": true|false}`)
    const closed = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/version`, { onFailure: "block" }))
    expect((await closed.dispatch("PreToolUse", bash("ls"))).blocked).toBe(true)
  })
})
