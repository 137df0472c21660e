// Auggie (`@augmentcode/auggie` 0.36.0): `auggie --print` against a loopback stand-in of Augment's
// service (lib/augment-server.mjs, in the model server): it has no custom model setting, so the
// login session's tenantURL (AUGMENT_SESSION_AUTH) names the model server, which also turns hooks
// on (the service's enable_hooks flag). Hooks in the project's `.augment/settings.json`, Claude
// Code's shape, `timeout` in milliseconds; its shell tool is `launch-process`, its file reader `view`.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const write = (file, value) => {
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

const EVENTS = { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "PromptSubmit" }

const nested = (hooks, timeoutMs) => {
  const out = {}
  for (const h of hooks) {
    const group = { hooks: [{ type: "command", command: h.command, timeout: timeoutMs }] }
    const matcher =
      h.matcher === undefined ? (h.event === "PreToolUse" || h.event === "PostToolUse" ? "launch-process" : undefined) : h.matcher
    if (matcher !== undefined && matcher !== null) group.matcher = matcher
    ;(out[EVENTS[h.event]] ??= []).push(group)
  }
  return out
}

export const auggie = {
  name: "auggie",
  title: "Auggie",
  pkg: "@augmentcode/auggie",
  bin: "auggie",
  events: EVENTS,
  shellMatcher: "launch-process",
  readMatcher: "view",
  /** @param {import("./agents.mjs").SetupArgs} a */
  setup({ home, project, hooks, timeout }) {
    write(join(home, ".augment", "settings.json"), {})
    // Auggie downloads ripgrep from GitHub unless its binaries folder has one: a stand-in that finds nothing
    const target = `${process.platform}-${process.arch === "x64" ? "x64" : process.arch}`
    const rg = join(home, ".augment", "binaries", "ripgrep", `v14.1.1-${target}`, "rg")
    mkdirSync(join(rg, ".."), { recursive: true })
    writeFileSync(rg, "#!/bin/sh\nexit 1\n", { mode: 0o755 })
    // Auggie reads a hook's timeout in milliseconds
    if (hooks.length > 0) write(join(project, ".augment", "settings.json"), { hooks: nested(hooks, timeout * 1000) })
  },
  installFile: (home) => join(home, ".augment", "settings.json"),
  command: (prompt) => ["--print", "--output-format", "json", prompt],
  env: ({ url }) => ({
    AUGMENT_SESSION_AUTH: JSON.stringify({ accessToken: "x", tenantURL: `${url}/`, scopes: ["email"] }),
    AUGMENT_DISABLE_AUTO_UPDATE: "1"
  }),
  /** @param {typeof import("./scenarios.mjs").KIT} k */
  sides: (k) => {
    const approval = k.blocked(/approval needed/, "approval needed")
    // Auggie's own language: its view tool reads `path` (and its payload is indented JSON)
    // 0.36.0 runs a Stop hook and drops its answer (its triggerStopHook awaits it and reads nothing)
    const noStop = "Auggie 0.36.0 runs Stop hooks but ignores their answer: a Stop hook cannot keep it going"
    const readGuard = (st) =>
      k.head(st, "pre") +
      `case "$input" in *'"path":"'*secret.txt*|*'"path": "'*secret.txt*) echo "reading secret.txt is not allowed: ${k.TOKENS.read}" >&2; exit 2 ;; esac
exit 0
`
    const noPromptBlock = "Auggie does not wait for a PromptSubmit hook: it cannot block a prompt"
    return {
      "block-exit2": {
        native: k.on("PreToolUse", k.S.exit2, k.blocked(k.TOKENS.exit2)),
        agentHooks: { expect: k.blocked(k.TOKENS.exit2) }
      },
      "block-json": { native: k.on("PreToolUse", k.S.ccDeny, k.blocked(k.TOKENS.json)), agentHooks: { expect: k.blocked(k.TOKENS.json) } },
      ask: {
        native: k.on("PreToolUse", k.S.ccAsk, k.ran, "auggie --print runs a call its own hook answered ask"),
        agentHooks: { expect: k.all(k.blocked(k.TOKENS.ask), approval) }
      },
      "updated-input": { native: k.on("PreToolUse", k.S.ccRewrite, k.rewritten), agentHooks: { expect: k.rewritten } },
      "post-context": { native: k.on("PostToolUse", k.S.ccPostContext, k.context), agentHooks: { expect: k.context } },
      "stop-block": { native: k.skip(noStop), agentHooks: k.skip(noStop) },
      "prompt-block": { native: k.skip(noPromptBlock), agentHooks: k.skip(noPromptBlock) },
      "broken-policy": {
        native: { hooks: k.MISSING_ON_ALL, expect: k.ran },
        // the prompt goes on (PromptSubmit cannot block); the tool call is refused
        agentHooks: { expect: k.blocked("policy.json", "names the policy file"), note: noPromptBlock }
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
        native: { hooks: [{ event: "PreToolUse", script: readGuard, tool: "read" }], expect: k.readBlocked },
        agentHooks: { expect: k.readBlocked }
      }
    }
  }
}
