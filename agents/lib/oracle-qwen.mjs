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
      return u === url ? { ...loaded, source: `${loaded.source}\nexport { HookSystem as __AgentHooksOracleHookSystem };\n` } : loaded
    }
  })
  const module = await import(url)
  if (typeof module.__AgentHooksOracleHookSystem !== "function") throw new Error(`${file}: HookSystem could not be exported`)
  return module.__AgentHooksOracleHookSystem
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
    response: { output: "" }
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
  } else if (output.isBlockingDecision()) return { verdict: "block", reason: output.getEffectiveReason(), context }
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
export async function runQwenOracle({ agentsModules, cwd, ours }) {
  const HookSystem = await loadQwenHookSystem(agentsModules)
  const rows = []
  for (const c of QWEN_CASES) {
    const event = c.event ?? "PreToolUse"
    const theirs = await throughQwen(HookSystem, c, cwd)
    const mine = fromOutcome(await ours(c, event), event)
    rows.push({ id: c.id, same: agrees(c, theirs, mine), documented: c.differs !== undefined, qwen: theirs, ours: mine })
  }
  return rows
}
