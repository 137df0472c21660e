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

    // onUndefined: fail is a failed hook, which blocks too (an OPA hook is a guard), unless onFailure says continue
    const failing = await engineWith(opaHook(url, { onUndefined: "fail" }))
    const failed = await failing.dispatch("PreToolUse", bash("ls"))
    expect(failed.blocked).toBe(true)
    expect(failed.hooks[0]!.stderr).toContain("the result is undefined")
    const open = await engineWith(opaHook(url, { onUndefined: "fail", onFailure: "continue" }))
    const went = await open.dispatch("PreToolUse", bash("ls"))
    expect(went.blocked).toBe(false)
    expect(went.hooks[0]).toMatchObject({ status: "non-blocking-error" })
  })

  it("a result that is not a decision is a failed hook that names what came and what is expected", async () => {
    const server = await opa()
    const engine = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/version`))
    const outcome = await engine.dispatch("PreToolUse", bash("ls"))
    expect(outcome.hooks[0]!.stderr).toContain("the result is a string")
    expect(outcome.hooks[0]!.stderr).toContain(`expected {"result": true|false}`)
    expect(outcome.blocked).toBe(true)
    const open = await engineWith(opaHook(`${server.url}/v1/data/agent_hooks/pretooluse/version`, { onFailure: "continue" }))
    expect((await open.dispatch("PreToolUse", bash("ls"))).blocked).toBe(false)
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
    // a cedar hook that could not decide blocks (it is a guard), saying why; onFailure: continue lets the call go on
    const invalid = await engine.dispatch("PreToolUse", bash("ls"))
    expect(invalid.blocked).toBe(true)
    expect(invalid.hooks[0]!.stderr).toContain("does not validate against")
    writeFileSync(join(dir, "policies.cedar"), `forbid (principal, action, resource`)
    const broken = await engine.dispatch("PreToolUse", bash("ls"))
    expect(broken.hooks[0]!.stderr).toContain("policies.cedar")
    expect(broken.blocked).toBe(true)
    expect(broken.reason).toContain("blocking because a Cedar hook is a guard")
    const { engine: open } = await cedarEngine({ onFailure: "continue" }, { "policies.cedar": "forbid (" })
    const went = await open.dispatch("PreToolUse", bash("ls"))
    expect(went.blocked).toBe(false)
    expect(went.hooks[0]).toMatchObject({ status: "non-blocking-error" })
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

/**
 * A server for every answer an OPA endpoint may give that is not a clear allow or deny: each path
 * of `/v1/data/<shape>` answers one shape (`hang` never answers, `reset` drops the connection).
 */
const OPA_SHAPES: Record<string, { readonly status?: number; readonly body?: string; readonly hang?: boolean; readonly reset?: boolean }> =
  {
    "null-result": { body: `{"result": null}` },
    "string-result": { body: `{"result": "1"}` },
    "number-result": { body: `{"result": 1}` },
    "zero-result": { body: `{"result": 0}` },
    "allow-not-boolean": { body: `{"result": {"allow": "true"}}` },
    "deny-not-array": { body: `{"result": {"deny": "no"}}` },
    "empty-decision": { body: `{"result": {}}` },
    "reason-only": { body: `{"result": {"reason": "x"}}` },
    "status-500": { status: 500, body: `{"code": "internal_error"}` },
    "status-404": { status: 404, body: "" },
    "status-400": { status: 400, body: `{"code": "invalid_parameter", "message": "x"}` },
    "status-204": { status: 204 },
    "not-json": { body: "<html>ok</html>" },
    "empty-body": { body: "" },
    "array-body": { body: "[]" },
    "null-body": { body: "null" },
    "string-body": { body: `"allow"` },
    "cut-json": { body: `{"result": tr` },
    hang: { hang: true },
    reset: { reset: true }
  }

const shapesServer = async () => {
  const { createServer } = await import("node:http")
  const hanging = new Set<import("node:http").ServerResponse>()
  const server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      const shape = OPA_SHAPES[(request.url ?? "").replace(/^\/v1\/data\//, "")]
      if (shape === undefined) return void response.writeHead(404).end()
      if (shape.hang === true) return void hanging.add(response)
      if (shape.reset === true) return void request.socket.destroy()
      response.writeHead(shape.status ?? 200, { "content-type": "application/json" }).end(shape.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as import("node:net").AddressInfo
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  return `http://127.0.0.1:${port}`
}

describe("a policy hook that could not decide blocks (cedar and api: opa are guards by construction)", () => {
  it("every OPA answer that is not a clear allow or deny blocks, saying why; onFailure: continue lets it go on, visibly", async () => {
    const base = await shapesServer()
    // a port nothing listens on: connection refused
    const closed = await shapesServer()
    cleanups.splice(-1, 1)[0]!()
    const urls = [...Object.keys(OPA_SHAPES).map((shape) => `${base}/v1/data/${shape}`), `${closed}/v1/data/refused`]
    const settings = (extra: object) => ({
      hooks: { PreToolUse: [{ hooks: urls.map((url) => ({ type: "http", api: "opa", url, timeout: 2, ...extra })) }] }
    })
    const engine = await engineWith(settings({}))
    const outcome = await engine.dispatch("PreToolUse", bash("rm -rf /"))
    expect(outcome.blocked).toBe(true)
    expect(outcome.hooks).toHaveLength(urls.length)
    // each hook's own verdict: a block, none a success
    for (const [n, hook] of outcome.hooks.entries()) {
      expect(hook.status, `${urls[n]}: ${hook.stderr}`).toBe("blocking-error")
      expect(hook.messages.join("\n"), urls[n]).not.toContain("non-blocking")
    }
    expect(outcome.reason).toContain("blocking because an OPA hook is a guard")
    // one at a time: each shape alone blocks
    for (const url of urls) {
      const alone = await engineWith({ hooks: { PreToolUse: [{ hooks: [{ type: "http", api: "opa", url, timeout: 2 }] }] } })
      expect((await alone.dispatch("PreToolUse", bash("rm -rf /"))).blocked, url).toBe(true)
    }
    const opened = await engineWith(settings({ onFailure: "continue" }))
    const went = await opened.dispatch("PreToolUse", bash("rm -rf /"))
    expect(went.blocked).toBe(false)
    // each failure still said: none is a success or a block
    for (const hook of went.hooks) expect(hook.status, hook.command).toMatch(/^(non-blocking-error|cancelled)$/)
  })

  it("a lone UTF-16 surrogate anywhere in the payload reaches Cedar as U+FFFD, flagged: the forbid still applies", async () => {
    const { engine } = await cedarEngine({})
    for (const payload of [
      { session_id: "s1", ...bash("rm -rf / #\ud800") },
      { session_id: "s1", ...bash("rm -rf / #\udfff") },
      { session_id: "s\ud800", ...bash("rm -rf /") },
      { session_id: "s1", tool_name: "Bash", tool_input: { command: "rm -rf /", "\udc00key": ["\ud83d", "\ude00x"] } },
      { session_id: "s1", tool_name: "Bash", tool_input: { command: "rm -rf /", description: "x\udbff" } }
    ]) {
      const outcome = await engine.dispatch("PreToolUse", payload)
      expect(outcome, JSON.stringify(payload)).toMatchObject({
        blocked: true,
        reason: "denied by Cedar: policy no-rm-rf: rm -rf is not allowed"
      })
      expect(outcome.hooks[0]!.messages.join("\n")).toMatch(/the payload held \d+ lone UTF-16 surrogates? \(not valid Unicode\)/)
    }
    // a policy on the context's command (where cedar-wasm refused the surrogate: the hook failed, the call went ahead)
    const { engine: onContext } = await cedarEngine(
      { policies: "context.cedar" },
      {
        "context.cedar":
          `@id("no-rm-rf") @reason("rm -rf is not allowed") forbid (principal, action == Action::"PreToolUse", resource) when { context.tool_input.command like "*rm -rf*" };\n` +
          `permit (principal, action, resource);`
      }
    )
    for (const command of ["rm -rf / #\ud800", "\udfffrm -rf /"]) {
      expect(await onContext.dispatch("PreToolUse", { session_id: "s1", ...bash(command) }), command).toMatchObject({
        blocked: true,
        reason: "denied by Cedar: policy no-rm-rf: rm -rf is not allowed"
      })
    }
    // a well-formed pair is not touched, and no flag is raised
    const emoji = await engine.dispatch("PreToolUse", bash("echo \ud83d\ude00"))
    expect(emoji).toMatchObject({ blocked: false, warnings: [] })
    expect(emoji.hooks[0]!.messages.join("\n")).not.toContain("surrogate")
  })

  it("a policy may forbid what carried lone surrogates (context.agent_hooks_lone_surrogates)", async () => {
    const { engine } = await cedarEngine(
      { policies: "strict.cedar" },
      {
        "strict.cedar":
          `@id("well-formed") @reason("the call held text that is not valid Unicode") forbid (principal, action, resource) when { context.agent_hooks_lone_surrogates };\n` +
          `permit (principal, action, resource);`
      }
    )
    expect((await engine.dispatch("PreToolUse", bash("ls"))).blocked).toBe(false)
    expect(await engine.dispatch("PreToolUse", bash("ls #\ud800"))).toMatchObject({
      blocked: true,
      reason: "denied by Cedar: policy well-formed: the call held text that is not valid Unicode"
    })
  })

  it("a Cedar engine that cannot load blocks, naming it; onFailure: continue is the opt-out", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-noengine-")))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    copyFileSync(join(cedarFixtures, "policies.cedar"), join(dir, "policies.cedar"))
    const missing = HookEngine.cedarRuntime(
      () => Promise.reject(new Error("Cannot find package '@cedar-policy/cedar-wasm'")),
      (path) => readFile(path, "utf8")
    )
    const open = async (extra: object) => {
      const file = join(dir, `settings-${Object.keys(extra).length}.json`)
      writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "cedar", policies: "policies.cedar", ...extra }] }] } }))
      const engine = await createHookEngine({ settings: [file], projectDir: dir, cedar: missing, preloadCedar: false })
      cleanups.push(() => engine.close())
      return engine
    }
    const blocked = await (await open({})).dispatch("PreToolUse", bash("rm -rf /"))
    expect(blocked.blocked).toBe(true)
    expect(blocked.hooks[0]!.stderr).toContain("cannot load the Cedar engine")
    expect(blocked.reason).toContain("blocking because a Cedar hook is a guard")
    const went = await (await open({ onFailure: "continue" })).dispatch("PreToolUse", bash("rm -rf /"))
    expect(went.blocked).toBe(false)
  })
})
