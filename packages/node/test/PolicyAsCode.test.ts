/**
 * Policy engines as hooks: an `http` hook with `api: "opa"` against a server that speaks OPA's
 * Data API (the fixed policy of docs/policy-as-code.md).
 */
import { afterEach, describe, expect, it } from "vitest"
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { HookEngine, Trust } from "@agent-hooks/core"
import { readFile } from "node:fs/promises"
import { createHookEngine } from "@agent-hooks/node"
import type { NodeEngineOptions } from "@agent-hooks/node"
import { OpaServer } from "@agent-hooks/test-utils"
import * as CedarFilesSuite from "@agent-hooks/test-utils/CedarFilesSuite"

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
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/data/agent_hooks/pretooluse/allow",
      body: { input: { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la" } } }
    })
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
      expect(await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: { file_path: "src/a.ts" } })).toMatchObject({
        blocked: false
      })
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

const cedarFixtures = fileURLToPath(new URL("./fixtures/cedar/", import.meta.url))
const cedarEngine = async (hook: object, files: Record<string, string> = {}) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  for (const name of ["policies.cedar", "schema.cedarschema"]) copyFileSync(join(cedarFixtures, name), join(dir, name))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "cedar", policies: "policies.cedar", ...hook }] }] } }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir })
  cleanups.push(() => engine.close())
  return { engine, dir }
}

describe("cedar hooks (the real Cedar engine, @cedar-policy/cedar-wasm)", () => {
  it("a forbid that applies blocks, naming the determining policies' ids and @reason; a permit is no objection", async () => {
    const { engine } = await cedarEngine({})
    const no = await engine.dispatch("PreToolUse", { session_id: "s1", ...bash("rm -rf /") })
    expect(no).toMatchObject({ blocked: true, reason: "denied by Cedar: policy no-rm-rf: rm -rf is not allowed" })
    const git = await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: { file_path: "/repo/.git/config", content: "x" } })
    expect(git).toMatchObject({ blocked: true, reason: "denied by Cedar: policy no-git-writes: the .git folder is read-only" })
    const ok = await engine.dispatch("PreToolUse", bash("ls"))
    expect(ok).toMatchObject({ blocked: false, decision: null, warnings: [] })
  })

  it("a permit annotated @approve auto-approves; no policy applying is onNoDecision (deny by default, or no objection)", async () => {
    const { engine } = await cedarEngine({})
    expect(await engine.dispatch("PreToolUse", { tool_name: "Read", tool_input: { file_path: "docs/a.md" } })).toMatchObject({
      blocked: false,
      decision: "allow"
    })
    const none = await engine.dispatch("PreToolUse", { tool_name: "WebFetch", tool_input: { url: "https://x.example/" } })
    expect(none.blocked).toBe(true)
    expect(none.reason).toContain(`no policy permits PreToolUse of WebFetch on "https://x.example/" (onNoDecision: deny)`)
    const { engine: lenient } = await cedarEngine({ onNoDecision: "no-objection" })
    expect(await lenient.dispatch("PreToolUse", { tool_name: "WebFetch", tool_input: { url: "https://x.example/" } })).toMatchObject({
      blocked: false,
      decision: null
    })
    expect((await lenient.dispatch("PreToolUse", bash("rm -rf /"))).blocked).toBe(true)
  })

  it("payload keys that would forge a Cedar entity reference are left out of the context", async () => {
    // A hostile payload whose command is a Cedar entity reference in JSON form.
    const dir = await cedarEngine(
      { policies: "forge.cedar" },
      {
        "forge.cedar": `permit (principal, action, resource) when { context.tool_input has command && context.tool_input.command == Agent::"admin" };`
      }
    )
    const forged = await dir.engine.dispatch("PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: { __entity: { type: "Agent", id: "admin" } } }
    })
    expect(forged.blocked).toBe(true)
  })

  it("edits to the policies apply at the next call; a policy file that does not parse or validate is a visible failure", async () => {
    const { engine, dir } = await cedarEngine({ schema: "schema.cedarschema" })
    expect((await engine.dispatch("PreToolUse", bash("ls"))).blocked).toBe(false)
    writeFileSync(
      join(dir, "policies.cedar"),
      `@id("all-bash") @reason("no Bash today") forbid (principal, action == Action::"PreToolUse", resource) when { resource.tool == "Bash" };`
    )
    expect(await engine.dispatch("PreToolUse", bash("ls"))).toMatchObject({
      blocked: true,
      reason: "denied by Cedar: policy all-bash: no Bash today"
    })
    writeFileSync(
      join(dir, "policies.cedar"),
      `forbid (principal, action == Action::"PreToolUse", resource) when { resource.owner == "me" };`
    )
    const invalid = await engine.dispatch("PreToolUse", bash("ls"))
    expect(invalid.hooks[0]).toMatchObject({ status: "non-blocking-error" })
    expect(invalid.hooks[0]!.stderr).toContain("does not validate against")
    writeFileSync(join(dir, "policies.cedar"), `forbid (principal, action, resource`)
    const broken = await engine.dispatch("PreToolUse", bash("ls"))
    expect(broken.hooks[0]!.stderr).toContain("policies.cedar")
    const { engine: closed } = await cedarEngine({ onFailure: "block" }, { "policies.cedar": "forbid (" })
    expect((await closed.dispatch("PreToolUse", bash("ls"))).blocked).toBe(true)
  })
})

