// Qwen Code's own hook engine as the oracle of `--preset qwen`: the same hooks and payloads go through
// Qwen Code's HookSystem (from the pinned @qwen-code/qwen-code in agents/node_modules, driven offline
// as /work/shared/bench/qwen-hook-driver.mjs does) and through `agent-hooks run <event> --preset qwen`,
// and both must come to the same decision, reason and context. The differences the preset's docs
// list (docs/presets/qwen.md) are cases with `differs`: there the two must differ exactly that way.
import { readdirSync, readFileSync, realpathSync } from "node:fs"
import { registerHooks } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * Qwen Code ships one bundled CLI whose hook classes are not exported: a module hook appends an
 * export of HookSystem to the chunk that defines it, as Node loads it (the installed files stay as
 * they are).
 */
export async function loadQwenHookSystem(agentsModules) {
  const chunks = join(agentsModules, "@qwen-code", "qwen-code", "chunks")
  const file = readdirSync(chunks)
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(chunks, f))
    .find((f) => readFileSync(f, "utf8").includes("var HookSystem = class"))
  if (file === undefined) throw new Error(`no chunk of ${chunks} defines HookSystem (did Qwen Code's bundle change?)`)
  // Node loads a module under its real path (agents/node_modules may be a link).
  const url = pathToFileURL(realpathSync(file)).href
  registerHooks({
    load(u, context, next) {
      const loaded = next(u, context)
      return u === url
        ? {
            ...loaded,
            source: `${loaded.source}\nexport { HookSystem as __AgentHooksOracleHookSystem, HookEventName as __AgentHooksOracleEvents };\n`
          }
        : loaded
    }
  })
  const module = await import(url)
  if (typeof module.__AgentHooksOracleHookSystem !== "function") throw new Error(`${file}: HookSystem could not be exported`)
  const HookSystem = module.__AgentHooksOracleHookSystem
  // Qwen Code's own list of its events (its HookEventName enum), for the per-event table
  HookSystem.events = Object.values(module.__AgentHooksOracleEvents ?? {})
  if (HookSystem.events.length === 0) throw new Error(`${file}: HookEventName could not be exported`)
  return HookSystem
}

/** Only the Config methods Qwen Code's hook classes call (found with a logging Proxy). */
const qwenConfig = (hooks, cwd) => ({
  getAllowedHttpHookUrls: () => [],
  getAllowPrivateNetworkHooks: () => false,
  getSystemHooks: () => undefined,
  getUserHooks: () => hooks,
  getProjectHooks: () => undefined,
  getExtensions: () => [],
  getSessionId: () => "oracle-session",
  getWorkingDir: () => cwd,
  getTranscriptPath: () => "",
  getApprovalMode: () => "default",
  getSessionSourceType: () => undefined,
  getSessionSourceId: () => undefined,
  getMessageBus: () => undefined,
  getUsageStatisticsEnabled: () => false
})

const cmd = (command, extra = {}) => ({ type: "command", command: `cat > /dev/null; ${command}`, ...extra })
const json = (value) => `echo '${JSON.stringify(value)}'`
const pre = (decision, reason) =>
  json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason } })
const shell = { tool: "run_shell_command", input: { command: "rm -rf /tmp/x" } }

/**
 * The table: each case's hooks (Claude Code's shape, as a Qwen settings file holds them) and one
 * call. `differs`: the documented difference, and what each side gives.
 */
