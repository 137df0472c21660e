// How to drive each real agent headless and offline against the scripted model server: its
// binary, its temp HOME (trust, model endpoint, telemetry and updates off), where its native hook
// config goes and what its events and shell tool are called.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { auggie } from "./agent-auggie.mjs"
import { codebuddy } from "./agent-codebuddy.mjs"
import { factory } from "./agent-factory.mjs"
import { cline } from "./agent-cline.mjs"
import { copilot, copilotClaude } from "./agent-copilot.mjs"
import { kilo } from "./agent-kilo.mjs"
import { opencode } from "./agent-opencode.mjs"
import { pi } from "./agent-pi.mjs"
import { applyAgentSides } from "./scenarios.mjs"

/**
 * @typedef {"PreToolUse" | "PostToolUse" | "Stop" | "UserPromptSubmit"} Event  Claude Code's names
 * @typedef {{ event: Event, command: string, matcher?: string | null }} HookEntry
 *   matcher: undefined for the agent's shell tool on tool events, null for every tool
 * @typedef {{ home: string, project: string, url: string, hooks: HookEntry[], timeout: number }} SetupArgs
 *   timeout: every hook's timeout in seconds
 * @typedef {{ name: string, title: string, pkg: string, bin: string, events: Record<Event, string>,
 *   shellMatcher: string, readMatcher: string | null, setup: (a: SetupArgs) => void,
 *   command: (prompt: string) => string[], env: (a: { url: string, home: string }) => Record<string, string>,
 *   host?: string, like?: string, profile?: string, variant?: string,
 *   install?: { scope: string, file: (a: { home: string, project: string }) => string },
 *   scenarios?: Record<string, { native?: object, agentHooks?: object }> }} AgentRecord
 *   host: the `--host` agent-hooks is wired as (default: name); profile: the agent (its profile's name)
 *   this run drives, where name is not it; variant: what this run of it is, where there are several; like: the agent whose sides of the
 *   scenarios (lib/scenarios.mjs) it takes where its own `scenarios` give none; install: the install scenario's scope and the file (or folder) install writes
 */

const write = (file, text) => {
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, text)
}

/** Native hook config in Claude Code's nested shape: { Event: [{ matcher, hooks: [{ type, command }] }] }. */
const nestedHooks = (hooks, eventName, matcherFor, timeout) => {
  const out = {}
  for (const h of hooks) {
    const name = eventName[h.event]
    const group = { hooks: [{ type: "command", command: h.command, timeout }] }
    const matcher = h.matcher === undefined ? matcherFor(h.event) : h.matcher
    if (matcher !== undefined && matcher !== null) group.matcher = matcher
    ;(out[name] ??= []).push(group)
  }
  return out
}

const toolEvents = new Set(["PreToolUse", "PostToolUse"])
/** Claude Code's event names, which Codex and Qwen Code use too. */
const CLAUDE_EVENTS = { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "UserPromptSubmit" }

/** The proxy settings that send any request for another host to the model server, which refuses it. */
const proxyEnv = (url) => ({
  HTTP_PROXY: url,
  HTTPS_PROXY: url,
  http_proxy: url,
  https_proxy: url,
  ALL_PROXY: url,
  NO_PROXY: "127.0.0.1,localhost",
  no_proxy: "127.0.0.1,localhost",
  NODE_USE_ENV_PROXY: "1"
})

