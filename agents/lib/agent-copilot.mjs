// GitHub Copilot CLI (`@github/copilot`), in its two hook dialects, as two agents of the step:
//   copilot         its own camelCase hook files (`.github/hooks/*.json`: `preToolUse`, flat answers
//                   `{permissionDecision, permissionDecisionReason, modifiedArgs}`), wired as
//                   `agent-hooks hook --host copilot --event <event>`;
//   copilot-claude  Claude Code's `.claude/settings.json`, which Copilot CLI runs too (PascalCase
//                   events, Claude Code's payload and `hookSpecificOutput`), wired as `--host claude`.
// Headless: `copilot -p … --allow-all-tools --output-format json` against the model server's Chat
// Completions (`COPILOT_PROVIDER_*`, offline); `COPILOT_ALLOW_ALL=true` also trusts the folder (else
// repository hooks do not load in `-p`). Its shell tool is `bash` (`Bash` in Claude's dialect).
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  S,
  TOKENS,
  blocked,
  context,
  head,
  on,
  onMarker,
  ran,
  readBlocked,
  rewritten,
  skip,
  stopContinued,
  MISSING_ON_ALL,
  MISSING_ON_PRE
} from "./scenarios.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
/**
 * The loader unpacks the CLI (235 MB) into its package cache, `$HOME/.cache/copilot` by default:
 * every run shares the one the install step's `copilot --version` filled (lib/install.mjs runs it
 * with HOME `node_modules/.version-home`).
 */
const PKG_CACHE = join(HERE, "..", "node_modules", ".version-home", ".cache", "copilot")

const write = (file, text) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** Copilot CLI's camelCase event names for Claude Code's. */
const CAMEL = { PreToolUse: "preToolUse", PostToolUse: "postToolUse", Stop: "agentStop", UserPromptSubmit: "userPromptSubmitted" }

