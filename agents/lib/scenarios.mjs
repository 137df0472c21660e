// The scenarios. Each runs twice per agent:
//   native       the agent's own hook config, with plain sh hooks written in that agent's own
//                language (the control: it must behave as the scenario expects, else the scenario
//                is reported as a control failure, because the harness, not agent-hooks, is wrong);
//   agent-hooks  `agent-hooks hook --host <agent>` as the agent's one hook (on the four events),
//                running a policy written ONCE, against Claude Code's names, for every agent.
// Where an agent has no such event or feature, the scenario is skipped with the reason printed.
//
// The model's script (lib/server.mjs): call the shell tool with `touch MARKER`, then say `done`.

/** The reasons carry tokens the checks look for in what the model was sent. */
export const TOKENS = {
  exit2: "policy-exit2-reason-51c",
  json: "policy-json-deny-reason-8d2",
  ask: "policy-ask-reason-3fe",
  rewrite: "policy-rewrite-note-b47",
  context: "policy-post-context-9a1",
  stop: "policy-stop-reason-c60",
  prompt: "policy-prompt-reason-e75",
  read: "policy-read-reason-2b8"
}
/** What project/secret.txt holds: it must never reach the model when reading it is blocked. */
export const SECRET_CONTENT = "secret-content-0f4e"

// ---- hook scripts (sh) -----------------------------------------------------------------------
// Every script first saves its stdin in the run's state folder (what the agent sends its hook).
const head = (state, name) => `#!/bin/sh
input=$(cat)
n=$(ls "${state}" | wc -l)
printf '%s\\n' "$input" > "${state}/$n-${name}.json"
`
const onMarker = (body) => `case "$input" in *MARKER*) ${body} ;; esac
exit 0
`
const HANG_S = 45
const q = (value) => `'${JSON.stringify(value).replace(/'/g, `'\\''`)}'`

const S = {
  exit2: (st) => head(st, "pre") + onMarker(`echo "blocked by policy: ${TOKENS.exit2}" >&2; exit 2`),
  // Claude Code's PreToolUse JSON answers (also Codex's and Qwen's).
  ccDeny: (st) =>
    head(st, "pre") +
    onMarker(
      `echo ${q({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `denied by policy: ${TOKENS.json}` } })}`
    ),
  ccAsk: (st) =>
    head(st, "pre") +
    onMarker(
      `echo ${q({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: `needs a human: ${TOKENS.ask}` } })}`
    ),
  ccRewrite: (st) =>
    head(st, "pre") +
    onMarker(
      `echo ${q({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: `rewritten by policy: ${TOKENS.rewrite}`, updatedInput: { command: "touch REWRITTEN" } } })}`
    ),
  ccPostContext: (st) =>
    head(st, "post") +
    `echo ${q({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: `context from policy: ${TOKENS.context}` } })}\n`,
  // A Stop block, once (a second Stop lets the agent end).
  ccStop: (st) =>
    head(st, "stop") +
    `[ -e "${st}/../stopped-once" ] && exit 0
touch "${st}/../stopped-once"
echo ${q({ decision: "block", reason: `keep going: ${TOKENS.stop}` })}\n`,
  ccPrompt: (st) => head(st, "prompt") + `echo ${q({ decision: "block", reason: `prompt refused by policy: ${TOKENS.prompt}` })}\n`,
  // Gemini CLI's own language: top-level decision/reason; hookSpecificOutput.tool_input rewrites.
  gemDeny: (st) => head(st, "pre") + onMarker(`echo ${q({ decision: "deny", reason: `denied by policy: ${TOKENS.json}` })}`),
  gemRewrite: (st) => head(st, "pre") + onMarker(`echo ${q({ hookSpecificOutput: { tool_input: { command: "touch REWRITTEN" } } })}`),
  gemPostContext: (st) =>
    head(st, "post") +
    `echo ${q({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: `context from policy: ${TOKENS.context}` } })}\n`,
  gemStop: (st) =>
    head(st, "stop") +
    `[ -e "${st}/../stopped-once" ] && exit 0
