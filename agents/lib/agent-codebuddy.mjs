// CodeBuddy Code (the CLI inside `@tencent-ai/agent-sdk` 0.3.201, at cli/bin/codebuddy; there is no
// codebuddy-code package on the registry): `codebuddy -p -y` against the model server
// (CODEBUDDY_BASE_URL, Chat Completions), telemetry, updates, memory and the built-in plugin
// marketplace off (else it reaches cnb.cool). Hooks in the project's `.codebuddy/settings.json`,
// Claude Code's shape and tool names.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const write = (file, value) => {
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

const EVENTS = { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "UserPromptSubmit" }

const nested = (hooks, timeout) => {
  const out = {}
  for (const h of hooks) {
    const group = { hooks: [{ type: "command", command: h.command, timeout }] }
    const matcher = h.matcher === undefined ? (h.event === "PreToolUse" || h.event === "PostToolUse" ? "Bash" : undefined) : h.matcher
    if (matcher !== undefined && matcher !== null) group.matcher = matcher
    ;(out[EVENTS[h.event]] ??= []).push(group)
  }
  return out
}

export const codebuddy = {
  name: "codebuddy",
  title: "CodeBuddy Code",
  pkg: "@tencent-ai/agent-sdk",
  // no bin of its own in node_modules/.bin: the CLI's file, from there
  bin: "../@tencent-ai/agent-sdk/cli/bin/codebuddy",
  // the CLI's version, not the SDK's
  version: "2.117.0",
  events: EVENTS,
  shellMatcher: "Bash",
  readMatcher: "Read",
  /** @param {import("./agents.mjs").SetupArgs} a */
  setup({ home, project, hooks, timeout }) {
    write(join(home, ".codebuddy", "settings.json"), { model: "scripted-model" })
    if (hooks.length > 0) write(join(project, ".codebuddy", "settings.json"), { hooks: nested(hooks, timeout) })
  },
  installFile: (home) => join(home, ".codebuddy", "settings.json"),
  command: (prompt) => ["-p", prompt, "--output-format", "json", "-y"],
  env: ({ url }) => ({
    CODEBUDDY_BASE_URL: `${url}/v1`,
    CODEBUDDY_API_KEY: "dummy",
    CODEBUDDY_MODEL: "scripted-model",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CODEBUDDY_DISABLE_AUTO_MEMORY: "1",
    CODEBUDDY_PROMPT_SUGGESTION_DISABLED: "1",
    CODEBUDDY_SKIP_BUILTIN_MARKETPLACE: "1"
  }),
  /** @param {typeof import("./scenarios.mjs").KIT} k */
  sides: (k) => {
    const approval = k.blocked(/approval needed/, "approval needed")
    // CodeBuddy's own language: UserPromptSubmit blocks by exit 2 with the message on stdout (decision: "block" is deprecated there)
    const noStop =
      "codebuddy -p ends the run after a Stop hook's block (exit 2 or continue: false): the continuation never reaches the model"
    const promptExit2 = (st) => k.head(st, "prompt") + `echo "prompt refused by policy: ${k.TOKENS.prompt}"\nexit 2\n`
    return {
      "block-exit2": {
        native: k.on("PreToolUse", k.S.exit2, k.blocked(k.TOKENS.exit2)),
        agentHooks: { expect: k.blocked(k.TOKENS.exit2) }
      },
      "block-json": { native: k.on("PreToolUse", k.S.ccDeny, k.blocked(k.TOKENS.json)), agentHooks: { expect: k.blocked(k.TOKENS.json) } },
      ask: {
        native: k.on("PreToolUse", k.S.ccAsk, k.ran, "codebuddy -y runs a call its own hook answered ask"),
        agentHooks: { expect: k.all(k.blocked(k.TOKENS.ask), approval) }
      },
      "updated-input": { native: k.on("PreToolUse", k.S.ccRewrite, k.rewritten), agentHooks: { expect: k.rewritten } },
      "post-context": { native: k.on("PostToolUse", k.S.ccPostContext, k.context), agentHooks: { expect: k.context } },
      // seen with 2.117.0: `codebuddy -p` runs the Stop hook and ends there, whether it answers exit 2 or continue: false
      "stop-block": { native: k.skip(noStop), agentHooks: k.skip(noStop) },
      "prompt-block": { native: k.on("UserPromptSubmit", promptExit2, k.promptBlocked), agentHooks: { expect: k.promptBlocked } },
      "broken-policy": {
        native: { hooks: k.MISSING_ON_ALL, expect: k.ran },
        agentHooks: { expect: k.promptBlockedWith("policy.json") }
      },
      "broken-pre": {
        native: { hooks: k.MISSING_ON_PRE, expect: k.ran },
        agentHooks: { expect: k.blocked("policy.json", "names the policy file") }
      },
      "hung-policy": {
        // the control, seen: CodeBuddy fails closed on a hook it kills at its timeout ("Hook timed out after 10000ms")
        native: k.on(
          "PreToolUse",
          k.S.hang,
          k.blocked(/Hook timed out/, "its own timeout error"),
          "CodeBuddy blocks a call whose hook it killed"
        ),
        agentHooks: { expect: k.blocked(/time budget/, "says it ran past its time budget") }
      },
      "read-guard": {
        native: { hooks: [{ event: "PreToolUse", script: k.S.readGuard, tool: "read" }], expect: k.readBlocked },
        agentHooks: { expect: k.readBlocked }
      }
    }
  }
}