const env = ({ url }) => ({
  COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
  COPILOT_PROVIDER_TYPE: "openai",
  COPILOT_PROVIDER_API_KEY: "dummy",
  COPILOT_MODEL: "scripted-model",
  COPILOT_OFFLINE: "true",
  COPILOT_ALLOW_ALL: "true",
  COPILOT_PKG_CACHE_HOME: PKG_CACHE
})
const command = (prompt) => ["-p", prompt, "--allow-all-tools", "--output-format", "json"]
// ---- the camelCase dialect's own hook scripts (the controls) ------------------------------------
const flat = (value) => `echo '${JSON.stringify(value).replace(/'/g, `'\\''`)}'`
const C = {
  deny: (st) =>
    head(st, "pre") + onMarker(flat({ permissionDecision: "deny", permissionDecisionReason: `denied by policy: ${TOKENS.json}` })),
  ask: (st) => head(st, "pre") + onMarker(flat({ permissionDecision: "ask", permissionDecisionReason: `needs a human: ${TOKENS.ask}` })),
  rewrite: (st) => head(st, "pre") + onMarker(flat({ permissionDecision: "allow", modifiedArgs: { command: "touch REWRITTEN" } })),
  postContext: (st) => head(st, "post") + `${flat({ additionalContext: `context from policy: ${TOKENS.context}` })}\n`,
  stop: (st) =>
    head(st, "stop") +
    `[ -e "${st}/../stopped-once" ] && exit 0\ntouch "${st}/../stopped-once"\n${flat({ decision: "block", reason: `keep going: ${TOKENS.stop}` })}\n`,
  // Copilot CLI's view tool names its file `path`
  readGuard: (st) =>
    head(st, "pre") +
    `case "$input" in *'"path":"'*secret.txt*) ${flat({ permissionDecision: "deny", permissionDecisionReason: `reading secret.txt is not allowed: ${TOKENS.read}` })} ;; esac\nexit 0\n`
}
const EXIT2_NOTE = 'Copilot CLI blocks on exit 2 but tells the model only "hook exited with code 2": the control checks the block only'
const PROMPT_SKIP = "Copilot CLI's userPromptSubmitted cannot block a prompt"
const exit2Blocked = (o) => blocked(null)(o)
const CC_CONTEXT_SKIP =
  "Copilot CLI drops a PostToolUse hook's additionalContext in Claude Code's dialect (github/copilot-cli#2585; its own hook in this dialect does not reach the model either)"
const CC_READ_SKIP =
  "Copilot CLI's file reader is `view {path}` in Claude Code's dialect too, which no Read matcher names (the Claude Code Read guard's control lets the file through)"

/** The sides both dialects share: agent-hooks answers with the reason where the agent's own exit 2 loses it. */
const shared = {
  "block-exit2": { agentHooks: { expect: blocked(TOKENS.exit2) } },
  "prompt-block": { native: skip(PROMPT_SKIP), agentHooks: skip(PROMPT_SKIP) },
  "broken-policy": {
    // agent-hooks on every event: the prompt cannot be refused here, the tool call is blocked
    native: { hooks: MISSING_ON_ALL, expect: blocked(null) },
    agentHooks: { expect: blocked("policy.json", "names the policy file") }
  },
  // Copilot CLI 1.0.57: a preToolUse hook that fails denies the call
  "broken-pre": { native: { hooks: MISSING_ON_PRE, expect: blocked(null) } },
  // Copilot CLI 1.0.67: a hook that times out lets the call run
  "hung-policy": { native: on("PreToolUse", S.hang, ran) }
}

/** @type {import("./agents.mjs").AgentRecord} */
export const copilot = {
  name: "copilot",
  title: "Copilot CLI",
  variant: "its own hook files (`.github/hooks/*.json`, `--host copilot`)",
  // agent-hooks' side of each scenario: as under Claude Code, unless given below
  like: "claude",
  pkg: "@github/copilot",
  bin: "copilot",
  events: CAMEL,
  shellMatcher: "bash",
  readMatcher: "view",
  setup({ project, hooks, timeout }) {
    const byEvent = {}
    for (const h of hooks) {
      const event = CAMEL[h.event]
      // --host copilot needs the event on its command line (Copilot CLI's payload names none)
      const bash = h.command.includes(" hook --host ") ? `${h.command} --event ${event}` : h.command
      ;(byEvent[event] ??= []).push({ type: "command", bash, timeoutSec: timeout })
    }
    write(join(project, ".github", "hooks", "harness.json"), JSON.stringify({ version: 1, hooks: byEvent }, null, 2))
  },
  command,
  env,
  install: { scope: "--project", file: ({ project }) => join(project, ".github", "hooks", "agent-hooks-copilot.json") },
  scenarios: {
    ...shared,
    "block-exit2": { native: on("PreToolUse", S.exit2, exit2Blocked, EXIT2_NOTE), ...shared["block-exit2"] },
    "block-json": { native: on("PreToolUse", C.deny, blocked(TOKENS.json)) },
    // the control: Copilot's own JSON deny (its exit 2 loses the reason)
    "permissions-deny": { native: on("PreToolUse", C.deny, blocked(TOKENS.json)) },
    ask: { native: on("PreToolUse", C.ask, blocked(TOKENS.ask)), agentHooks: { expect: blocked(TOKENS.ask) } },
    "updated-input": { native: on("PreToolUse", C.rewrite, rewritten), agentHooks: { expect: rewritten } },
    "post-context": { native: on("PostToolUse", C.postContext, context) },
    "stop-block": { native: on("Stop", C.stop, stopContinued) },
    "read-guard": {
      native: { hooks: [{ event: "PreToolUse", script: C.readGuard, tool: "read" }], expect: readBlocked },
      agentHooks: { expect: readBlocked }
    }
  }
}

/** @type {import("./agents.mjs").AgentRecord} */
export const copilotClaude = {
  name: "copilot-claude",
  host: "claude",
  profile: "copilot",
  variant: "its reading of Claude Code's `.claude/settings.json` (`--host claude`)",
  // the scenarios' Claude Code hooks are this dialect's own
  like: "claude",
  title: "Copilot CLI (.claude/settings.json)",
  pkg: "@github/copilot",
  bin: "copilot",
  events: { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "UserPromptSubmit" },
  shellMatcher: "Bash",
  readMatcher: "Read",
  setup({ project, hooks, timeout }) {
    const out = {}
    for (const h of hooks) {
      const group = { hooks: [{ type: "command", command: h.command, timeout }] }
      const matcher = h.matcher === undefined ? (h.event.endsWith("ToolUse") ? "Bash" : undefined) : h.matcher
      if (matcher) group.matcher = matcher
      ;(out[h.event] ??= []).push(group)
    }
    write(join(project, ".claude", "settings.json"), JSON.stringify({ hooks: out }, null, 2))
  },
  command,
  env,
  install: { scope: "--project", file: ({ project }) => join(project, ".claude", "settings.json") },
  scenarios: {
    ...shared,
    "block-exit2": { native: on("PreToolUse", S.exit2, exit2Blocked, EXIT2_NOTE), ...shared["block-exit2"] },
    // the control: Claude Code's JSON deny, which Copilot CLI reads with its reason (its exit 2 loses it)
    "permissions-deny": { native: on("PreToolUse", S.ccDeny, blocked(TOKENS.json)) },
    ask: { agentHooks: { expect: blocked(TOKENS.ask) } },
    "updated-input": { agentHooks: { expect: rewritten } },
    "post-context": { native: skip(CC_CONTEXT_SKIP), agentHooks: skip(CC_CONTEXT_SKIP) },
    // in this dialect a UserPromptSubmit block refuses the prompt: the four's sides
    "prompt-block": {},
    // in this dialect an exit 2 of UserPromptSubmit refuses the prompt and shows the user why: the four's sides
    "broken-policy": { native: shared["broken-policy"].native },
    // its tool is `view {path}` in this dialect too, which no Claude Code matcher names
    "read-guard": { native: skip(CC_READ_SKIP), agentHooks: skip(CC_READ_SKIP) }
  }
}
