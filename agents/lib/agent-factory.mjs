// Factory Droid (`@factory/cli` 0.225.1, whose binary comes from `@factory/cli-linux-x64` 0.225.2:
// 0.225.1 pins a platform package the registry lacks): `droid exec --auto high` against the model
// server as a custom model (`~/.factory/settings.json` customModels, generic chat completions), its
// API and telemetry pointed at the model server too (else it reaches api.factory.ai). Hooks in the
// project's `.factory/settings.json`, Claude Code's shape; its shell tool is `Execute`.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const write = (file, value) => {
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

const EVENTS = { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "UserPromptSubmit" }

/** Claude Code's nested hooks, for Droid's tool names. */
const nested = (hooks, timeout) => {
  const out = {}
  for (const h of hooks) {
    const group = { hooks: [{ type: "command", command: h.command, timeout }] }
    const matcher = h.matcher === undefined ? (h.event === "PreToolUse" || h.event === "PostToolUse" ? "Execute" : undefined) : h.matcher
    if (matcher !== undefined && matcher !== null) group.matcher = matcher
    ;(out[EVENTS[h.event]] ??= []).push(group)
  }
  return out
}

export const factory = {
  name: "factory",
  title: "Factory Droid",
  pkg: "@factory/cli",
  bin: "droid",
  // the binary is the platform package's
  version: "0.225.2",
  events: EVENTS,
  shellMatcher: "Execute",
  readMatcher: "Read",
  /** @param {import("./agents.mjs").SetupArgs} a */
  setup({ home, project, url, hooks, timeout }) {
    write(join(home, ".factory", "settings.json"), {
      customModels: [
        { model: "scripted-model", displayName: "scripted", baseUrl: `${url}/v1`, apiKey: "dummy", provider: "generic-chat-completion-api" }
      ]
    })
    if (hooks.length > 0) write(join(project, ".factory", "settings.json"), { hooks: nested(hooks, timeout) })
  },
  /** `install --host factory --user` writes the user's settings, beside the custom model. */
  installFile: (home) => join(home, ".factory", "settings.json"),
  command: (prompt) => ["exec", "--auto", "high", "-m", "custom:scripted-model", "-o", "json", prompt],
  env: ({ url }) => ({ FACTORY_API_BASE_URL: url, FACTORY_TELEMETRY_INGEST_BASE_URL: url, FACTORY_APP_BASE_URL: url }),
  /** @param {typeof import("./scenarios.mjs").KIT} k */
  sides: (k) => {
    const approval = k.blocked(/approval needed/, "approval needed")
    // seen with 0.225.2: no UserPromptSubmit payload ever reaches a hook in `droid exec`
    const noPrompt = "droid exec runs no UserPromptSubmit hook (seen: its hook never receives a payload)"
    return {
      "block-exit2": {
        native: k.on("PreToolUse", k.S.exit2, k.blocked(k.TOKENS.exit2)),
        agentHooks: { expect: k.blocked(k.TOKENS.exit2) }
      },
      "block-json": { native: k.on("PreToolUse", k.S.ccDeny, k.blocked(k.TOKENS.json)), agentHooks: { expect: k.blocked(k.TOKENS.json) } },
      ask: {
        // the control: `droid exec` runs a call its hook answered ask
        native: k.on("PreToolUse", k.S.ccAsk, k.ran, "droid exec runs a call its own hook answered ask"),
        agentHooks: { expect: k.all(k.blocked(k.TOKENS.ask), approval) }
      },
      "updated-input": { native: k.on("PreToolUse", k.S.ccRewrite, k.rewritten), agentHooks: { expect: k.rewritten } },
      "post-context": { native: k.on("PostToolUse", k.S.ccPostContext, k.context), agentHooks: { expect: k.context } },
      "stop-block": { native: k.on("Stop", k.S.ccStop, k.stopContinued), agentHooks: { expect: k.stopContinued } },
      "prompt-block": { native: k.skip(noPrompt), agentHooks: k.skip(noPrompt) },
      "broken-policy": {
        native: { hooks: k.MISSING_ON_ALL, expect: k.ran },
        // no prompt hook in droid exec: the tool call is what is refused
        agentHooks: { expect: k.blocked("policy.json", "names the policy file"), note: noPrompt }
      },
      "broken-pre": {
        native: { hooks: k.MISSING_ON_PRE, expect: k.ran },
        agentHooks: { expect: k.blocked("policy.json", "names the policy file") }
      },
      "hung-policy": {
        native: k.on("PreToolUse", k.S.hang, k.ran),
        agentHooks: { expect: k.blocked(/time budget/, "says it ran past its time budget") }
      },
      "read-guard": {
        native: { hooks: [{ event: "PreToolUse", script: k.S.readGuard, tool: "read" }], expect: k.readBlocked },
        agentHooks: { expect: k.readBlocked }
      }
    }
  }
}