touch "${st}/../stopped-once"
echo ${q({ decision: "deny", reason: `keep going: ${TOKENS.stop}` })}\n`,
  gemPrompt: (st) => head(st, "prompt") + `echo ${q({ decision: "deny", reason: `prompt refused by policy: ${TOKENS.prompt}` })}\n`,
  // Qwen Code reads ask at the top level.
  // A guard that hangs (exec: no shell left between the agent and the sleep, so a kill reaches it).
  hang: (st) => head(st, "pre") + onMarker(`exec sleep ${HANG_S}`),
  // A read guard in Claude Code's names: Read's `tool_input.file_path`.
  readGuard: (st) =>
    head(st, "pre") +
    `case "$input" in *'"file_path":"'*secret.txt*) echo "reading secret.txt is not allowed: ${TOKENS.read}" >&2; exit 2 ;; esac
exit 0
`,
  qwenAsk: (st) => head(st, "pre") + onMarker(`echo ${q({ decision: "ask", reason: `needs a human: ${TOKENS.ask}` })}`)
}

/**
 * An expectation is checked against what a user would see: the files in the project, what the
 * model was sent, what the agent printed.
 * @typedef {{ marker: boolean, rewritten: boolean, toolCalls: number, mainRequests: number,
 *   sentAfterTool: string, sentToModel: string, secretSent: boolean, output: string, exitCode: number | null, timedOut: boolean }} Observation
 * @typedef {(o: Observation) => string[]} Expectation  the list of what did not hold (empty: passed)
 */

const has = (text, token) => text.includes(token)
/** @returns {Expectation} */
const blocked =
  (token, label = token) =>
  (o) => [
    ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
    ...(o.marker ? ["the tool ran (MARKER exists)"] : []),
    ...(o.rewritten ? ["a rewritten command ran (REWRITTEN exists)"] : []),
    ...(typeof token === "string" && !has(o.sentAfterTool, token) ? [`the reason (${label}) did not reach the model`] : []),
    ...(token instanceof RegExp && !token.test(o.sentAfterTool) ? [`the reason (${label}) did not reach the model`] : [])
  ]
/** @type {Expectation} */
const readBlocked = (o) => [
  ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
  ...(o.secretSent ? ["the file's content reached the model"] : []),
  ...(!has(o.sentAfterTool, TOKENS.read) ? ["the reason did not reach the model"] : [])
]
/** @type {Expectation} */
const ran = (o) => [
  ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
  ...(!o.marker ? ["the tool did not run (no MARKER)"] : [])
]
/** @type {Expectation} */
const rewritten = (o) => [
  ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
  ...(!o.rewritten ? ["the rewritten command did not run (no REWRITTEN)"] : []),
  ...(o.marker ? ["the original command ran (MARKER exists)"] : [])
]
/** @type {Expectation} */
const context = (o) => [...ran(o), ...(!has(o.sentAfterTool, TOKENS.context) ? ["the additionalContext did not reach the model"] : [])]
/** @type {Expectation} */
const stopContinued = (o) => [...ran(o), ...(!has(o.sentAfterTool, TOKENS.stop) ? ["the Stop hook's reason did not reach the model"] : [])]
/** @type {Expectation} */
const promptBlocked = (o) => [
  ...(o.mainRequests > 0 && has(o.sentToModel, "create the marker file") ? ["the prompt reached the model"] : []),
  ...(o.marker ? ["the tool ran (MARKER exists)"] : []),
  ...(!has(o.output, TOKENS.prompt) ? ["the user was not shown the reason"] : [])
]
/** The hosts that block the prompt but never show anyone why (headless). */
const promptBlockedSilently = (o) => [
  ...(o.mainRequests > 0 && has(o.sentToModel, "create the marker file") ? ["the prompt reached the model"] : []),
  ...(o.marker ? ["the tool ran (MARKER exists)"] : [])
]
const CODEX_PROMPT_NOTE =
  "Codex exec prints `hook: UserPromptSubmit Blocked` but never the reason (not in --json either): only the block is checked"
const QWEN_PROMPT_NOTE = "headless Qwen Code prints nothing for a blocked prompt (an empty result): only the block is checked"
const promptBlockedWith = (token) => (o) => [
  ...promptBlockedSilently(o),
  ...(!has(o.output, token) ? [`the user was not shown why (${token})`] : [])
]
const all =
  (...es) =>
  (o) => [...new Set(es.flatMap((e) => e(o)))]
const finished = (o) => (o.timedOut ? ["the agent did not finish (killed at the time limit)"] : [])
/** Gemini CLI reports a hook that exits 2 as failed (`[WARNING] Hook(s) [...] failed`), also when it blocked: host mode's block is not one. */
const notReportedFailed = (o) => (/Hook\(s\) .* failed/.test(o.output) ? ["Gemini CLI reported the hook as failed"] : [])

const skip = (reason) => ({ skip: reason })
/** A native side: one hook script on one event (Claude Code's name), and what must hold. */
const on = (event, script, expect, note) => ({ hooks: [{ event, script }], expect, ...(note ? { note } : {}) })
/** The same side for every agent. */
const each = (side) => ({ claude: side, codex: side, gemini: side, qwen: side })
/** A hook whose program does not exist (an empty script: see run.mjs). */
const missing = () => ""
const MISSING_ON_PRE = [{ event: "PreToolUse", script: missing }]
const MISSING_ON_ALL = ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"].map((event) => ({ event, script: missing }))

/**
 * @typedef {{ event: import("./agents.mjs").Event, script: (state: string) => string, tool?: "read" }} ScriptHook
 *   tool "read": the hook's matcher is the agent's file-reading tool (policy: Claude Code's `Read`)
 * @typedef {{ hooks: ScriptHook[], expect: Expectation } | { skip: string }} Side
 * @typedef {{ id: string, title: string, policy: ScriptHook[] | "broken", permissions?: Record<string, string[]>, wire?: import("./agents.mjs").Event[], hookTimeout?: number, call?: "shell" | "read",
 *   native: Record<string, Side>, agentHooks: Record<string, { expect: Expectation } | { skip: string }> }} Scenario
 */

/** @type {Scenario[]} */
export const SCENARIOS = [
  {
    id: "block-exit2",
    title: "PreToolUse block by exit 2 (reason on stderr)",
    policy: [{ event: "PreToolUse", script: S.exit2 }],
    native: {
      claude: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
      codex: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
      gemini: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
      qwen: on("PreToolUse", S.exit2, blocked(TOKENS.exit2))
    },
    agentHooks: { ...each({ expect: blocked(TOKENS.exit2) }), gemini: { expect: all(blocked(TOKENS.exit2), notReportedFailed) } }
  },
  {
    id: "block-json",
    title: "PreToolUse block by JSON deny",
    policy: [{ event: "PreToolUse", script: S.ccDeny }],
    native: {
      claude: on("PreToolUse", S.ccDeny, blocked(TOKENS.json)),
      codex: on("PreToolUse", S.ccDeny, blocked(TOKENS.json)),
      gemini: on("PreToolUse", S.gemDeny, blocked(TOKENS.json)),
      qwen: on("PreToolUse", S.ccDeny, blocked(TOKENS.json))
    },
    agentHooks: { ...each({ expect: blocked(TOKENS.json) }), gemini: { expect: all(blocked(TOKENS.json), notReportedFailed) } }
  },
  {
    id: "ask",
    title: "PreToolUse ask (headless: nobody to ask, so the call must not run)",
    policy: [{ event: "PreToolUse", script: S.ccAsk }],
    native: {
      // `-p`: nobody to ask, so Claude Code denies and tells the model the hook's reason.
      claude: on("PreToolUse", S.ccAsk, blocked(TOKENS.ask)),
      codex: skip('Codex has no ask: permissionDecision "ask" marks the hook Failed and the tool runs'),
      gemini: skip("headless Gemini CLI hangs on ask until it is killed"),
      qwen: on("PreToolUse", S.qwenAsk, blocked(TOKENS.ask))
    },
    agentHooks: {
      claude: { expect: blocked(TOKENS.ask) },
      // No ask in the host: a deny that says approval is needed, with the policy's reason.
      codex: { expect: all(blocked(TOKENS.ask), blocked(/approval needed/, "approval needed")) },
      gemini: { expect: all(blocked(TOKENS.ask), blocked(/approval needed/, "approval needed")) },
      qwen: { expect: blocked(TOKENS.ask) }
    }
  },
  {
    id: "updated-input",
    title: "PreToolUse updatedInput (touch MARKER -> touch REWRITTEN)",
    policy: [{ event: "PreToolUse", script: S.ccRewrite }],
    native: {
      claude: on("PreToolUse", S.ccRewrite, rewritten),
      codex: on("PreToolUse", S.ccRewrite, rewritten),
      gemini: on("PreToolUse", S.gemRewrite, rewritten),
      qwen: skip("Qwen Code never applies a hook's updatedInput")
    },
    agentHooks: {
      claude: { expect: rewritten },
      codex: { expect: rewritten },
      gemini: { expect: rewritten },
      // The host cannot apply the rewrite: the original call must not run either.
      qwen: { expect: blocked(/touch REWRITTEN/, "the rewrite it cannot apply") }
    }
  },
  {
    id: "post-context",
    title: "PostToolUse additionalContext reaches the model",
    policy: [{ event: "PostToolUse", script: S.ccPostContext }],
    native: {
      claude: on("PostToolUse", S.ccPostContext, context),
      codex: on("PostToolUse", S.ccPostContext, context),
      gemini: on("PostToolUse", S.gemPostContext, context),
      qwen: on("PostToolUse", S.ccPostContext, context)
    },
    agentHooks: each({ expect: context })
  },
  {
    id: "stop-block",
    title: "Stop block: the agent goes on with the reason",
    policy: [{ event: "Stop", script: S.ccStop }],
    native: {
      claude: on("Stop", S.ccStop, stopContinued),
      codex: on("Stop", S.ccStop, stopContinued),
      gemini: on("Stop", S.gemStop, stopContinued),
      qwen: on("Stop", S.ccStop, stopContinued)
    },
    agentHooks: { ...each({ expect: stopContinued }), gemini: { expect: all(stopContinued, notReportedFailed) } }
  },
  {
    id: "prompt-block",
    title: "UserPromptSubmit block: the prompt never reaches the model",
    policy: [{ event: "UserPromptSubmit", script: S.ccPrompt }],
    native: {
      claude: on("UserPromptSubmit", S.ccPrompt, promptBlocked),
      codex: on("UserPromptSubmit", S.ccPrompt, promptBlockedSilently, CODEX_PROMPT_NOTE),
      gemini: on("UserPromptSubmit", S.gemPrompt, promptBlocked),
      qwen: on("UserPromptSubmit", S.ccPrompt, promptBlockedSilently, QWEN_PROMPT_NOTE)
    },
    agentHooks: {
      claude: { expect: promptBlocked },
      codex: { expect: promptBlockedSilently, note: CODEX_PROMPT_NOTE },
      gemini: { expect: all(promptBlocked, notReportedFailed) },
      qwen: { expect: promptBlockedSilently, note: QWEN_PROMPT_NOTE }
    }
  },
  {
    id: "broken-policy",
    title: "A policy file that cannot be read blocks (agent-hooks on every event: the prompt is refused)",
    policy: "broken",
    // The native control: a hook whose program is missing, on the same four events. Claude Code,
    // Codex and Qwen Code count that as a failed hook and go on (fail open); agent-hooks must not.
    native: {
      claude: { hooks: MISSING_ON_ALL, expect: ran },
      codex: { hooks: MISSING_ON_ALL, expect: ran },
      // Gemini CLI, seen: a hook that cannot start blocks ("Agent execution blocked: bash: … No such
      // file or directory"), so its control expects the prompt refused.
      gemini: { hooks: MISSING_ON_ALL, expect: promptBlockedWith("missing-policy-hook") },
      qwen: { hooks: MISSING_ON_ALL, expect: ran }
    },
    agentHooks: {
      claude: { expect: promptBlockedWith("policy.json") },
      codex: { expect: promptBlockedSilently, note: CODEX_PROMPT_NOTE },
      gemini: { expect: promptBlockedWith("policy.json") },
      qwen: { expect: promptBlockedSilently, note: QWEN_PROMPT_NOTE }
    }
  },
  {
    id: "broken-pre",
    title: "A policy file that cannot be read blocks the tool call (agent-hooks on PreToolUse only)",
    policy: "broken",
    wire: ["PreToolUse"],
    native: {
      claude: { hooks: MISSING_ON_PRE, expect: ran },
      codex: { hooks: MISSING_ON_PRE, expect: ran },
      // Gemini CLI, seen: "Tool execution blocked: bash: … No such file or directory".
      gemini: { hooks: MISSING_ON_PRE, expect: blocked("missing-policy-hook", "the shell's error") },
      qwen: { hooks: MISSING_ON_PRE, expect: ran }
    },
    agentHooks: each({ expect: blocked("policy.json", "names the policy file") })
  },
  {
    id: "hung-policy",
    title: "A policy hook that hangs: the call is blocked before the agent's hook timeout (10 s)",
    policy: [{ event: "PreToolUse", script: S.hang }],
    wire: ["PreToolUse"],
    hookTimeout: 10,
    // The native control: the same hanging guard as the agent's own hook. Every agent, seen, kills
    // it at its timeout and runs the tool (fails open); host mode must answer first, with a block.
    native: {
      claude: on("PreToolUse", S.hang, ran),
      codex: on("PreToolUse", S.hang, ran),
      gemini: on("PreToolUse", S.hang, ran),
      qwen: on("PreToolUse", S.hang, ran)
    },
    agentHooks: each({ expect: blocked(/time budget/, "says it ran past its time budget") })
  },
  {
    id: "read-guard",
    title: "One policy on Claude Code's Read file_path guards each agent's own file-reading tool",
    call: "read",
    policy: [{ event: "PreToolUse", script: S.readGuard, tool: "read" }],
    native: {
      claude: { hooks: [{ event: "PreToolUse", script: S.readGuard, tool: "read" }], expect: readBlocked },
      codex: skip("Codex has no file-reading tool (the model reads files through its shell)"),
      gemini: { hooks: [{ event: "PreToolUse", script: S.readGuard, tool: "read" }], expect: readBlocked },
      qwen: { hooks: [{ event: "PreToolUse", script: S.readGuard, tool: "read" }], expect: readBlocked }
    },
    agentHooks: {
      claude: { expect: readBlocked },
      codex: skip("Codex has no file-reading tool (the model reads files through its shell)"),
      gemini: { expect: readBlocked },
      qwen: { expect: readBlocked }
    }
  }
]

// A policy with no hook at all: one `permissions.deny` rule in Claude Code's syntax, judged by host mode
// in-process (no hook process). Native control: the agent's own hook blocking the same call.
SCENARIOS.push({
  id: "permissions-deny",
  title: "permissions.deny alone (no hooks): the rule blocks the shell call, named in the reason",
  policy: [],
  permissions: { deny: ["Bash(touch MARKER)"] },
  native: {
    claude: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
    codex: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
    gemini: on("PreToolUse", S.exit2, blocked(TOKENS.exit2)),
    qwen: on("PreToolUse", S.exit2, blocked(TOKENS.exit2))
  },
  agentHooks: each({
    expect: blocked(/denied by permissions rule \\?"Bash\(touch MARKER\)/, 'denied by permissions rule "Bash(touch MARKER)"')
  })
})
/**
 * The agents of their own file (`lib/agent-<name>.mjs`, listed in lib/agents.mjs) give their sides
 * of each scenario through `sides(kit)`: the hook scripts, expectations and helpers above. A
 * scenario such an agent gives no side for is a skip that says so.
 */
export const KIT = {
  S,
  TOKENS,
  head,
  onMarker,
  q,
  on,
  skip,
  blocked,
  readBlocked,
  ran,
  rewritten,
  context,
  stopContinued,
  promptBlocked,
  promptBlockedSilently,
  promptBlockedWith,
  all,
  MISSING_ON_PRE,
  MISSING_ON_ALL
}
/**
 * Fills in the sides the agents of their own file give (`sides(kit)`): lib/agents.mjs calls it once
 * its list is made (this module does not import that one: an agent's file takes the scripts above).
 */
export function applyAgentSides(agents) {
  for (const agent of agents) {
    if (typeof agent.sides !== "function") continue
    const sides = agent.sides(KIT)
    for (const scenario of SCENARIOS) {
      const side = sides[scenario.id] ?? {}
      const none = skip(`no ${scenario.id} side for ${agent.title} in lib/agent-${agent.name}.mjs`)
      scenario.native[agent.name] = side.native ?? none
      scenario.agentHooks[agent.name] = side.agentHooks ?? none
    }
  }
}
// ---- the agents without command hooks (pi, opencode, Kilo) -------------------------------------
// Their native side is the bare agent (nothing to hook a script into: the call runs, the control);
// agent-hooks is their plugin, wired as `install` writes it. opencode and Kilo take ~10 s a run,
// so their bare control runs once (block-exit2), not per scenario.
/** @type {Expectation} */
const readRan = (o) => [
  ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
  ...(!o.secretSent ? ["the file's content did not reach the model (the bare agent should read it)"] : [])
]
const BARE_ONCE = "the bare agent (no plugin: the call runs) is the control, run once in block-exit2"
const PI_STOP =
  "pi -p ends the run when the agent stops, before an extension's answer to agent_end arrives: a Stop block cannot keep headless pi going (the plugin warns on stderr)"
const OPENCODE_STOP =
  "opencode gives a plugin session.idle as an event with no answer: a plugin cannot keep the agent going (the plugin warns on stderr)"
/** scenario id -> [the bare agent's expectation, agent-hooks' expectation or a skip reason] */
const PLUGIN_SIDES = {
  "block-exit2": [ran, blocked(TOKENS.exit2)],
  "block-json": [ran, blocked(TOKENS.json)],
  ask: [ran, all(blocked(TOKENS.ask), blocked(/approval needed/, "approval needed"))],
  "updated-input": [ran, rewritten],
  "post-context": [ran, context],
  "stop-block": [ran, stopContinued],
  "prompt-block": [ran, promptBlocked],
  "broken-policy": [ran, promptBlockedWith("policy.json")],
  "broken-pre": [ran, blocked("policy.json", "names the policy file")],
  "hung-policy": [ran, blocked(/time budget/, "says it ran past its time budget")],
  "read-guard": [readRan, readBlocked],
  "permissions-deny": [ran, blocked(/denied by permissions rule/, "denied by permissions rule")]
}
for (const name of ["pi", "opencode", "kilo"]) {
  for (const scenario of SCENARIOS) {
    if (PLUGIN_SIDES[scenario.id] === undefined) {
      scenario.native[name] = skip(`no ${scenario.id} side for the plugin agents in lib/scenarios.mjs`)
      scenario.agentHooks[name] = scenario.native[name]
      continue
    }
    const [bare, guarded] = PLUGIN_SIDES[scenario.id]
    const once = name === "pi" || scenario.id === "block-exit2"
    scenario.native[name] = once ? { hooks: [], expect: bare } : skip(BARE_ONCE)
    scenario.agentHooks[name] = scenario.id === "stop-block" ? skip(name === "pi" ? PI_STOP : OPENCODE_STOP) : { expect: guarded }
  }
}

export const MODES = /** @type {const} */ (["native", "agent-hooks"])
export { finished, all }
// for the agents in files of their own (agent-<name>.mjs): their sides of the scenarios
export {
  S,
  head,
  onMarker,
  blocked,
  readBlocked,
  ran,
  rewritten,
  context,
  stopContinued,
  promptBlockedSilently,
  on,
  skip,
  MISSING_ON_ALL,
  MISSING_ON_PRE
}

/**
 * One agent's side of a scenario in a mode: its own (`agent.scenarios[id].native` / `.agentHooks`,
 * from its file), else the scenario's entry for it, else the entry of the agent it reads hooks like
 * (`agent.like`), else a skip that says none was written.
 */
export const sideOf = (agent, scenario, mode) => {
  const own = agent.scenarios?.[scenario.id]?.[mode === "native" ? "native" : "agentHooks"]
  if (own !== undefined) return own
  const table = mode === "native" ? scenario.native : scenario.agentHooks
  return (
    table[agent.name] ??
    (agent.like ? table[agent.like] : undefined) ??
    skip(`no ${mode} side of this scenario is written for ${agent.name}`)
  )
}
