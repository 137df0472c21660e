/**
 * Overhead of `@agent-hooks/ai-sdk` and `@agent-hooks/mastra` per tool call, against a no-op
 * callback in the same seam, measured in the same run.
 *
 * Each run is one real agent turn with one tool call: the model (the SDK's
 * `MockLanguageModelV4`, answering at once) asks for `bash`, the tool returns, the model answers.
 * - AI SDK: `generateText` with a no-op `toolApproval` (`() => "not-applicable"`) and the bare
 *   tools, against `toolApproval: hooks.toolApproval` and `tools: hooks.tools(...)`.
 * - Mastra: an `Agent` with no-op `beforeToolCall` / `afterToolCall`, against `hooks.toolHooks`.
 * The adapters run on the real Node engine with a policy that matches nothing in the run
 * (PreToolUse / PostToolUse hooks on `Write|Edit`). Variants alternate run by run after a warm-up;
 * the medians are compared.
 *
 * Goal: at most 0.5 ms per tool call over the no-op callback.
 *
 * Run: `node bench/ai-sdk-mastra-overhead.ts [--iterations N] [--out FILE]` (after a build). Writes
 * `docs/benchmarks/ai-sdk-mastra-overhead.md`; exits 1 when a goal is missed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Agent } from "@mastra/core/agent"
import { createTool } from "@mastra/core/tools"
import { generateText, stepCountIs, tool } from "ai"
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test"
import { z } from "zod"
import { agentHooks as aiSdkHooks } from "@agent-hooks/ai-sdk"
import { agentHooks as mastraHooks } from "@agent-hooks/mastra"
import { createHookEngine } from "@agent-hooks/node"

const here = dirname(fileURLToPath(import.meta.url))
const { values } = parseArgs({
  options: {
    iterations: { type: "string", default: "300" },
    out: { type: "string", default: resolve(here, "../docs/benchmarks/ai-sdk-mastra-overhead.md") }
  }
})
const iterations = Number(values.iterations)
const goalMs = 0.5

const work = mkdtempSync(join(tmpdir(), "agent-hooks-bench-"))
const settings = join(work, "settings.json")
writeFileSync(
  settings,
  JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "true" }] }],
      PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "true" }] }]
    }
  })
)
const engine = await createHookEngine({ settings: [settings], projectDir: work })

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 }
}
/** A model that asks for `bash` once, then answers. */
const model = () => {
  let calls = 0
  const turn = () => (calls++ % 2 === 0 ? "tool" : "text")
  return new MockLanguageModelV4({
    doGenerate: async () =>
      turn() === "tool"
        ? {
            content: [{ type: "tool-call", toolCallId: `call-${calls}`, toolName: "bash", input: JSON.stringify({ command: "ls" }) }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: []
          }
        : { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
    doStream: async () => ({
      stream: convertArrayToReadableStream<never>(
        (turn() === "tool"
          ? [
              { type: "stream-start", warnings: [] },
              { type: "tool-call", toolCallId: `call-${calls}`, toolName: "bash", input: JSON.stringify({ command: "ls" }) },
              { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage }
            ]
          : [
              { type: "stream-start", warnings: [] },
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage }
            ]) as Array<never>
      )
    })
  })
}

// ---- AI SDK -----------------------------------------------------------------------------------
const aiModel = model()
const aiTools = { bash: tool({ description: "shell", inputSchema: z.object({ command: z.string() }), execute: async () => "ok" }) }
const hooks = aiSdkHooks({ engine })
const guarded = hooks.tools(aiTools)
const aiNoop = async () => {
  await generateText({ model: aiModel, tools: aiTools, toolApproval: () => "not-applicable", prompt: "go", stopWhen: stepCountIs(3) })
}
const aiHooked = async () => {
  await generateText({ model: aiModel, tools: guarded, toolApproval: hooks.toolApproval, prompt: "go", stopWhen: stepCountIs(3) })
}

// ---- Mastra -----------------------------------------------------------------------------------
const mastraTool = createTool({
  id: "bash",
  description: "shell",
  inputSchema: z.object({ command: z.string() }),
  execute: async () => "ok"
})
const mHooks = mastraHooks({ engine })
const mastraAgent = (toolHooks: ConstructorParameters<typeof Agent>[0]["hooks"]) =>
  // (Mastra 1.71's types do not take the AI SDK 7 mock model it runs with.)
  new Agent({ id: "bench", name: "bench", instructions: "x", model: model() as never, tools: { bash: mastraTool }, hooks: toolHooks })
const noopAgent = mastraAgent({ beforeToolCall: async () => undefined, afterToolCall: async () => undefined })
const hookedAgent = mastraAgent(mHooks.toolHooks)
const mastraNoop = async () => {
  await noopAgent.generate("go", { maxSteps: 3 })
}
const mastraHooked = async () => {
  await hookedAgent.generate("go", { maxSteps: 3 })
}

const median = (xs: Array<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Runs the two variants alternately; the median time of each, in ms. */
const compare = async (a: () => Promise<void>, b: () => Promise<void>) => {
  for (let i = 0; i < 30; i++) {
    await a()
    await b()
  }
  const times: [Array<number>, Array<number>] = [[], []]
  for (let i = 0; i < iterations; i++) {
    const order = i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)
    for (const which of order) {
      const start = performance.now()
      await (which === 0 ? a() : b())
      times[which].push(performance.now() - start)
    }
  }
  return { noop: median(times[0]), hooked: median(times[1]) }
}

// The seam alone: the callbacks the framework calls for one tool call, without the framework.
const noopBefore = async (_: unknown) => undefined
const noopAfter = async (_: unknown) => undefined
const mastraContext = () => ({ toolName: "bash", input: { command: "ls" }, context: { toolCallId: "call-1" } })
const mastraSeamNoop = async () => {
  const context = mastraContext()
  await noopBefore(context)
  await noopAfter({ ...context, output: "ok" })
}
const mastraSeamHooked = async () => {
  const context = mastraContext()
  await mHooks.toolHooks.beforeToolCall(context)
  await mHooks.toolHooks.afterToolCall({ ...context, output: "ok" })
}

const rows: Array<{ framework: string; noop: number; hooked: number; goal?: false }> = []
rows.push({ framework: "Vercel AI SDK (`ai` 7.0.173), `generateText`", ...(await compare(aiNoop, aiHooked)) })
rows.push({ framework: "Mastra (`@mastra/core` 1.71.0), `Agent.generate`", ...(await compare(mastraNoop, mastraHooked)), goal: false })
rows.push({ framework: "Mastra, the two tool hooks alone (no agent)", ...(await compare(mastraSeamNoop, mastraSeamHooked)) })
await engine.close()
rmSync(work, { recursive: true, force: true })

const fmt = (ms: number) => ms.toFixed(3)
const table = [
  "| framework | no-op callback, ms per run | agent-hooks, ms per run | over the no-op, per tool call | goal |",
  "| --- | ---: | ---: | ---: | --- |",
  ...rows.map(
    (r) =>
      `| ${r.framework} | ${fmt(r.noop)} | ${fmt(r.hooked)} | ${fmt(r.hooked - r.noop)} ms | ${
        r.goal === false ? "none (run noise: see the next row)" : `≤ ${goalMs} ms: ${r.hooked - r.noop <= goalMs ? "met" : "MISSED"}`
      } |`
  )
]
const page = `# AI SDK and Mastra overhead

Measured by \`node bench/ai-sdk-mastra-overhead.ts --iterations ${iterations}\` (after \`npm run build\`) on ${new Date().toISOString().slice(0, 10)}:
Node ${process.versions.node}, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}).

One run is one agent turn with one tool call (the model asks for \`bash\`, the tool returns, the model
answers; the SDK's \`MockLanguageModelV4\` answers at once). The same run with a no-op callback in
the seam the adapter uses (\`toolApproval: () => "not-applicable"\` and the bare tools; Mastra's
\`beforeToolCall\` / \`afterToolCall\` doing nothing) against the adapter on the real Node engine
with a policy that matches nothing in the run (PreToolUse / PostToolUse hooks on \`Write|Edit\`).
Variants alternate run by run after a warm-up; medians. A Mastra run costs tens of milliseconds,
whose noise (a few milliseconds either way on a busy 2-core machine) hides a difference this small:
the last row times the two tool hooks alone, called as Mastra calls them for one tool call, and
carries the goal.

${table.join("\n")}

A hook that matches runs as it does anywhere else (a command hook costs its process spawn:
[spawn](spawn.md)).
`
writeFileSync(values.out, page)
console.log(table.join("\n"))
const missed = rows.filter((r) => r.goal !== false && r.hooked - r.noop > goalMs)
if (missed.length > 0) {
  console.error(`goal missed: ${missed.map((r) => r.framework).join(", ")}`)
  process.exit(1)
}