export const QWEN_CASES = [
  {
    id: "exit2-stderr",
    hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [cmd("echo 'rm is forbidden' >&2; exit 2")] }] },
    ...shell
  },
  { id: "exit2-other-tool", hooks: { PreToolUse: [{ matcher: "write_file", hooks: [cmd("echo no >&2; exit 2")] }] }, ...shell },
  { id: "matcher-regex", hooks: { PreToolUse: [{ matcher: "run_.*|write_file", hooks: [cmd("echo regex >&2; exit 2")] }] }, ...shell },
  { id: "matcher-star", hooks: { PreToolUse: [{ matcher: "*", hooks: [cmd("echo star >&2; exit 2")] }] }, ...shell },
  { id: "matcher-empty", hooks: { PreToolUse: [{ hooks: [cmd("echo none >&2; exit 2")] }] }, ...shell },
  { id: "exit1-proceeds", hooks: { PreToolUse: [{ hooks: [cmd("echo oops >&2; exit 1")] }] }, ...shell },
  { id: "exit0-plain-text", hooks: { PreToolUse: [{ hooks: [cmd("echo fine")] }] }, ...shell },
  { id: "json-deny", hooks: { PreToolUse: [{ hooks: [cmd(pre("deny", "json says no"))] }] }, ...shell },
  { id: "json-ask", hooks: { PreToolUse: [{ hooks: [cmd(pre("ask", "check first"))] }] }, ...shell },
  { id: "json-allow", hooks: { PreToolUse: [{ hooks: [cmd(pre("allow", "fine"))] }] }, ...shell },
  { id: "decision-block", hooks: { PreToolUse: [{ hooks: [cmd(json({ decision: "block", reason: "legacy block" }))] }] }, ...shell },
  { id: "continue-false", hooks: { PreToolUse: [{ hooks: [cmd(json({ continue: false, stopReason: "stop here" }))] }] }, ...shell },
  {
    id: "deny-beside-allow",
    hooks: { PreToolUse: [{ hooks: [cmd(pre("allow", "ok"))] }, { hooks: [cmd(pre("deny", "second says no"))] }] },
    ...shell
  },
  {
    id: "context",
    hooks: {
      PreToolUse: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "remember the tests" } }))] }]
    },
    ...shell
  },
  { id: "timeout-ms", hooks: { PreToolUse: [{ hooks: [cmd("sleep 5; echo late >&2; exit 2", { timeout: 1500 })] }] }, ...shell },
  {
    id: "post-context",
    event: "PostToolUse",
    hooks: {
      PostToolUse: [
        {
          matcher: "run_shell_command",
          hooks: [cmd(json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "ran fine" } }))]
        }
      ]
    },
    ...shell,
    response: { output: "" }
  },
  {
    id: "post-block",
    event: "PostToolUse",
    hooks: { PostToolUse: [{ hooks: [cmd(json({ decision: "block", reason: "look at the output" }))] }] },
    ...shell,
    response: { output: "" },
    // documented in docs/presets/qwen.md: Qwen Code reads no PostToolUse decision (the reason never reaches the model); a block is never dropped
    differs: { qwen: { verdict: "allow" }, ours: { verdict: "block" } }
  },
  {
    // A hookSpecificOutput field the event does not read changes nothing, in either engine (agent-hooks names it)
    id: "unread-field-beside-deny",
    hooks: {
      PreToolUse: [
        {
          hooks: [
            cmd(
              json({
                hookSpecificOutput: {
                  hookEventName: "PreToolUse",
                  permissionDecision: "deny",
                  permissionDecisionReason: "no",
                  sessionTitle: "x",
                  watchPaths: ["/tmp"]
                }
              })
            )
          ]
        }
      ]
    },
    ...shell
  },
  {
    id: "post-unread-fields",
    event: "PostToolUse",
    hooks: {
      PostToolUse: [
        {
          hooks: [
            cmd(
              json({
                hookSpecificOutput: {
                  hookEventName: "PostToolUse",
                  additionalContext: "kept",
                  updatedInput: { command: "x" },
                  decision: {}
                }
              })
            )
          ]
        }
      ]
    },
    ...shell,
    response: { output: "" }
  },
  {
    // Qwen Code matches Claude Code's tool names as aliases of its own (Bash for run_shell_command).
    id: "matcher-claude-name",
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("echo alias >&2; exit 2")] }] },
    ...shell
  },
  { id: "matcher-list-alias", hooks: { PreToolUse: [{ matcher: "Write|Bash", hooks: [cmd("echo list >&2; exit 2")] }] }, ...shell },
  {
    id: "matcher-regex-alias",
    hooks: { PreToolUse: [{ matcher: "Edit|write_.*", hooks: [cmd("echo mixed >&2; exit 2")] }] },
    tool: "edit",
    input: { file_path: "a" }
  },
  { id: "matcher-plain-substring", hooks: { PreToolUse: [{ matcher: "shell", hooks: [cmd("echo sub >&2; exit 2")] }] }, ...shell },
  {
    id: "matcher-other-alias",
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [cmd("echo read >&2; exit 2")] }] },
    tool: "grep_search",
    input: { pattern: "x" }
  },
  {
    id: "exit2-empty-stderr",
    hooks: { PreToolUse: [{ hooks: [cmd("exit 2")] }] },
    ...shell,
    // documented in docs/presets/qwen.md: a block is never dropped
    differs: { qwen: { verdict: "allow" }, ours: { verdict: "deny" } }
  },
  {
    id: "context-angle-brackets",
    hooks: {
      PreToolUse: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "<b>bold</b>" } }))] }]
    },
    ...shell,
    // documented in docs/presets/qwen.md: Qwen Code escapes what it shows, the preset passes it as written
    differs: { qwen: { context: "&lt;b&gt;bold&lt;/b&gt;" }, ours: { context: "<b>bold</b>" } }
  }
]

