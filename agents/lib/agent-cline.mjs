// Cline CLI (`cline`): one executable per event in the project's `.clinerules/hooks/` (named
// `PreToolUse`, `PostToolUse`, ...), run with the CLI's own payload (`hookName: "tool_call"`,
// `tool_call: {name, input}`); its answer is JSON on stdout (`cancel`, `contextModification`,
// `overrideInput`), never an exit code. Headless: `cline --json -P openai-compatible -m M PROMPT`
// against the model server's Chat Completions (`~/.cline/data/settings/providers.json`), the session
// in-process (no hub daemon left behind), telemetry off and the feature flags cached (else it asks
// data.cline.bot). Its shell tool is `run_commands {commands: [...]}`, its file reader `read_files`.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import {
  S,
  TOKENS,
  all,
  blocked,
  context,
  head,
  on,
  onMarker,
  ran,
  readBlocked,
  rewritten,
  skip,
  MISSING_ON_ALL,
  MISSING_ON_PRE
} from "./scenarios.mjs"

const write = (file, text) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** Cline's hook file for Claude Code's event (Stop: TaskComplete, which the CLI runs detached). */
const FILES = { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "TaskComplete", UserPromptSubmit: "UserPromptSubmit" }

const json = (value) => `echo '${JSON.stringify(value).replace(/'/g, `'\\''`)}'`
const C = {
  cancel: (st) => head(st, "pre") + onMarker(json({ cancel: true, errorMessage: `denied by policy: ${TOKENS.json}` })),
  review: (st) => head(st, "pre") + onMarker(json({ review: true, errorMessage: `needs a human: ${TOKENS.ask}` })),
  rewrite: (st) => head(st, "pre") + onMarker(json({ overrideInput: { commands: ["touch REWRITTEN"] } })),
  postContext: (st) => head(st, "post") + `${json({ contextModification: `context from policy: ${TOKENS.context}` })}\n`,
  readGuard: (st) =>
    head(st, "pre") +
    `case "$input" in *'"path":"'*secret.txt*) ${json({ cancel: true, errorMessage: `reading secret.txt is not allowed: ${TOKENS.read}` })} ;; esac\nexit 0\n`
}
const CANCEL_NOTE = "Cline's own block (cancel) aborts the whole run: the model never learns why, so the control checks the block only"
/** The call blocked, and the run went on (the model was asked again, and told why). */
const blockedGoingOn = (token, label) =>
  all(blocked(token, label), (o) => (o.mainRequests < 2 ? ["the run did not go on after the block"] : []))
const readBlockedSilently = (o) => [
  ...(o.toolCalls < 1 ? ["the model never asked for the tool"] : []),
  ...(o.secretSent ? ["the file's content reached the model"] : [])
]

/** @type {import("./agents.mjs").AgentRecord} */
export const cline = {
  name: "cline",
  title: "Cline CLI",
  pkg: "cline",
  bin: "cline",
  events: FILES,
  shellMatcher: "run_commands",
  readMatcher: "read_files",
  setup({ home, project, url, hooks }) {
    const settings = join(home, ".cline", "data", "settings")
    write(
      join(settings, "providers.json"),
      JSON.stringify({
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": {
            settings: { provider: "openai-compatible", apiKey: "dummy", model: "scripted-model", baseUrl: `${url}/v1` },
            updatedAt: new Date().toISOString(),
            tokenSource: "manual"
          }
        }
      })
    )
    write(join(settings, "global-settings.json"), JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }))
    write(
      join(home, ".cline", "data", "cache", "feature-flags.json"),
      JSON.stringify({ version: 2, updatedAt: Date.now(), userId: null, flagsPayload: { featureFlags: {}, featureFlagPayloads: {} } })
    )
    // one executable per event (a second hook on one event: the same name with an extension)
    const taken = new Set()
    for (const h of hooks) {
      const base = FILES[h.event]
      const name = [base, `${base}.sh`, `${base}.bash`].find((n) => !taken.has(n))
      taken.add(name)
      const file = join(project, ".clinerules", "hooks", name)
      write(file, `#!/bin/sh\nexec ${h.command}\n`)
      chmodSync(file, 0o755)
    }
  },
  command: (prompt) => ["--json", "-P", "openai-compatible", "-m", "scripted-model", prompt],
  env: () => ({ CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" }),
  install: { scope: "--project", file: ({ project }) => join(project, ".clinerules", "hooks") },
  // agent-hooks' side of each scenario: as under Claude Code, unless given below
  like: "claude",
  scenarios: {
    "block-exit2": {
      native: on("PreToolUse", S.exit2, ran, "Cline ignores a hook's exit code: exit 2 is no block"),
      agentHooks: { expect: blockedGoingOn(TOKENS.exit2) }
    },
    // the control: Cline's own cancel (it reads no exit code)
    "permissions-deny": { native: on("PreToolUse", C.cancel, blocked(null), CANCEL_NOTE) },
    "block-json": {
      native: on("PreToolUse", C.cancel, blocked(null), CANCEL_NOTE),
      agentHooks: { expect: blockedGoingOn(TOKENS.json) }
    },
    ask: {
      native: on("PreToolUse", C.review, ran, "Cline's review: true runs the call headless (auto-approve)"),
      agentHooks: { expect: all(blockedGoingOn(TOKENS.ask), blocked(/approval needed/, "approval needed")) }
    },
    "updated-input": { native: on("PreToolUse", C.rewrite, rewritten), agentHooks: { expect: rewritten } },
    "post-context": { native: on("PostToolUse", C.postContext, context), agentHooks: { expect: context } },
    "stop-block": {
      native: skip("the Cline CLI runs TaskComplete (agent_end) detached: no hook can keep it going"),
      agentHooks: skip("the Cline CLI runs TaskComplete (agent_end) detached: no hook can keep it going")
    },
    "prompt-block": {
      native: skip("the Cline CLI runs UserPromptSubmit (prompt_submit) detached: no hook can block a prompt"),
      agentHooks: skip("the Cline CLI runs UserPromptSubmit (prompt_submit) detached: no hook can block a prompt")
    },
    "broken-policy": {
      native: { hooks: MISSING_ON_ALL, expect: ran },
      // the prompt cannot be refused here: the tool call is blocked
      agentHooks: { expect: blockedGoingOn("policy.json", "names the policy file") }
    },
    "broken-pre": { native: { hooks: MISSING_ON_PRE, expect: ran } },
    // the CLI waits 120 s for a hook, the hang ends first (45 s): the call runs
    "hung-policy": { native: on("PreToolUse", S.hang, ran) },
    "read-guard": {
      native: { hooks: [{ event: "PreToolUse", script: C.readGuard, tool: "read" }], expect: readBlockedSilently, note: CANCEL_NOTE },
      agentHooks: { expect: readBlocked }
    }
  }
}
