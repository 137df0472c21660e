// Gemini CLI's own hook engine as the oracle of `--preset gemini`, from the pinned @google/gemini-cli
// in agents/node_modules (its bundle exports HookSystem from one chunk). Two properties:
//   - the same hooks run, as often (Gemini dedups a call's matched hooks by `name:command`);
//   - the same calls run their hooks one after another (a matched hook of a `sequential: true`
//     group makes the call sequential) or in parallel: each hook writes its start and end times.
import { readdirSync, readFileSync, realpathSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

export async function loadGeminiHookSystem(agentsModules) {
  const bundle = join(agentsModules, "@google", "gemini-cli", "bundle")
  const file = readdirSync(bundle)
    .filter((f) => f.startsWith("chunk-") && f.endsWith(".js"))
    .map((f) => join(bundle, f))
    .find((f) => {
      const text = readFileSync(f, "utf8")
      return text.includes("var HookSystem = class") && /export \{[^}]*\bHookSystem\b/.test(text)
    })
  if (file === undefined) throw new Error(`no chunk of ${bundle} exports HookSystem (did Gemini CLI's bundle change?)`)
  const module = await import(pathToFileURL(realpathSync(file)).href)
  return module.HookSystem
}

/** Only what Gemini CLI's hook classes read of its Config (as /work/shared/bench/gemini-hook-driver.mjs). */
const geminiConfig = (hooks, root) => {
  const config = {
    isTrustedFolder: () => true,
    getHooks: () => hooks,
    getProjectHooks: () => undefined,
    getProjectRoot: () => root,
    getExtensions: () => [],
    getDisabledHooks: () => [],
    sanitizationConfig: { enableEnvironmentVariableRedaction: false },
    storage: { getPlansDir: () => root },
    getSessionId: () => "oracle-session",
    getWorkingDir: () => root,
    geminiClient: undefined,
    getUsageStatisticsEnabled: () => false,
    getTelemetryLogPromptsEnabled: () => false
  }
  config.config = config
  return config
}

export async function fireGemini(HookSystem, hooks, root, tool, input) {
  const system = new HookSystem(geminiConfig(hooks, root))
  await system.initialize()
  await system.fireBeforeToolEvent(tool, input)
}

/** A small seeded generator (mulberry32), so that every run checks the same configs. */
const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * Dedup cases: BeforeTool groups with matchers, hooks with and without names and timeouts, shared
 * commands; each hook appends its tag to $ORACLE_LOG. `n` configs from `seed`.
 */
export function dedupCases(n, seed = 13) {
  const next = random(seed)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const cases = []
  for (let i = 0; i < n; i++) {
    const groups = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
      const matcher = pick([undefined, "write_file", ".*", "write_.*", "run_shell_command"])
      return {
        ...(matcher === undefined ? {} : { matcher }),
        hooks: Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
          const name = pick([undefined, "lint", "audit"])
          const timeout = pick([undefined, 5000])
          return {
            type: "command",
            command: `cat > /dev/null; echo ${pick(["c1", "c2", "c3"])} >> "$ORACLE_LOG"`,
            ...(name === undefined ? {} : { name }),
            ...(timeout === undefined ? {} : { timeout })
          }
        })
      }
    })
    cases.push({ id: `dedup-${i}`, hooks: { BeforeTool: groups }, tool: "write_file", input: { file_path: "a.ts" } })
  }
  return cases
}

const timed = (label) => ({
  type: "command",
  command: `cat > /dev/null; echo "${label} $(date +%s%3N) $(sleep 0.3; date +%s%3N)" >> "$ORACLE_LOG"`
})
/** Sequential cases: which calls run their matched hooks in order. */
export const SEQUENTIAL_CASES = [
  {
    id: "sequential-matched",
    hooks: { BeforeTool: [{ matcher: "write_file", sequential: true, hooks: [timed("s")] }, { hooks: [timed("a"), timed("b")] }] },
    tool: "write_file",
    input: { file_path: "a.ts" }
  },
  {
    id: "sequential-not-matched",
    hooks: { BeforeTool: [{ matcher: "write_file", sequential: true, hooks: [timed("s")] }, { hooks: [timed("a"), timed("b")] }] },
    tool: "read_file",
    input: { file_path: "a.ts" }
  },
  {
    id: "sequential-none",
    hooks: { BeforeTool: [{ hooks: [timed("a")] }, { hooks: [timed("b"), timed("c")] }] },
    tool: "write_file",
    input: { file_path: "a.ts" }
  }
]

/** The hooks' log: the tags that ran (sorted), or for timed hooks whether any two overlapped. */
export function readLog(text, timedCase) {
  const lines = text.split("\n").filter((line) => line !== "")
  if (!timedCase) return lines.sort().join(",")
  const spans = lines.map((line) => line.split(" ").slice(1).map(Number))
  let overlapping = false
  for (const [i, [start, end]] of spans.entries()) {
    for (const [otherStart, otherEnd] of spans.slice(i + 1)) if (start < otherEnd && otherStart < end) overlapping = true
  }
  return `${lines.length} hooks, ${overlapping ? "in parallel" : "one after another"}`
}