/**
 * How Qwen Code 0.24 fires each event (`HookSystem.fire<Event>Event`), with arguments like its own
 * callers'. A method that returns the aggregated result (Stop, the Todo events) gives its
 * `finalOutput`. `null`: Qwen Code runs the event's hooks detached, through a supervisor that
 * survives it, and reads none of their output (its hookRunner's `survivesParentExit`).
 */
const FIRE = {
  PreToolUse: (s) => s.firePreToolUseEvent(shell.tool, shell.input, "toolu_oracle", "default"),
  PostToolUse: (s) => s.firePostToolUseEvent(shell.tool, shell.input, { output: "" }, "toolu_oracle", "default"),
  PostToolUseFailure: (s) => s.firePostToolUseFailureEvent("toolu_oracle", shell.tool, shell.input, "failed", false, "default"),
  PostToolBatch: (s) => s.firePostToolBatchEvent([{ tool_name: shell.tool, tool_input: shell.input }], "default"),
  Notification: (s) => s.fireNotificationEvent("Qwen Code needs your permission", "permission_prompt", "Permission needed"),
  UserPromptSubmit: (s) => s.fireUserPromptSubmitEvent("hello"),
  UserPromptExpansion: (s) => s.fireUserPromptExpansionEvent("review", "", "review this"),
  SessionStart: (s) => s.fireSessionStartEvent("startup", "qwen", "default"),
  Stop: (s) => s.fireStopEvent(false, "done"),
  MessageDisplay: null,
  SubagentStart: (s) => s.fireSubagentStartEvent("a1", "general", "default"),
  SubagentStop: (s) => s.fireSubagentStopEvent("a1", "general", "", "done", false, "default"),
  PreCompact: (s) => s.firePreCompactEvent("manual", ""),
  PostCompact: (s) => s.firePostCompactEvent("manual", "summary"),
  SessionEnd: (s) => s.fireSessionEndEvent("other"),
  SessionDelete: null,
  PermissionRequest: (s) => s.firePermissionRequestEvent(shell.tool, shell.input, "default", []),
  PermissionDenied: (s) => s.firePermissionDeniedEvent(shell.tool, shell.input, "toolu_oracle", "denied"),
  StopFailure: null,
  InstructionsLoaded: (s) => s.fireInstructionsLoadedEvent("/p/QWEN.md", "Project", "session_start"),
  TodoCreated: (s) => s.fireTodoCreatedEvent("t1", "write tests", "pending", [], "validation"),
  TodoCompleted: (s) => s.fireTodoCompletedEvent("t1", "write tests", "in_progress", [], "validation")
}

/**
 * What Qwen Code 0.24 reads of each event's answer: the code that fires the event, read off its
 * source (the function named), as {blocks(output), context: reads additionalContext, fields: the
 * hookSpecificOutput fields it takes}. An event missing here, or here and not in Qwen Code's
 * HookEventName, fails the oracle: the table is kept in step with the pinned Qwen Code.
 */
