/**
 * A scripted agent session, run through the hooks of `examples/hooks.json` with the Promise
 * facade: every event a real agent would send, with what each hook did and what the engine
 * decided.
 *
 *   npm run demo        (from the repository root, after `npm run build`)
 *   node examples/demo.ts
 *
 * The hooks write only under a temporary directory (AGENT_HOOKS_EXAMPLE_LOG_DIR), removed at the end.
 */
import { createHookEngine } from "@agent-hooks/node"
import type { Outcome } from "@agent-hooks/core"
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

// ── terminal styling (none when stdout is not a terminal, or NO_COLOR is set) ─────────────────
const color = process.stdout.isTTY === true && (process.env.NO_COLOR ?? "") === ""
const style = (code: string) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
const bold = style("1")
const dim = style("2")
const red = style("31")
const green = style("32")
const yellow = style("33")
const cyan = style("36")

const statusMark: Record<Outcome.HookStatus, string> = {
  success: green("✓ success"),
  "blocking-error": red("✗ blocking-error"),
  "non-blocking-error": yellow("! non-blocking-error"),
  cancelled: yellow("⏱ cancelled"),
  detached: dim("… detached")
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim()

// ── the session ───────────────────────────────────────────────────────────────────────────────
const project = dirname(fileURLToPath(import.meta.url))
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-demo-")))
const session = {
  session_id: `demo-${process.pid}`,
  transcript_path: join(scratch, "transcript.jsonl"),
  cwd: project,
  permission_mode: "default"
}

interface Step {
  readonly title: string
  readonly event: string
  readonly payload: Record<string, unknown>
  /** What the hooks of examples/hooks.json must decide; the demo fails if they do not. */
  readonly expect: "allowed" | "blocked"
}

const steps: ReadonlyArray<Step> = [
  { title: "the session starts", event: "SessionStart", payload: { source: "startup" }, expect: "allowed" },
  {
    title: "the user submits a prompt",
    event: "UserPromptSubmit",
    payload: { prompt: "Add a --verbose flag to the CLI, then run the tests." },
    expect: "allowed"
  },
  {
    title: "the user pastes a prompt with an access key",
    event: "UserPromptSubmit",
    payload: { prompt: "Deploy with AKIAIOSFODNN7EXAMPLE please" },
    expect: "blocked"
  },
  {
    title: "the agent runs a safe command",
    event: "PreToolUse",
    payload: { tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "toolu_01" },
    expect: "allowed"
  },
  {
    title: "the agent tries a dangerous command",
    event: "PreToolUse",
    payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" }, tool_use_id: "toolu_02" },
    expect: "blocked"
  },
  {
    title: "the agent asks to write a file in the project",
    event: "PreToolUse",
    payload: {
      tool_name: "Write",
      tool_input: { file_path: join(project, "src", "verbose.ts"), content: "export const verbose = true\n" },
      tool_use_id: "toolu_03"
    },
    expect: "allowed"
  },
  {
    title: "the file was written",
    event: "PostToolUse",
    payload: {
      tool_name: "Write",
      tool_input: { file_path: join(project, "src", "verbose.ts"), content: "export const verbose = true\n" },
      tool_response: { filePath: join(project, "src", "verbose.ts"), success: true },
      tool_use_id: "toolu_03"
    },
    expect: "allowed"
  },
  {
    title: "the agent wants to stop",
    event: "Stop",
    payload: { stop_hook_active: false, last_assistant_message: "Done: the flag is added." },
    expect: "blocked"
  },
  {
    title: "the agent ran the tests and wants to stop again",
    event: "Stop",
    payload: { stop_hook_active: true, last_assistant_message: "Tests pass." },
    expect: "allowed"
  },
  { title: "the session ends", event: "SessionEnd", payload: { reason: "prompt_input_exit" }, expect: "allowed" }
]

const describePayload = (step: Step): string => {
  const input = step.payload.tool_input as Record<string, unknown> | undefined
  if (typeof step.payload.tool_name === "string") {
    const detail = input?.command ?? input?.file_path
    return `${step.payload.tool_name}${detail === undefined ? "" : `: ${String(detail)}`}`
  }
  if (typeof step.payload.prompt === "string") return JSON.stringify(step.payload.prompt)
  if (typeof step.payload.source === "string") return `source=${step.payload.source}`
  if (typeof step.payload.reason === "string") return `reason=${step.payload.reason}`
  if (typeof step.payload.stop_hook_active === "boolean") return `stop_hook_active=${step.payload.stop_hook_active}`
  return ""
}

const print = (line = "") => process.stdout.write(`${line}\n`)

const report = (index: number, step: Step, outcome: Outcome.Outcome): boolean => {
  print(bold(`${String(index + 1).padStart(2)}. ${step.title}`))
  print(`    ${cyan(step.event)} ${dim(describePayload(step))}`)
  if (outcome.hooks.length === 0) print(dim("    no hook matched"))
  for (const hook of outcome.hooks) {
    const exit = hook.exitCode === null ? `signal ${hook.signal ?? "?"}` : `exit ${hook.exitCode}`
    const decided = hook.decision === null ? "" : `  ${dim("decided")} ${hook.decision}`
    print(`    ${statusMark[hook.status]}  ${dim(`${exit}, ${hook.durationMs.toFixed(0)} ms`)}  ${hook.command}${decided}`)
  }
  const verdict = outcome.blocked
    ? red(`blocked${outcome.decision === null ? "" : ` (${outcome.decision})`}`)
    : green(outcome.decision === null ? "goes ahead" : `goes ahead (${outcome.decision})`)
  print(`    → ${verdict}`)
  if (outcome.reason !== null) print(`      reason: ${oneLine(outcome.reason)}`)
  for (const context of outcome.additionalContext) print(`      context: ${oneLine(context)}`)
  for (const message of outcome.systemMessages) print(`      system message: ${oneLine(message)}`)
  if (outcome.updatedInput !== null) print(`      updated input: ${JSON.stringify(outcome.updatedInput)}`)
  if (!outcome.continue) print(`      the agent must stop: ${outcome.stopReason ?? ""}`)
  const asExpected = (outcome.blocked ? "blocked" : "allowed") === step.expect
  if (!asExpected) print(red(`    ✗ expected this event to be ${step.expect}`))
  print()
  return asExpected
}

const main = async (): Promise<number> => {
  const engine = await createHookEngine({
    settings: [join(project, "hooks.json")],
    projectDir: project,
    env: { ...process.env, AGENT_HOOKS_EXAMPLE_LOG_DIR: scratch },
    onWarning: (warning) => print(yellow(`warning: ${warning}`))
  })
  try {
    const total = Object.values(engine.settings.hooks).reduce((n, entries) => n + entries.length, 0)
    print(bold("agent-hooks demo: a scripted agent session"))
    print(dim(`settings: ${join(project, "hooks.json")} (${total} hooks); hooks write under ${scratch}`))
    print()
    let blocked = 0
    let unexpected = 0
    for (const [index, step] of steps.entries()) {
      const outcome = await engine.dispatch(step.event, { ...session, ...step.payload })
      if (outcome.blocked) blocked++
      if (!report(index, step, outcome)) unexpected++
    }
    print(bold("log written by the hooks:"))
    for (const line of readFileSync(join(scratch, "writes.log"), "utf8").trimEnd().split("\n")) print(dim(`  ${line}`))
    print()
    if (unexpected > 0) {
      print(red(`demo failed: ${unexpected} of ${steps.length} events were not decided as expected`))
      return 1
    }
    print(green(`demo finished: ${steps.length} events, ${blocked} blocked, all decided as expected`))
    return 0
  } finally {
    await engine.close()
  }
}

try {
  process.exitCode = await main()
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
