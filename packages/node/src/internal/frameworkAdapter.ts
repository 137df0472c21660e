/**
 * What the in-process framework adapters share: the engine (the project's, once per process), the
 * tool names hooks see, the payloads, and the rule that a policy that fails blocks the call.
 */
import { randomUUID } from "node:crypto"
import { join } from "node:path"
import type * as Outcome from "@agent-hooks/core/Outcome"
import * as Telemetry from "@agent-hooks/core/Telemetry"
import type { AdapterEngine, AdapterOptions, ToolMapping } from "../FrameworkAdapter.ts"
import * as Transcript from "./frameworkTranscript.ts"

/** The tool events: their matcher reads the tool name. */
const TOOL_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]

const bash: ToolMapping = { name: "Bash" }

/** Common tool names of agents built on the framework, and Claude Code's names for them. */
export const defaults: Readonly<Record<string, string | ToolMapping>> = {
  bash,
  shell: bash,
  execute: bash,
  terminal: bash,
  run_command: bash,
  runCommand: bash,
  run_shell_command: bash,
  executeCommand: bash,
  read_file: "Read",
  readFile: "Read",
  write_file: "Write",
  writeFile: "Write",
  edit_file: "Edit",
  editFile: "Edit",
  glob: "Glob",
  grep: "Grep",
  ls: "LS",
  list_files: "LS",
  listFiles: "LS",
  web_fetch: "WebFetch",
  webFetch: "WebFetch",
  fetch_url: "WebFetch",
  web_search: "WebSearch",
  webSearch: "WebSearch"
}

/** A tool as hooks see it. */
export interface ResolvedTool {
  /** The `tool_name` hooks see. */
  readonly name: string
  readonly toInput: (args: Record<string, unknown>) => Record<string, unknown>
  readonly fromInput: (toolInput: Record<string, unknown>) => Record<string, unknown>
}

const same = (value: Record<string, unknown>) => value