const QWEN_READS = {
  // firePreToolUseHook: deny and ask stop the call, continue: false stops; the context only when it runs
  PreToolUse: {
    blocks: (o) => o.isDenied() || o.isAsk() || o.shouldStopExecution(),
    context: true,
    fields: ["permissionDecision", "permissionDecisionReason", "additionalContext"]
  },
  // firePostToolUseHook: only continue: false stops (a decision is not read); the context reaches the model
  PostToolUse: { blocks: (o) => o.shouldStopExecution(), context: true, fields: ["additionalContext"] },
  PostToolUseFailure: { blocks: () => false, context: true, fields: ["additionalContext"] },
  // firePostToolBatchHook: shouldStopExecution, a block decision included
  PostToolBatch: { blocks: (o) => o.shouldStopExecution(), context: true, fields: ["additionalContext"] },
  // fireNotificationHook takes additionalContext, and every caller drops it (only terminalSequence is used)
  Notification: { blocks: () => false, context: false, fields: [] },
  // GeminiClient.sendMessageStream: a block or continue: false refuses the prompt; the context goes with it
  UserPromptSubmit: { blocks: (o) => o.isBlockingDecision() || o.shouldStopExecution(), context: true, fields: ["additionalContext"] },
  // fireUserPromptExpansionHook
  UserPromptExpansion: {
    blocks: (o) => o.getBlockingError().blocked || o.shouldStopExecution(),
    context: true,
    fields: ["additionalContext"]
  },
  // fireSessionStartHook
  SessionStart: { blocks: () => false, context: true, fields: ["additionalContext"] },
  // the Stop loop: a block or continue: false continues the turn; its additionalContext is not read
  Stop: { blocks: (o) => o.isBlockingDecision() || o.shouldStopExecution(), context: false, fields: [] },
  // MessageDisplay: dispatched, the answer not read
  MessageDisplay: { blocks: () => false, context: false, fields: [] },
  // the subagent's start: its context goes into the subagent
  SubagentStart: { blocks: () => false, context: true, fields: ["additionalContext"] },
  SubagentStop: { blocks: (o) => o.isBlockingDecision() || o.shouldStopExecution(), context: false, fields: [] },
  // compaction: additionalContext becomes extra compaction instructions; a block is not read
  PreCompact: { blocks: () => false, context: true, fields: ["additionalContext"] },
  PostCompact: { blocks: () => false, context: false, fields: [] },
  SessionEnd: { blocks: () => false, context: false, fields: [] },
  SessionDelete: { blocks: () => false, context: false, fields: [] },
  // firePermissionRequestHook: hookSpecificOutput.decision {behavior, message, updatedInput, interrupt}
  PermissionRequest: { blocks: (o) => o.getPermissionDecision?.()?.behavior === "deny", context: false, fields: ["decision"] },
  PermissionDenied: { blocks: () => false, context: false, fields: [] },
  StopFailure: { blocks: () => false, context: false, fields: [] },
  InstructionsLoaded: { blocks: () => false, context: false, fields: [] },
  // todo_write: `finalOutput.decision === "block"` refuses the change (exit 2 alone reads as "deny" there)
  TodoCreated: { blocks: (o) => o.decision === "block", context: false, fields: [] },
  TodoCompleted: { blocks: (o) => o.decision === "block", context: false, fields: [] }
}

/** Every hookSpecificOutput field some Claude Code event reads, with a value each event that reads it accepts. */
const ALL_FIELDS = {
  permissionDecision: "allow",
  permissionDecisionReason: "fine",
  updatedInput: { command: "ls" },
  additionalContext: "all-fields context",
  decision: { behavior: "allow" },
  retry: true,
  sessionTitle: "t",
  suppressOriginalPrompt: false,
  updatedToolOutput: "x",
  updatedMCPToolOutput: "x",
  classifierContext: "x",
  initialUserMessage: "x",
  watchPaths: ["/tmp"],
  reloadSkills: false,
  displayContent: "x",
  action: "accept",
  content: {},
  worktreePath: "/tmp"
}

/** The payload `agent-hooks run <event> --preset qwen` gets for an event's case. */
const payloadOf = (event) =>
  ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"].includes(event)
    ? { tool_name: shell.tool, tool_input: shell.input, ...(event === "PostToolUse" ? { tool_response: { output: "" } } : {}) }
    : {}

/**
 * Events the preset has that the pinned Qwen Code has not, and why (checked: the oracle fails on
 * any other event one side has and the other lacks).
 */
export const QWEN_MISSING = {
  QueryEnd: "in Qwen Code 1.x's hooks reference; the pinned 0.24 has no such event (its hooks never run there)"
}

/**
 * Per event, where the preset differs on purpose (docs/presets/qwen.md lists each): the case id and
 * what each side gives.
 */
const EVENT_DIFFERS = {
  // a block is never dropped: Qwen Code reads no decision on PostToolUse (only continue: false), nor on PreCompact
  "PostToolUse:json-block": { qwen: { blocked: false }, ours: { blocked: true } },
  "PostToolUse:exit2": { qwen: { blocked: false }, ours: { blocked: true } },
  "PreCompact:json-block": { qwen: { blocked: false }, ours: { blocked: true } },
  "PreCompact:exit2": { qwen: { blocked: false }, ours: { blocked: true } },
  // todo_write blocks on "block" only; one hook's exit 2 reads as "deny" there, and the todo is written
  "TodoCreated:exit2": { qwen: { blocked: false }, ours: { blocked: true } },
  "TodoCompleted:exit2": { qwen: { blocked: false }, ours: { blocked: true } }
}

