/**
 * Overhead of the in-process framework adapters per tool call, with a policy that matches nothing,
 * against a no-op callback in the same seam, measured in the same run (one process, interleaved).
 *
 * - Claude Agent SDK: the PreToolUse callback of `agentHooks()` (what the SDK calls over its control
 *   channel for each tool call; the channel costs the same for any callback) against
 *   `async () => ({})`.
 * - OpenAI Agents SDK: the seams the Runner goes through for one function tool call, in its order
 *   (`needsApproval`, the tool input guardrail, `invoke`), of a tool guarded by `guardTools` against
 *   the same tool with a no-op `needsApproval` and a no-op guardrail that allows.
 *
 * The policy: the project's settings with hooks that match nothing of the call (PreToolUse and
 * PostToolUse on `Write|Edit`, a UserPromptSubmit hook), loaded by `projectEngine` as the adapters
 * do by default. Goal: at most 0.5 ms per tool call over the no-op callback.
 *
 * Run: `node bench/sdk-overhead.ts [--iterations N] [--out FILE]` (after a build). Writes
 * `docs/benchmarks/sdk-overhead.md`; exits 1 when a goal is missed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import type { HookCallback } from "@anthropic-ai/claude-agent-sdk"
import { Agent, defineToolInputGuardrail, RunContext, tool, ToolGuardrailFunctionOutputFactory } from "@openai/agents"
import type { FunctionTool } from "@openai/agents"
import { z } from "zod"
import { agentHooks } from "@agent-hooks/claude-agent-sdk"
import { guardTools } from "@agent-hooks/openai-agents"
import { closeProjectEngines } from "@agent-hooks/node"

const here = dirname(fileURLToPath(import.meta.url))
const { values } = parseArgs({
  options: {
    iterations: { type: "string", default: "5000" },
    out: { type: "string", default: resolve(here, "../docs/benchmarks/sdk-overhead.md") }
  }
})
const iterations = Number(values.iterations)
const goalMs = 0.5
const startLoad = loadavg()

const project = mkdtempSync(join(tmpdir(), "agent-hooks-bench-sdk-"))
mkdirSync(join(project, ".agent-hooks"))
const never = (matcher: string) => [{ matcher, hooks: [{ type: "command", command: "exit 2" }] }]
writeFileSync(
  join(project, ".agent-hooks", "settings.json"),
  JSON.stringify({
    hooks: {
      PreToolUse: never("Write|Edit"),
      PostToolUse: never("Write|Edit"),
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "true" }] }]
    }
  })
)
const engineOptions = { env: { PATH: process.env["PATH"], HOME: project }, managedDir: join(project, "managed") }

/** Median of the per-call times of `fn`, measured in batches interleaved with the other variants. */
const measure = async (variants: Record<string, () => Promise<unknown>>) => {
  const names = Object.keys(variants)
  const samples: Record<string, Array<number>> = Object.fromEntries(names.map((name) => [name, []]))
  const batch = 50
  // Warm-up.
  for (const name of names) for (let i = 0; i < 500; i++) await variants[name]!()
  for (let round = 0; round < iterations / batch; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse()
    for (const name of order) {
      const start = performance.now()
      for (let i = 0; i < batch; i++) await variants[name]!()
      samples[name]!.push((performance.now() - start) / batch)
    }
  }
  const median = (values: Array<number>) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name]!)])) as Record<string, number>
}

// ---- Claude Agent SDK ---------------------------------------------------------------------------
const hooks = agentHooks({ projectDir: project, engineOptions })
const pre = hooks.PreToolUse![0]!.hooks[0]!
const noop: HookCallback = async () => ({})
const signal = new AbortController().signal
let n = 0
const input = () => ({
  hook_event_name: "PreToolUse" as const,
  session_id: "bench",
  transcript_path: join(project, "transcript.jsonl"),
  cwd: project,
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: `ls ${n++}` },
  tool_use_id: `toolu_${n}`
})
// The engine is made on the first event: made here, outside the measure.
await pre(input() as never, "toolu_0", { signal })
const claude = await measure({
  noop: () => noop(input() as never, "toolu", { signal }),
  agentHooks: () => pre(input() as never, "toolu", { signal })
})