/** A folder with the fixture policies, and the real Cedar engine behind a runtime that counts its loads. */
const countingCedar = async (name: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `agent-hooks-cedar-${name}-`)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  copyFileSync(join(cedarFixtures, "policies.cedar"), join(dir, "policies.cedar"))
  const real = (await import("@cedar-policy/cedar-wasm/nodejs")) as unknown as HookEngine.CedarWasm
  const state = { loads: 0, dir, counting: undefined as unknown as HookEngine.CedarRuntime }
  state.counting = HookEngine.cedarRuntime(
    async () => (state.loads++, real),
    (path) => readFile(path, "utf8")
  )
  return state
}

CedarFilesSuite.suite("createHookEngine of @agent-hooks/node", createHookEngine)

describe("cedar hooks at load", () => {
  it("the Cedar engine is loaded only by an engine whose settings configure a cedar hook", async () => {
    const cedar = await countingCedar("lazy")
    const { dir, counting } = cedar
    const open = async (hooks: object) => {
      const file = join(dir, "settings.json")
      writeFileSync(file, JSON.stringify({ hooks }))
      const engine = await createHookEngine({ settings: [file], projectDir: dir, cedar: counting })
      cleanups.push(() => engine.close())
      return engine
    }
    const plain = await open({ PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] })
    await plain.dispatch("PreToolUse", bash("rm -rf /"))
    expect(cedar.loads).toBe(0)
    const withCedar = await open({ PreToolUse: [{ hooks: [{ type: "cedar", policies: "policies.cedar" }] }] })
    expect((await withCedar.dispatch("PreToolUse", bash("rm -rf /"))).blocked).toBe(true)
    expect(cedar.loads).toBeGreaterThanOrEqual(1)
  })

  it("a one-shot engine (preloadCedar: false, as agent-hooks run) loads it only for an event that runs a cedar hook", async () => {
    const cedar = await countingCedar("oneshot")
    const { dir, counting } = cedar
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "cedar", policies: "policies.cedar" }] }],
          Stop: [{ hooks: [{ type: "command", command: "true" }] }]
        }
      })
    )
    const open = async () => {
      const engine = await createHookEngine({ settings: [file], projectDir: dir, cedar: counting, preloadCedar: false })
      cleanups.push(() => engine.close())
      return engine
    }
    // Another event, and a tool no cedar hook matches: nothing loaded.
    await (await open()).dispatch("Stop", { session_id: "s" })
    await (await open()).dispatch("PreToolUse", { tool_name: "Read", tool_input: { file_path: "/etc/hosts" } })
    expect(cedar.loads).toBe(0)
    // The event that runs it: loaded, and it decides.
    expect((await (await open()).dispatch("PreToolUse", bash("rm -rf /"))).blocked).toBe(true)
    expect(cedar.loads).toBe(1)
  })

  it("policies that do not validate against the schema are reported when the engine loads, before any call", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-load-")))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    copyFileSync(join(cedarFixtures, "schema.cedarschema"), join(dir, "schema.cedarschema"))
    writeFileSync(
      join(dir, "policies.cedar"),
      `@id("owner") forbid (principal, action == Action::"PreToolUse", resource) when { resource.owner == "me" };`
    )
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "cedar", policies: "policies.cedar", schema: "schema.cedarschema" }] }] } })
    )
    const warnings: Array<string> = []
    const engine = await createHookEngine({ settings: [file], projectDir: dir, onWarning: (w) => warnings.push(w) })
    cleanups.push(() => engine.close())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      `cedar hook policies.cedar: ${join(dir, "policies.cedar")} does not validate against ${join(dir, "schema.cedarschema")}: policy owner:`
    )
  })
})

describe("cedar hooks and project trust", () => {
  it("a project's policy files are approved with its settings: a policy changed after approval never runs", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-trust-")))
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-home-")))
    cleanups.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => rmSync(home, { recursive: true, force: true })
    )
    mkdirSync(join(dir, ".agent-hooks"))
    copyFileSync(join(cedarFixtures, "policies.cedar"), join(dir, ".agent-hooks", "policies.cedar"))
    const settingsFile = join(dir, ".agent-hooks", "settings.json")
    writeFileSync(settingsFile, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "cedar", policies: "policies.cedar" }] }] } }))
    const open = async () => {
      const warnings: Array<string> = []
      const engine = await createHookEngine({
        projectDir: dir,
        requireTrust: true,
        env: { ...process.env, AGENT_HOOKS_HOME: home },
        onWarning: (w) => warnings.push(w)
      })
      cleanups.push(() => engine.close())
      return { engine, warnings }
    }
    await Effect.runPromise(
      Trust.approve(join(home, "trusted-settings.json"), [settingsFile], dir).pipe(
        Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
      )
    )
    const approved = await open()
    expect(await approved.engine.dispatch("PreToolUse", bash("rm -rf /"))).toMatchObject({
      blocked: true,
      reason: "denied by Cedar: policy no-rm-rf: rm -rf is not allowed"
    })
    // The cloned repository's policy is swapped for one that permits everything.
    writeFileSync(join(dir, ".agent-hooks", "policies.cedar"), `permit (principal, action, resource);`)
    const swapped = await open()
    const outcome = await swapped.engine.dispatch("PreToolUse", bash("rm -rf /"))
    expect(outcome.hooks.some((hook) => hook.status === "success")).toBe(false)
    expect(swapped.warnings.join("\n")).toContain("not approved")
  })
})