/**
 * The per-event cases: for every event of Qwen Code's and of the preset's, (1) a context (whether
 * additionalContext reaches anything), (2) a JSON `decision: "block"` and (3) exit 2 (whether the
 * event blocks), each through both engines; and (4) which hookSpecificOutput fields are read (the
 * preset's: those its warnings do not name as unread).
 */
export function eventCases(qwenEvents, presetEvents) {
  const cases = []
  for (const event of [...new Set([...qwenEvents, ...presetEvents])].sort()) {
    const inQwen = qwenEvents.includes(event)
    const inPreset = presetEvents.includes(event)
    if (!inQwen || !inPreset || QWEN_READS[event] === undefined || FIRE[event] === undefined) {
      const why = !inPreset
        ? "Qwen Code has this event and --preset qwen does not"
        : !inQwen
          ? QWEN_MISSING[event]
          : "no reading of this event in QWEN_READS / FIRE (agents/lib/oracle-qwen.mjs)"
      cases.push({ id: `${event}:exists`, event, only: { ok: !inQwen && inPreset && QWEN_MISSING[event] !== undefined, why } })
      continue
    }
    const hook = (command) => ({ [event]: [{ hooks: [cmd(command)] }] })
    const specific = (fields) => json({ hookSpecificOutput: { hookEventName: event, ...fields } })
    cases.push({ id: `${event}:context`, event, hooks: hook(specific({ additionalContext: `context of ${event}` })), kind: "context" })
    cases.push({ id: `${event}:json-block`, event, hooks: hook(json({ decision: "block", reason: `no ${event}` })), kind: "block" })
    cases.push({ id: `${event}:exit2`, event, hooks: hook(`echo 'no ${event}' >&2; exit 2`), kind: "block" })
    cases.push({ id: `${event}:fields`, event, hooks: hook(specific(ALL_FIELDS)), kind: "fields" })
  }
  return cases.map((c) => ({ ...c, payload: payloadOf(c.event), differs: EVENT_DIFFERS[c.id] }))
}

/**
 * Host mode as Qwen Code's hook: `agent-hooks hook --host qwen` run by Qwen Code's own engine, its
 * answer read as Qwen Code's code reads it. A policy (Claude Code's names) blocks each event; where
 * Qwen Code reads a block, it must block (TodoCreated: its todo_write blocks on "block" only).
 */
export const HOST_CASES = [
  { event: "TodoCreated", policy: "echo 'one task at a time' >&2; exit 2", blocked: true },
  { event: "TodoCompleted", policy: `echo '{"decision":"block","reason":"tests first"}'`, blocked: true },
  { event: "PreToolUse", policy: "echo 'no shell here' >&2; exit 2", blocked: true },
  { event: "Stop", policy: `echo '{"decision":"block","reason":"not done"}'`, blocked: true },
  { event: "PreCompact", policy: `echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}'`, blocked: false }
]

/** Qwen Code's side of an event case. */
export async function eventThroughQwen(HookSystem, c, cwd) {
  const reads = QWEN_READS[c.event]
  if (c.kind === "fields") return { fields: [...reads.fields].sort() }
  if (FIRE[c.event] === null) return c.kind === "context" ? { context: null } : { blocked: false }
  const system = new HookSystem(qwenConfig(c.hooks, cwd))
  await system.initialize()
  const fired = await FIRE[c.event](system)
  const output = typeof fired?.getAdditionalContext === "function" ? fired : fired?.finalOutput
  if (c.kind === "context") {
    const context = output === undefined || !reads.context ? null : (output.getRawAdditionalContext() ?? null)
    return { context }
  }
  return { blocked: output !== undefined && reads.blocks(output) === true }
}

/** The preset's side of an event case, from the Outcome of `agent-hooks run <event> --preset qwen`. */
function eventThroughOurs(c, outcome) {
  if (c.kind === "context") return { context: outcome.additionalContext.length === 0 ? null : outcome.additionalContext.join("\n") }
  if (c.kind === "block") return { blocked: outcome.blocked === true }
  const unread = new Set(outcome.warnings.flatMap((line) => [...line.matchAll(/hookSpecificOutput\.(\w+) is ignored: /g)].map((m) => m[1])))
  return {
    fields: Object.keys(ALL_FIELDS)
      .filter((field) => !unread.has(field))
      .sort()
  }
}