/** The outcome of a dispatch that ran no hook. */
export const nothing = (event: string): Outcome.Outcome =>
  ({
    event,
    blocked: false,
    decision: null,
    reason: null,
    continue: true,
    stopReason: null,
    updatedInput: null,
    additionalContext: [],
    systemMessages: [],
    warnings: [],
    hooks: [],
    asyncHooks: []
  }) as unknown as Outcome.Outcome

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The active OpenTelemetry span (the framework's, when it traces with `@opentelemetry/api`), as a dispatch's context. */
export const currentTrace = (): { readonly traceparent: string } | undefined => {
  const traceparent = Telemetry.activeTraceparent()
  return traceparent === undefined ? undefined : { traceparent }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** The adapter's state: its engine, names and session. */
export interface Adapter {
  readonly engine: () => Promise<AdapterEngine>
  readonly sessionId: string
  readonly cwd: string
  readonly tool: (ownName: string) => ResolvedTool
  readonly warn: (warning: string) => void
  /** The fields every payload has. */
  readonly common: () => Record<string, unknown>
  /**
   * Runs the hooks of `event`. A failure of the engine itself (it could not be created, it threw)
   * is an outcome that blocks, with a reason that says so (`blocks: true`), else one that does not.
   */
  readonly dispatch: (
    event: string,
    payload: () => Record<string, unknown>,
    blocks: boolean,
    messages?: () => ReadonlyArray<unknown> | undefined
  ) => Promise<Outcome.Outcome>
  readonly close: () => Promise<void>
}

/** Whether the settings' tool-event matchers name `own` (the framework's tool name) and not `mapped`. */
const namesOwn = (engine: AdapterEngine, own: string, mapped: string): boolean => {
  const hooks = engine.settings?.hooks
  if (hooks === undefined) return false
  return TOOL_EVENTS.some((event) =>
    (hooks[event] ?? []).some((entry) => {
      const matcher = (entry as { readonly matcher?: { kind?: string; test?: (value: string) => boolean } }).matcher
      return (matcher?.kind === "exact" || matcher?.kind === "regex") && matcher.test!(own) && !matcher.test!(mapped)
    })
  )
}

export const make = (options: AdapterOptions, adapterName: string): Adapter => {
  const cwd = options.cwd ?? process.cwd()
  const warn = options.onWarning ?? ((warning: string) => console.warn(`[agent-hooks] ${warning}`))
  let engine: Promise<AdapterEngine> | undefined
  const getEngine = (): Promise<AdapterEngine> => {
    if (engine !== undefined) return engine
    if (options.engine !== undefined) {
      engine = Promise.resolve(options.engine)
    } else {
      engine = import("../ProjectEngine.ts").then(({ projectEngine }) =>
        projectEngine({
          ...options.engineOptions,
          projectDir: options.projectDir ?? cwd,
          cwd,
          // A hook that crashes or times out blocks the call it guards (a guard that did not judge).
          failClosed: options.failClosed ?? options.engineOptions?.failClosed ?? true,
          ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning })
        })
      )
      // A failed creation is tried again on the next call (and blocks this one).
      engine.catch(() => {
        engine = undefined
      })
    }
    return engine
  }
  const custom = options.toolNames
  const useDefaults = options.defaultToolNames !== false
  const names = new Map<string, ResolvedTool>()
  let namesFor: AdapterEngine | undefined
  let resolvedEngine: AdapterEngine | undefined
  const tool = (own: string): ResolvedTool => {
    if (resolvedEngine !== namesFor) {
      names.clear()
      namesFor = resolvedEngine
    }
    const known = names.get(own)
    if (known !== undefined) return known
    let entry = custom !== undefined && Object.hasOwn(custom, own) ? custom[own] : undefined
    if (entry === undefined && useDefaults && Object.hasOwn(defaults, own)) {
      const builtIn = defaults[own]!
      const target = typeof builtIn === "string" ? builtIn : builtIn.name
      const presetNames = resolvedEngine?.preset?.toolNames
      // A preset written in its agent's own names sees the tool as it is named; so does a policy
      // whose matchers name the framework's tool and not Claude Code's.
      const usable =
        (presetNames === undefined || presetNames.includes(target)) &&
        (resolvedEngine === undefined || !namesOwn(resolvedEngine, own, target))
      if (usable) entry = builtIn
    }
    const mapping: ToolMapping = entry === undefined ? { name: own } : typeof entry === "string" ? { name: entry } : entry
    const resolved = { name: mapping.name, toInput: mapping.toInput ?? same, fromInput: mapping.fromInput ?? same }
    if (resolvedEngine !== undefined) names.set(own, resolved)
    return resolved
  }
  const sessionId = options.sessionId ?? randomUUID()
  let transcriptDir: string | undefined
  const transcriptPath = (): string => {
    if (options.transcriptDir === false) return ""
    transcriptDir ??= options.transcriptDir ?? Transcript.defaultDir()
    return join(transcriptDir, `${sessionId}.jsonl`)
  }
  return {
    engine: getEngine,
    sessionId,
    cwd,
    tool,
    warn,
    common: () => ({
      session_id: sessionId,
      transcript_path: transcriptPath(),
      cwd,
      permission_mode: options.permissionMode ?? "default"
    }),
    dispatch: async (event, payload, blocks, messages) => {
      try {
        const engine = await getEngine()
        resolvedEngine = engine
        const context = currentTrace()
        const input = payload()
        // The transcript is written only for a dispatch that may run a hook (it reads the file).
        const conversation = messages?.()
        const path = input["transcript_path"]
        if (conversation !== undefined && typeof path === "string" && path !== "" && engine.unmatched?.(event, input) === undefined) {
          Transcript.write(path, transcriptDir!, conversation, { sessionId, cwd, toolName: (name) => tool(name).name })
        }
        const outcome = await (context === undefined ? engine.dispatch(event, input) : engine.dispatch(event, input, context))
        if (engine.reportsWarnings !== true) for (const warning of outcome.warnings ?? []) warn(warning)
        return outcome as Outcome.Outcome
      } catch (error) {
        // The policy could not judge: a call it guards does not run (fail closed), the run goes on.
        const reason = `${adapterName}: the agent-hooks policy failed (${message(error)}); the call was blocked`
        warn(reason)
        return blocks
          ? ({ ...nothing(event), blocked: true, decision: event === "PreToolUse" ? "deny" : "block", reason } as Outcome.Outcome)
          : nothing(event)
      }
    },
    // The project engine is shared by the process (`closeProjectEngines` of `@agent-hooks/node`);
    // an engine of the options is the host's.
    close: async () => {}
  }
}
