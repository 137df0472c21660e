/**
 * One engine per project folder and process: the agent-hooks settings of a folder (every scope:
 * managed, user, project, local; the preset, trust, the audit trail, telemetry, `permissions`),
 * loaded once and shared by everything in the process that asks for the same folder. What the
 * adapters of in-process agent frameworks (`@agent-hooks/claude-agent-sdk`,
 * `@agent-hooks/openai-agents`, ...) use by default, so an agent built with them obeys the same
 * files as `agent-hooks hook` in Claude Code or Codex, with no process per call for in-process
 * rules and `module` hooks.
 *
 * **Example**
 *
 * ```ts
 * import { projectEngine } from "@agent-hooks/node"
 *
 * const engine = await projectEngine()              // the settings of process.cwd()
 * const same = await projectEngine()                // the same engine, not a second one
 * const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 * ```
 *
 * @since 0.2.0
 */
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as internal from "./internal/projectEngine.ts"
import type { NodeEngineOptions } from "./NodeHookEngine.ts"

/**
 * Options of `projectEngine`: the Node engine's options. `projectDir` defaults to `process.cwd()`,
 * settings are discovered there (every scope) unless `settings` names files, and `blockUnjudged`
 * defaults to `true`, as in host mode: a guard that did not judge (a hook that could not start,
 * whose answer was unreadable) blocks the call.
 *
 * @since 0.2.0
 * @category models
 */
export interface ProjectEngineOptions extends NodeEngineOptions {}

/**
 * The engine of a project folder, created on the first call and shared by every later call with
 * the same options in this process (the same folder, the same option values; functions and
 * objects that are not plain data compared by identity: define an `onWarning` once, not inline in
 * a function called per request, else each call makes an engine; past 16 engines for one folder a
 * warning says so). A creation that failed (a settings file that cannot be read in strict mode, an
 * audit log that cannot be opened) is not kept: the next call tries again. `close()` of the
 * engine returned closes it for every holder and forgets it: the next call creates a new one.
 *
 * @since 0.2.0
 * @category constructors
 */
export const projectEngine: (options?: ProjectEngineOptions) => Promise<PromiseEngine.PromiseHookEngine> = internal.projectEngine

/**
 * Closes every engine `projectEngine` created in this process (a test's or a server's shutdown).
 *
 * @since 0.2.0
 * @category constructors
 */
export const closeProjectEngines: () => Promise<void> = internal.closeAll