/** Whether a case's two answers agree: equal, or (a documented difference) each as the case says. */
export function agrees(c, qwen, ours) {
  if (c.differs === undefined) return JSON.stringify(qwen) === JSON.stringify(ours)
  const fits = (value, expected) => Object.entries(expected).every(([key, v]) => value[key] === v)
  return fits(qwen, c.differs.qwen) && fits(ours, c.differs.ours)
}

/** What Qwen Code's CLI makes of the PreToolUse/PostToolUse output (its coreToolScheduler's reading). */
async function throughQwen(HookSystem, c, cwd) {
  const system = new HookSystem(qwenConfig(c.hooks, cwd))
  await system.initialize()
  const output =
    (c.event ?? "PreToolUse") === "PreToolUse"
      ? await system.firePreToolUseEvent(c.tool, c.input, "toolu_oracle", "default")
      : await system.firePostToolUseEvent(c.tool, c.input, c.response, "toolu_oracle", "default")
  if (output === undefined) return { verdict: "allow", reason: null, context: null }
  const context = output.getAdditionalContext() ?? null
  if ((c.event ?? "PreToolUse") === "PreToolUse") {
    if (output.isDenied())
      return { verdict: "deny", reason: output.getPermissionDecisionReason() || output.getEffectiveReason(), context: null }
    if (output.isAsk())
      return { verdict: "ask", reason: output.getPermissionDecisionReason() || "User confirmation required", context: null }
    // firePostToolUseHook reads no decision: only continue: false stops (below)
  }
  if (output.shouldStopExecution()) return { verdict: "stop", reason: output.getEffectiveReason(), context: null }
  return { verdict: "allow", reason: null, context }
}

/** The Outcome of `agent-hooks run`, read the same way. */
export function fromOutcome(outcome, event) {
  const context = outcome.additionalContext.length === 0 ? null : outcome.additionalContext.join("\n")
  if (outcome.decision === "deny" || (event === "PreToolUse" && outcome.decision === "block"))
    return { verdict: "deny", reason: outcome.reason, context: null }
  if (outcome.decision === "ask") return { verdict: "ask", reason: outcome.reason, context: null }
  if (outcome.decision === "block") return { verdict: "block", reason: outcome.reason, context }
  if (outcome.continue === false) return { verdict: "stop", reason: outcome.stopReason, context: null }
  return { verdict: "allow", reason: null, context }
}

/**
 * Runs every case through both engines. `ours(c)` runs the case through agent-hooks and returns its
 * Outcome. Returns one row per case: {id, same, qwen, ours}.
 */
export async function runQwenOracle({ agentsModules, cwd, ours, presetEvents, hostCommand }) {
  const HookSystem = await loadQwenHookSystem(agentsModules)
  const rows = []
  for (const c of HOST_CASES) {
    const command = hostCommand({ hooks: { [c.event]: [{ hooks: [{ type: "command", command: c.policy }] }] } })
    const system = new HookSystem(qwenConfig({ [c.event]: [{ hooks: [{ type: "command", command, timeout: 60 }] }] }, cwd))
    await system.initialize()
    const fired = await FIRE[c.event](system)
    const output = typeof fired?.getAdditionalContext === "function" ? fired : fired?.finalOutput
    const blocked = output !== undefined && QWEN_READS[c.event].blocks(output) === true
    rows.push({ id: `host:${c.event}`, same: blocked === c.blocked, documented: false, qwen: { blocked }, ours: { blocked: c.blocked } })
  }
  for (const c of eventCases(HookSystem.events, presetEvents)) {
    if (c.only !== undefined) {
      rows.push({ id: c.id, same: c.only.ok, documented: c.only.ok, qwen: c.only.why, ours: "" })
      continue
    }
    const theirs = await eventThroughQwen(HookSystem, c, cwd)
    const mine = eventThroughOurs(c, await ours(c, c.event))
    rows.push({ id: c.id, same: agrees(c, theirs, mine), documented: c.differs !== undefined, qwen: theirs, ours: mine })
  }
  for (const c of QWEN_CASES) {
    const event = c.event ?? "PreToolUse"
    const theirs = await throughQwen(HookSystem, c, cwd)
    const mine = fromOutcome(await ours(c, event), event)
    rows.push({ id: c.id, same: agrees(c, theirs, mine), documented: c.differs !== undefined, qwen: theirs, ours: mine })
  }
  return rows
}
