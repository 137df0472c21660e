#!/usr/bin/env node
// The packages as a user gets them: every public package is packed (`pnpm pack`), checked with
// publint and @arethetypeswrong/cli, and installed from the tarballs into an empty temp folder
// with `npm install <tarballs>`; then the CLI runs (`npx agent-hooks --help`, `run`), and
// @agent-hooks/node, bun and langchain-adapter are imported and dispatch under their runtimes, and
// claude-agent-sdk and openai-agents, installed with their frameworks, deny a call through each SDK's seam;
// ai-sdk and mastra block a tool call inside their frameworks.
//
// Run after a build, with the toolchain first on PATH (`npm test` does both; this is its "pack"
// step): `node scripts/pack-check.mjs [--result FILE]` (FILE gets `{"passed", "failed"}`). Prints one line per check and `N passed, N failed` last;
// exit 1 when a check failed. Needs the npm registry for the packages' own dependencies.

import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const BIN = join(ROOT, "node_modules", ".bin")
const PACKAGES = readdirSync(join(ROOT, "packages")).filter((name) => {
  try {
    const manifest = JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8"))
    return manifest.private !== true
  } catch {
    return false
  }
})

let passed = 0
let failed = 0
const check = (name, result, detail = "") => {
  if (result) passed++
  else failed++
  process.stdout.write(
    `${result ? "ok  " : "FAIL"}  ${name}${
      !result && detail !== ""
        ? `\n${detail
            .trim()
            .split("\n")
            .map((l) => `      ${l}`)
            .join("\n")}`
        : ""
    }\n`
  )
  return result
}