// ---- OpenAI Agents SDK --------------------------------------------------------------------------
const shell = tool({
  name: "shell",
  description: "Run a shell command",
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => `ran ${command}`
})
const [guarded] = guardTools([shell], { projectDir: project, engineOptions }) as unknown as Array<FunctionTool<unknown>>
const plain = {
  ...(shell as unknown as FunctionTool<unknown>),
  needsApproval: async () => false,
  inputGuardrails: [defineToolInputGuardrail({ name: "noop", run: async () => ToolGuardrailFunctionOutputFactory.allow() })]
} as FunctionTool<unknown>
const agent = new Agent({ name: "bench" })
/** One call through the Runner's seams for a function tool: approval, input guardrails, invoke. */
const callThrough = (fn: FunctionTool<unknown>) => async () => {
  const context = new RunContext()
  const callId = `call_${n++}`
  const args = JSON.stringify({ command: `ls ${n}` })
  const toolCall = { type: "function_call" as const, callId, name: "shell", arguments: args }
  if (await fn.needsApproval(context, JSON.parse(args), callId)) throw new Error("asked")
  for (const guardrail of fn.inputGuardrails ?? []) {
    const out = await guardrail.run({ context, agent, toolCall })
    if (out.behavior.type !== "allow") throw new Error("rejected")
  }
  return fn.invoke(context, args, { toolCall })
}
await callThrough(guarded!)()
const openai = await measure({ noop: callThrough(plain), guardTools: callThrough(guarded!) })

await closeProjectEngines()
rmSync(project, { recursive: true, force: true })

const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`
const claudeOver = claude["agentHooks"]! - claude["noop"]!
const openaiOver = openai["guardTools"]! - openai["noop"]!
const pass = (over: number) => (over <= goalMs ? "PASS" : "FAIL")
const report = `# In-process SDK adapters: overhead per tool call

Measured by \`node bench/sdk-overhead.ts --iterations ${iterations}\` (after \`npm run build\`) on ${new Date().toISOString().slice(0, 10)}:
Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores, shared with other work: expect noise).
Load average (1, 5, 15 min) at the start: ${startLoad.map((l) => l.toFixed(2)).join(" ")}; at the end: ${loadavg()
  .map((l) => l.toFixed(2))
  .join(" ")}.

The policy: project settings whose hooks match nothing of the call (PreToolUse and PostToolUse on \`Write|Edit\`, one
UserPromptSubmit hook), loaded by \`projectEngine\` as the adapters do by default. Each cell: the median per-call time of
batches of 50 calls, the variants interleaved (forward, then reverse order) after a warm-up, in one process.

| seam | calls | no-op callback | agent-hooks | over the no-op | goal ≤ ${goalMs} ms |
| --- | --- | --- | --- | --- | --- |
| Claude Agent SDK: the PreToolUse hook callback | ${iterations} | ${fmt(claude["noop"]!)} | ${fmt(claude["agentHooks"]!)} | ${fmt(claudeOver)} | **${pass(claudeOver)}** |
| OpenAI Agents SDK: needsApproval + tool input guardrail + invoke | ${iterations} | ${fmt(openai["noop"]!)} | ${fmt(openai["guardTools"]!)} | ${fmt(openaiOver)} | **${pass(openaiOver)}** |

- The Claude Agent SDK calls the callback over its control channel with the CLI process; that channel costs the same
  for the no-op callback, so the difference above is what the adapter adds per call.
- The OpenAI Agents SDK row runs the three seams a guarded function tool goes through, in the Runner's order; the
  no-op variant has a \`needsApproval\` that answers \`false\` and a guardrail that allows. A call no hook matches is
  answered from the engine's index (\`unmatched\`): no dispatch, no hook process.
`
writeFileSync(values.out, report)
console.log(report)
process.exit(claudeOver <= goalMs && openaiOver <= goalMs ? 0 : 1)
