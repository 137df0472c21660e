/**
 * Gemini CLI's own hook engine (`HookSystem` from `@google/gemini-cli-core`), driven the way
 * /work/shared/bench/gemini-hook-driver.mjs drives it: a stand-in for Gemini's `Config` with only
 * what the hook classes call. Shared by the benches that use Gemini as a yardstick.
 *
 * The package is pinned with its lockfile in `bench/gemini/` (`npm ci` there, or run
 * `npm run bench -- perf` once); `GEMINI_CLI_CORE_DIR` names another folder holding it.
 */
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export const GEMINI_DIR = process.env["GEMINI_CLI_CORE_DIR"] ?? fileURLToPath(new URL("./gemini/", import.meta.url))
export const GEMINI_ENTRY = join(GEMINI_DIR, "node_modules", "@google", "gemini-cli-core", "dist", "index.js")

export type GeminiHookSystem = {
  initialize(): Promise<void>
  fireBeforeToolEvent(name: string, input: unknown): Promise<{ decision?: string; getBlockingError?(): { blocked: boolean } } | undefined>
}

/** A Gemini group as its settings hold it: `{ matcher, hooks: [{ type: "command", command, timeout }] }`. */
export type GeminiGroup = { readonly matcher?: string; readonly hooks: ReadonlyArray<Record<string, unknown>> }

/** A started `HookSystem` with these `BeforeTool` groups, for a project in `dir`. Gemini's console chatter is silenced. */
export const geminiHookSystem = async (dir: string, beforeTool: ReadonlyArray<GeminiGroup>): Promise<GeminiHookSystem> => {
  for (const k of ["log", "debug", "warn", "info"] as const) console[k] = () => {}
  const core = (await import(pathToFileURL(GEMINI_ENTRY).href)) as { HookSystem: new (config: unknown) => GeminiHookSystem }
  const config: Record<string, unknown> = {
    isTrustedFolder: () => true,
    getHooks: () => ({ BeforeTool: beforeTool }),
    getProjectHooks: () => undefined,
    getProjectRoot: () => dir,
    getExtensions: () => [],
    getDisabledHooks: () => [],
    sanitizationConfig: { enableEnvironmentVariableRedaction: false },
    storage: { getPlansDir: () => tmpdir() },
    getSessionId: () => "bench-session",
    getWorkingDir: () => dir,
    geminiClient: undefined,
    getUsageStatisticsEnabled: () => false,
    getTelemetryLogPromptsEnabled: () => false
  }
  config["config"] = config
  const system = new core.HookSystem(config)
  await system.initialize()
  return system
}