const sh = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 600_000, ...options, env: { ...process.env, ...options.env } })
  return {
    ok: r.status === 0,
    status: r.status,
    out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`,
    stdout: r.stdout ?? ""
  }
}

/** `sh` without blocking: the packs and the linters of the five packages run side by side. */
const shAsync = (cmd, args, options = {}) =>
  new Promise((resolvePromise) => {
    const child = spawn(cmd, args, {
      timeout: 600_000,
      ...options,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    // A command that cannot start ends here (its "close" may never come).
    child.on("error", (error) => resolvePromise({ ok: false, status: null, out: `${out}${String(error)}` }))
    child.on("close", (status, signal) => resolvePromise({ ok: status === 0, status, out: signal ? `${out}killed by ${signal}` : out }))
  })

/** Runs `jobs` (functions returning promises) at most `limit` at a time; the results in order. */
const pool = async (jobs, limit = 3) => {
  const results = new Array(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++
      results[i] = await jobs[i]()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker))
  return results
}

/**
 * @agent-hooks/ai-sdk and @agent-hooks/mastra with their frameworks at the versions they are tested
 * with (installed with the tarballs): a model (the AI SDK's MockLanguageModelV4) asks for `bash` with `rm -rf /`, the policy of
 * `settings` refuses it, and the reason is what the model gets next.
 */
function frameworkAdapters(app, settings) {
  const model = `
    import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test"
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
    export const prompts = []
    let calls = 0
    const call = { type: "tool-call", toolCallId: "call-1", toolName: "bash", input: JSON.stringify({ command: "rm -rf /" }) }
    export const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt)
        return calls++ === 0
          ? { content: [call], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] }
          : { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] }
      },
      doStream: async ({ prompt }) => {
        prompts.push(prompt)
        const parts = calls++ === 0
          ? [call, { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage }]
          : [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" }, { type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage }]
        return { stream: convertArrayToReadableStream([{ type: "stream-start", warnings: [] }, ...parts]) }
      }
    })
    export const told = () => JSON.stringify(prompts.slice(1)).includes("no rm here")
  `
  writeFileSync(join(app, "model.mjs"), model)
  writeFileSync(
    join(app, "ai-sdk.mjs"),
    `
    import { generateText, jsonSchema, stepCountIs, tool } from "ai"
    import { agentHooks } from "@agent-hooks/ai-sdk"
    import { createHookEngine } from "@agent-hooks/node"
    import { model, told } from "./model.mjs"
    const ran = []
    const bash = tool({ inputSchema: jsonSchema({ type: "object", properties: { command: { type: "string" } } }), execute: async ({ command }) => ran.push(command) })
    const engine = await createHookEngine({ settings: [${JSON.stringify(settings)}], projectDir: ${JSON.stringify(app)} })
    const hooks = agentHooks({ engine })
    await generateText({ model, tools: hooks.tools({ bash }), toolApproval: hooks.toolApproval, prompt: "go", stopWhen: stepCountIs(3) })
    await engine.close()
    if (ran.length > 0 || !told()) process.exit(1)
    console.log("blocked")
  `
  )
  const aiSdk = sh("node", ["ai-sdk.mjs"], { cwd: app })
  check(
    "@agent-hooks/ai-sdk in generateText (ai 7.0.173): the call is denied, the model gets the reason",
    aiSdk.ok && aiSdk.stdout.includes("blocked"),
    aiSdk.out
  )
  writeFileSync(
    join(app, "mastra.mjs"),
    `
    import { Agent } from "@mastra/core/agent"
    import { createTool } from "@mastra/core/tools"
    import { z } from "zod"
    import { agentHooks } from "@agent-hooks/mastra"
    import { createHookEngine } from "@agent-hooks/node"
    import { model, told } from "./model.mjs"
    const ran = []
    const bash = createTool({ id: "bash", description: "shell", inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => ran.push(command) })
    const engine = await createHookEngine({ settings: [${JSON.stringify(settings)}], projectDir: ${JSON.stringify(app)} })
    const hooks = agentHooks({ engine })
    const agent = new Agent({ id: "a", name: "a", instructions: "x", model, tools: { bash }, hooks: hooks.toolHooks, inputProcessors: [hooks.processor] })
    await agent.generate("go", { maxSteps: 3 })
    await engine.close()
    if (ran.length > 0 || !told()) process.exit(1)
    console.log("blocked")
  `
  )
  const mastra = sh("node", ["mastra.mjs"], { cwd: app })
  check(
    "@agent-hooks/mastra in a Mastra Agent (@mastra/core 1.71.0): the call is stopped, the model gets the reason",
    mastra.ok && mastra.stdout.includes("blocked"),
    mastra.out
  )
}

const tmp = mkdtempSync(join(tmpdir(), "agent-hooks-pack-"))
try {
  const tarballs = join(tmp, "tarballs")
  mkdirSync(tarballs)
  // The packages side by side (each pack writes its own tarball; publint after its package's pack),
  // the checks printed in the packages' order.
  const packed = await pool(
    PACKAGES.map((name) => async () => {
      const dir = join(ROOT, "packages", name)
      const r = await shAsync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: dir })
      const lint = await shAsync(join(BIN, "publint"), ["run", dir, "--strict"], { cwd: dir })
      return { name, r, lint }
    })
  )
  for (const { name, r, lint } of packed) {
    check(`pnpm pack packages/${name}`, r.ok, r.out)
    check(`publint packages/${name}`, lint.ok, lint.out)
  }
  const files = readdirSync(tarballs)
    .filter((f) => f.endsWith(".tgz"))
    .sort()
    .map((f) => join(tarballs, f))
  // ESM-only packages: the CommonJS resolutions (node10, node16 from require) are out of scope.
  const attws = await pool(files.map((file) => () => shAsync(join(BIN, "attw"), [file, "--profile", "esm-only", "--format", "ascii"])))
  attws.forEach((attw, i) => check(`attw ${files[i].slice(tarballs.length + 1)}`, attw.ok, attw.out))

  const app = join(tmp, "app")
  mkdirSync(app)
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }))
  // With the agent frameworks the adapters are for, at the versions they are tested with.
  const frameworks = ["@anthropic-ai/claude-agent-sdk@0.3.328", "@openai/agents@0.20.0", "ai@7.0.173", "@mastra/core@1.71.0"]
  const install = sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files, ...frameworks], { cwd: app })
  if (!check("npm install <tarballs> in an empty folder", install.ok, install.out)) throw new Error("stop")

  const settings = join(app, "hooks.json")
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo no rm here >&2; exit 2" }] }] }
    })
  )
  const help = sh("npx", ["--no-install", "agent-hooks", "--help"], { cwd: app })
  check("npx agent-hooks --help", help.ok && help.stdout.includes("serve"), help.out)
  const run = sh("npx", ["--no-install", "agent-hooks", "run", "PreToolUse", "--settings", settings], {
    cwd: app,
    input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } })
  })
  check(
    "npx agent-hooks run PreToolUse (blocks: exit 2)",
    run.status === 2 && JSON.parse(run.stdout).reason.includes("no rm here"),
    run.out
  )
  // Host mode through the package's executable (agent-hooks.cjs: it asks the daemon first; here none, in-process)
  const hook = sh("npx", ["--no-install", "agent-hooks", "hook", "--host", "claude", "--settings", settings], {
    cwd: app,
    env: { AGENT_HOOKS_DAEMON: "0", CLAUDE_PROJECT_DIR: app },
    input: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" }, cwd: app })
  })
  check(
    "npx agent-hooks hook --host claude (blocks: exit 2, Claude Code's deny)",
    hook.status === 2 && hook.out.includes("no rm here") && hook.stdout.includes('"permissionDecision":"deny"'),
    hook.out
  )
  // Under Bun, run starts from the bundle Bun compiled ahead of time (agent-hooks.bun.cjs and its bytecode).
  const cli = join(app, "node_modules", "@agent-hooks", "cli", "dist")
  const bunRun = sh("bun", [join(cli, "bin.js"), "run", "PreToolUse", "--settings", settings], {
    cwd: app,
    input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } })
  })
  check(
    "bun agent-hooks run PreToolUse from the compiled bundle (blocks: exit 2)",
    existsSync(join(cli, "agent-hooks.bun.cjs")) &&
      existsSync(join(cli, "agent-hooks.bun.cjs.jsc")) &&
      bunRun.status === 2 &&
      JSON.parse(bunRun.stdout).reason.includes("no rm here"),
    bunRun.out
  )

  // Over 256 MB of resident memory, the Node engine spawns hooks through its helper process
  // (dist/chunks/spawnHelperMain.js in the bundle): a 16 MB payload of small objects takes `run`
  // there, and a `serve` that read one stays there. The guard says who started it (its parent's
  // command line), so the check knows the helper ran it; without /proc it checks the block only.
  const viaHelper = existsSync("/proc/self/cmdline")
  const bigSettings = join(app, "big-hooks.json")
  writeFileSync(
    bigSettings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: `case "$(tr '\\0' ' ' < /proc/$PPID/cmdline 2>/dev/null)" in *spawnHelperMain*) via=helper;; *) via=direct;; esac; echo "no rm here ($via)" >&2; exit 2`
              }
            ]
          }
        ]
      }
    })
  )
  const bigPayload = JSON.stringify({
    tool_name: "Bash",
    tool_input: { command: "rm -rf /", items: Array.from({ length: 700_000 }, (_, i) => ({ i, s: "xx" })) }
  })
  const blockedBy = (outcome) =>
    outcome?.blocked === true &&
    outcome.reason === (viaHelper ? "no rm here (helper)" : outcome.reason) &&
    /^no rm here/.test(outcome.reason)
  const bigRun = sh("npx", ["--no-install", "agent-hooks", "run", "PreToolUse", "--settings", bigSettings], { cwd: app, input: bigPayload })
  check(
    `npx agent-hooks run PreToolUse, ${(bigPayload.length / 2 ** 20).toFixed(0)} MB payload: over 256 MB, through the spawn helper (blocks: exit 2)`,
    bigRun.status === 2 && blockedBy(JSON.parse(bigRun.stdout)),
    bigRun.out.slice(0, 4000)
  )
  const request = (id, payload) => `{"id":${id},"event":"PreToolUse","payload":${payload}}\n`
  const grown = sh("npx", ["--no-install", "agent-hooks", "serve", "--settings", bigSettings], {
    cwd: app,
    input: request(1, bigPayload) + request(2, JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } }))
  })
  const answers = grown.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((line) => line.id !== undefined)
  check(
    "npx agent-hooks serve: grown over 256 MB by one payload, the next call still blocks, through the spawn helper",
    grown.ok && answers.length === 2 && answers.every((answer) => blockedBy(answer.outcome)),
    grown.out.slice(0, 4000)
  )

  // Under Bun, in a cloned project whose bunfig.toml preloads code (it writes a marker) and whose .env
  // moves AGENT_HOOKS_MANAGED_DIR into the project, where a managed-settings.json answers every call.
  const project = join(tmp, "cloned")
  mkdirSync(join(project, "managed"), { recursive: true })
  writeFileSync(join(project, "bunfig.toml"), `preload = ["./preload.js"]\n`)
  writeFileSync(join(project, "preload.js"), `require("node:fs").writeFileSync(${JSON.stringify(join(project, "PRELOAD-RAN"))}, "ran")\n`)
  writeFileSync(join(project, ".env"), `AGENT_HOOKS_MANAGED_DIR=${join(project, "managed")}\n`)
  writeFileSync(
    join(project, "managed", "managed-settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo managed dir moved into the project >&2; exit 2" }] }]
      }
    })
  )
  // Settings found the usual way (an empty home, no AGENT_HOOKS_MANAGED_DIR): only the .env could
  // bring in the project's managed-settings.json, and its hook would block.
  const home = join(tmp, "home")
  mkdirSync(home)
  const inProject = (args) => {
    rmSync(join(project, "PRELOAD-RAN"), { force: true })
    const r = sh("bun", [...args, join(cli, "bin.js"), "run", "PreToolUse"], {
      cwd: project,
      env: { HOME: home, AGENT_HOOKS_MANAGED_DIR: undefined },
      input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
    })
    let blocked
    try {
      blocked = JSON.parse(r.stdout).blocked
    } catch {
      blocked = undefined
    }
    return { ...r, blocked, preloadRan: existsSync(join(project, "PRELOAD-RAN")), moved: r.out.includes("managed dir moved") }
  }
  // As documented: Bun reads neither file.
  const isolated = inProject(["--no-env-file", `--config=${join(cli, "bunfig.toml")}`])
  check(
    "bun --no-env-file --config=<cli>/dist/bunfig.toml agent-hooks in a cloned project: no preload, the managed folder stays",
    isolated.blocked === false && !isolated.preloadRan && !isolated.moved,
    isolated.out
  )
  // Plain `bun bin.js`: Bun ran the preload before bin.js (said on stderr); bin.js starts again without the .env.
  const plain = inProject([])
  check(
    "bun agent-hooks in a cloned project: the .env does not move the managed folder, the preload Bun ran is said",
    plain.blocked === false && !plain.moved && plain.out.includes(`Bun ran the preload of ${join(project, "bunfig.toml")}`),
    plain.out
  )

  const dispatch = (pkg) => `
    import { createHookEngine } from "${pkg}"
    const engine = await createHookEngine({ settings: [${JSON.stringify(settings)}], projectDir: ${JSON.stringify(app)} })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    await engine.close()
    if (!outcome.blocked) { console.error(JSON.stringify(outcome)); process.exit(1) }
    console.log("blocked")
  `
  writeFileSync(join(app, "node.mjs"), dispatch("@agent-hooks/node"))
  const node = sh("node", ["node.mjs"], { cwd: app })
  check("@agent-hooks/node imports and dispatches under node", node.ok && node.stdout.includes("blocked"), node.out)
  writeFileSync(join(app, "bun.mjs"), dispatch("@agent-hooks/bun"))
  const bun = sh("bun", ["bun.mjs"], { cwd: app })
  check("@agent-hooks/bun imports and dispatches under bun", bun.ok && bun.stdout.includes("blocked"), bun.out)
  writeFileSync(
    join(app, "langchain.mjs"),
    `
    import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
    import { createHookEngine } from "@agent-hooks/node"
    const engine = await createHookEngine({ settings: [${JSON.stringify(settings)}], projectDir: ${JSON.stringify(app)} })
    const middleware = hooksMiddleware({ engine })
    await engine.close()
    if (typeof middleware !== "object" || middleware === null) process.exit(1)
    console.log("middleware")
  `
  )
  const langchain = sh("node", ["langchain.mjs"], { cwd: app })
  check("@agent-hooks/langchain-adapter imports under node", langchain.ok && langchain.stdout.includes("middleware"), langchain.out)

  // The in-process adapters with their frameworks: a policy's deny reaches each SDK's own seam.
  writeFileSync(
    join(app, "claude-agent-sdk.mjs"),
    `
    import { HOOK_EVENTS } from "@anthropic-ai/claude-agent-sdk"
    import { agentHooks } from "@agent-hooks/claude-agent-sdk"
    import { closeProjectEngines } from "@agent-hooks/node"
    const hooks = agentHooks({ projectDir: ${JSON.stringify(app)}, engineOptions: { settings: [${JSON.stringify(settings)}] } })
    const answer = await hooks.PreToolUse[0].hooks[0](
      { hook_event_name: "PreToolUse", session_id: "s", transcript_path: "", cwd: ${JSON.stringify(app)}, tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      "toolu_1",
      { signal: new AbortController().signal }
    )
    await closeProjectEngines()
    const specific = answer.hookSpecificOutput ?? {}
    if (Object.keys(hooks).length !== HOOK_EVENTS.length || specific.permissionDecision !== "deny" || !String(specific.permissionDecisionReason).includes("no rm here")) {
      console.error(JSON.stringify(answer)); process.exit(1)
    }
    console.log("denied")
  `
  )
  const claudeSdk = sh("node", ["claude-agent-sdk.mjs"], { cwd: app })
  check(
    "@agent-hooks/claude-agent-sdk with @anthropic-ai/claude-agent-sdk: a deny under node",
    claudeSdk.ok && claudeSdk.stdout.includes("denied"),
    claudeSdk.out
  )
  writeFileSync(
    join(app, "openai-agents.mjs"),
    `
    import { Agent, RunContext, tool } from "@openai/agents"
    import { guardTools } from "@agent-hooks/openai-agents"
    import { closeProjectEngines } from "@agent-hooks/node"
    const shell = tool({
      name: "shell", description: "Run a command", strict: false,
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
      execute: async () => "ran"
    })
    const [guarded] = guardTools([shell], { projectDir: ${JSON.stringify(app)}, engineOptions: { settings: [${JSON.stringify(settings)}] } })
    const toolCall = { type: "function_call", callId: "call_1", name: "shell", arguments: JSON.stringify({ command: "rm -rf /" }) }
    const out = await guarded.inputGuardrails[0].run({ context: new RunContext(), agent: new Agent({ name: "a" }), toolCall })
    await closeProjectEngines()
    if (out.behavior.type !== "rejectContent" || !out.behavior.message.includes("no rm here")) { console.error(JSON.stringify(out)); process.exit(1) }
    console.log("rejected")
  `
  )
  const openaiAgents = sh("node", ["openai-agents.mjs"], { cwd: app })
  check(
    "@agent-hooks/openai-agents with @openai/agents: a deny under node",
    openaiAgents.ok && openaiAgents.stdout.includes("rejected"),
    openaiAgents.out
  )

  frameworkAdapters(app, settings)
} catch (error) {
  if (error?.message !== "stop") check("pack check", false, error?.stack ?? String(error))
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`)
const resultAt = process.argv.indexOf("--result")
if (resultAt > 0 && process.argv[resultAt + 1] !== undefined) {
  writeFileSync(process.argv[resultAt + 1], JSON.stringify({ passed, failed }))
}
process.exit(failed > 0 ? 1 : 0)