const BUILT_IN = {
  claude: {
    name: "claude",
    title: "Claude Code",
    pkg: "@anthropic-ai/claude-code",
    bin: "claude",
    events: CLAUDE_EVENTS,
    shellMatcher: "Bash",
    readMatcher: "Read",
    /** @param {SetupArgs} a */
    setup({ home, project, hooks, timeout }) {
      // The project must be trusted, else `-p` ignores the project's settings.
      write(
        join(home, ".claude.json"),
        JSON.stringify(
          {
            hasCompletedOnboarding: true,
            projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } }
          },
          null,
          2
        )
      )
      // permissions.allow Bash: the hook, not the permission prompt, decides.
      write(
        join(project, ".claude", "settings.json"),
        JSON.stringify(
          {
            permissions: { allow: ["Bash"] },
            hooks: nestedHooks(hooks, this.events, (e) => (toolEvents.has(e) ? "Bash" : undefined), timeout)
          },
          null,
          2
        )
      )
    },
    command: (prompt) => ["-p", prompt, "--output-format", "json"],
    env: ({ url }) => ({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "dummy",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1"
    })
  },
  codex: {
    name: "codex",
    title: "Codex",
    pkg: "@openai/codex",
    bin: "codex",
    events: CLAUDE_EVENTS,
    shellMatcher: "Bash",
    // Codex has no file-reading tool: the model reads files through the shell.
    readMatcher: null,
    /** @param {SetupArgs} a */
    setup({ home, url, hooks, timeout }) {
      write(
        join(home, ".codex", "config.toml"),
        [
          `model = "scripted-model"`,
          `model_provider = "scripted"`,
          `approval_policy = "never"`,
          `sandbox_mode = "danger-full-access"`,
          `check_for_update_on_startup = false`,
          ``,
          `[model_providers.scripted]`,
          `name = "scripted"`,
          `base_url = "${url}/v1"`,
          `wire_api = "responses"`,
          `env_key = "SCRIPTED_API_KEY"`,
          ``,
          // Features that reach chatgpt.com or GitHub on start (plugin catalogue sync, apps, updates).
          `[features]`,
          ...["plugins", "remote_plugin", "plugin_sharing", "apps", "in_app_updates", "api_key_model_discovery", "daemon_auto_start"].map(
            (f) => `${f} = false`
          ),
          ``,
          `[analytics]`,
          `enabled = false`,
          ``
        ].join("\n")
      )
      // New hooks wait for a trust review unless the run passes --dangerously-bypass-hook-trust.
      write(
        join(home, ".codex", "hooks.json"),
        JSON.stringify(
          {
            hooks: nestedHooks(hooks, this.events, (e) => (toolEvents.has(e) ? "Bash" : undefined), timeout)
          },
          null,
          2
        )
      )
    },
    command: (prompt) => ["exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", prompt],
    env: ({ home }) => ({ CODEX_HOME: join(home, ".codex"), SCRIPTED_API_KEY: "dummy" })
  },
  gemini: {
    name: "gemini",
    title: "Gemini CLI",
    pkg: "@google/gemini-cli",
    bin: "gemini",
    events: { PreToolUse: "BeforeTool", PostToolUse: "AfterTool", Stop: "AfterAgent", UserPromptSubmit: "BeforeAgent" },
    shellMatcher: "run_shell_command",
    readMatcher: "read_file",
    /** @param {SetupArgs} a */
    setup({ home, project, hooks, timeout }) {
      write(
        join(home, ".gemini", "settings.json"),
        JSON.stringify(
          {
            security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } },
            privacy: { usageStatisticsEnabled: false },
            telemetry: { enabled: false },
            general: { disableAutoUpdate: true, disableUpdateNag: true },
            // Gemini CLI reads a hook's timeout in milliseconds (Claude Code: seconds).
            hooks: nestedHooks(hooks, this.events, (e) => (toolEvents.has(e) ? "run_shell_command" : undefined), timeout * 1000)
          },
          null,
          2
        )
      )
      // An untrusted folder drops --yolo.
      write(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [project]: "TRUST_FOLDER" }))
    },
    command: (prompt) => ["-p", prompt, "--yolo", "-o", "json"],
    env: ({ url }) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: "dummy", GEMINI_CLI_NO_RELAUNCH: "true" })
  },
  qwen: {
    name: "qwen",
    title: "Qwen Code",
    pkg: "@qwen-code/qwen-code",
    bin: "qwen",
    events: CLAUDE_EVENTS,
    shellMatcher: "run_shell_command",
    readMatcher: "read_file",
    /** @param {SetupArgs} a */
    setup({ home, hooks, timeout }) {
      write(
        join(home, ".qwen", "settings.json"),
        JSON.stringify(
          {
            privacy: { usageStatisticsEnabled: false },
            telemetry: { enabled: false },
            general: { disableAutoUpdate: true, disableUpdateNag: true },
            hooks: nestedHooks(hooks, this.events, (e) => (toolEvents.has(e) ? "run_shell_command" : undefined), timeout)
          },
          null,
          2
        )
      )
    },
    command: (prompt) => ["--yolo", "--auth-type", "openai", "-o", "json", "-p", prompt],
    env: ({ url }) => ({
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_API_KEY: "dummy",
      OPENAI_MODEL: "scripted-model",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1"
    })
  }
}

/**
 * The agents of the step, in the order they are reported. An agent in a file of its own
 * (`agent-<name>.mjs`) is appended here.
 * @type {AgentRecord[]}
 */
export const AGENT_LIST = [
  BUILT_IN.claude,
  BUILT_IN.codex,
  BUILT_IN.gemini,
  BUILT_IN.qwen,
  copilot,
  copilotClaude,
  cline,
  // with their sides of the scenarios (`sides(kit)`)
  factory,
  codebuddy,
  auggie,
  // the agents without command hooks: agent-hooks is their plugin (lib/pluginAgent.mjs)
  pi,
  opencode,
  kilo
]

/** @type {Record<string, AgentRecord>} */
export const AGENTS = Object.fromEntries(AGENT_LIST.map((agent) => [agent.name, agent]))

export const AGENT_NAMES = AGENT_LIST.map((agent) => agent.name)

// the scenarios' sides of the agents in files of their own
applyAgentSides(AGENT_LIST)

/** The environment an agent runs with: nothing of the caller's but PATH and the locale. */
export function agentEnv(agent, { home, url, pathPrefix }) {
  return {
    PATH: [pathPrefix, process.env.PATH ?? "/usr/bin:/bin"].join(":"),
    HOME: home,
    USER: process.env.USER ?? "agent",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    ...proxyEnv(url),
    ...agent.env({ url, home })
  }
}
