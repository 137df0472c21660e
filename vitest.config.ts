/**
 * Vitest 5 configuration for every test lane (Node, Bun, Deno); `scripts/dev.mjs test` runs it
 * once per runtime.
 *
 * Test files: `packages/<pkg>/test/**\/*.test.ts`, one Vitest project per package (labelled with
 * the package folder name in the output), and `docs/test/**\/*.test.ts` (project `docs`: the
 * documentation's code blocks, event pages and the built site in a headless browser).
 *
 * Runtime gates, decided by the runtime that runs Vitest:
 * - `packages/bun/test/**` runs only in the Bun lane (`process.versions.bun` is set),
 *   `packages/core/test/**` on Node and Bun, `packages/test-utils/test/**` on Node (`lanesOf`).
 * - `*.node.test.ts` files run only in the Node lane (neither Bun nor Deno). Name a test file
 *   like that when it needs Node-only behaviour (for example `node:child_process` details that
 *   Bun or Deno emulate differently).
 * - `*.bun.test.ts` files anywhere run only in the Bun lane, `*.deno.test.ts` only in the Deno lane.
 * - `packages/cli/test/*` run only in the Node lane, except RunArgs.test.ts (`builtCliFiles`).
 *
 * Every lane runs its files on three workers, then the stress files (`aloneFiles`, project
 * `stress`) one at a time.
 *
 * The fast lane (`npm run test:fast`, AGENT_HOOKS_FAST=1; Node only, no build): every project but
 * `docs`, without the files in `slowFiles` below (each says why), so that a developer gets an
 * answer in under a minute. `npm test` runs them all.
 *
 * Workspace packages resolve to their TypeScript sources through the `source` export condition
 * (every package.json has `"exports": { ".": { "source": "./src/index.ts", ... } }`), so tests
 * never need a build. Vitest runs test files in Vite's SSR environment, so the condition is set
 * for both the client and the SSR resolver.
 */
import { readdirSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

const isBun = typeof process.versions.bun === "string"
const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined" || typeof process.versions.deno === "string"
const runtime: "node" | "bun" | "deno" = isBun ? "bun" : isDeno ? "deno" : "node"

const root = fileURLToPath(new URL(".", import.meta.url))

// Vite's defaults (DEFAULT_CLIENT_CONDITIONS / DEFAULT_SERVER_CONDITIONS in vite 8) with "source" first.
const clientConditions = ["source", "module", "browser", "development|production"]
const serverConditions = ["source", "module", "node", "development|production"]

const otherRuntimes = (["node", "bun", "deno"] as const).filter((r) => r !== runtime)

const fast = process.env.AGENT_HOOKS_FAST === "1"

/**
 * The CLI tests that spawn the built CLI (every file of packages/cli/test but RunArgs.test.ts, which
 * parses argv in the lane's own runtime). They run the very same programs on every lane (under Bun
 * and Deno, `node` from PATH; Runtimes.test.ts runs the CLI on Node, Bun and Deno from any lane), so
 * they run on the Node lane only; and they need the build, so not in the fast lane.
 */
const builtCliFiles = "packages/cli/test/!(RunArgs).test.ts"

/**
 * Left out of the fast lane: files that need the build (the built CLI, `dist/`), and the files
 * that cost the most CPU (measured with vitest's JSON reporter). `npm test` runs them all.
 */
const slowFiles = [
  // the built CLI or dist/ (the fast lane does not build)
  builtCliFiles,
  "packages/langchain-adapter/test/examples.node.test.ts",
  // the real AI SDK and Mastra agents against a model server (seconds of CPU per file)
  "packages/ai-sdk/test/AiSdkHooks.node.test.ts",
  "packages/mastra/test/MastraHooks.node.test.ts",
  "packages/ai-sdk/test/examples.node.test.ts",
  "packages/mastra/test/examples.node.test.ts",
  "packages/claude-agent-sdk/test/examples.node.test.ts",
  "packages/openai-agents/test/examples.node.test.ts",
  // generated commands run through real shells, thousands of cases (the property tests that stay
  // run a tenth of their cases here: PropertyRuns in test-utils)
  "packages/core/test/HostileQuoting.test.ts",
  // the process conformance suite, once per spawner (Node, the spawn helper on Node and on Bun)
  "packages/node/test/NodeProcessSpawner.test.ts",
  // the Claude Agent SDK against a scripted model server (each query starts the SDK's own Claude
  // Code process: seconds per scenario)
  "packages/claude-agent-sdk/test/AgentHooks.node.test.ts"
  // and the stress tests (`aloneFiles`: 3 runs of 250 overlapping dispatches under CPU load, per
  // spawner; a third of the fast lane's time on their own): the fast lane has no `stress` project
]

/**
 * Files that load the CPU on purpose (busy loops, hundreds of overlapping hook processes): they run
 * after every other file, one at a time (project `stress`, a group of its own with one worker), so
 * that neither they nor the files beside them lose their timing to each other.
 */
const aloneFiles = [
  "packages/node/test/Concurrency.test.ts",
  "packages/bun/test/Concurrency.test.ts",
  "packages/deno/test/Concurrency.deno.test.ts"
]

/**
 * Workers for the other files, on every lane. They mostly wait on hook processes, CLIs and
 * timeouts (one worker kept a 2-core machine about half idle), so more workers than cores pay:
 * measured in scripts/dev.mjs's summary, the Node lane went from 383 s with vitest's default of one
 * worker to about half with three. `AGENT_HOOKS_WORKERS` overrides it (1 for a quiet, serial run).
 */
const workers = Number(process.env.AGENT_HOOKS_WORKERS ?? "") || 3

/**
 * The longest files (measured with the JSON reporter, longest first). A lane starts them before all
 * others, whatever their project: vitest's own order (project by project, then by the durations of
 * the last run, which a fresh clone has not got, or by size) can leave one of them to run alone at
 * the end of the lane while the other workers idle.
 */
const longFiles = [
  "packages/cli/test/HookClients.test.ts",
  "packages/cli/test/HookDaemon.test.ts",
  "packages/cli/test/InstallTree.node.test.ts",
  "packages/cli/test/Install.node.test.ts",
  "packages/core/test/HostileQuoting.test.ts",
  "packages/node/test/NodeProcessSpawner.test.ts",
  "docs/test/Docs.node.test.ts",
  "packages/cli/test/InstallHosts.node.test.ts",
  "packages/cli/test/Cli.test.ts",
  "packages/cli/test/Audit.test.ts",
  "packages/cli/test/Serve.test.ts",
  "packages/node/test/Presets.test.ts",
  "packages/bun/test/BunProcessSpawner.test.ts"
]

/** vitest's order, with the groups kept (`stress` last) and the long files first within each. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const index = longFiles.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
      return index === -1 ? longFiles.length : index
    }
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => group(a.spec) - group(b.spec) || rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec)
  }
}

const packageDirs = readdirSync(new URL("./packages/", import.meta.url)).filter((name) => {
  try {
    return statSync(new URL(`./packages/${name}/test/`, import.meta.url)).isDirectory()
  } catch {
    return false
  }
})

/**
 * Packages whose tests run on some lanes only (every other package: all three).
 * - `bun`: the Bun runtime package, on Bun.
 * - `core`: on Node and Bun, not Deno. The core calls no runtime API (it never imports Node, Bun or
 *   Deno) and its tests run it on the scripted spawner and an in-memory file system (real shells
 *   only as the oracle of the quoting tests), so what a lane checks there is the JavaScript engine:
 *   Bun's JavaScriptCore differs from V8 (regular expressions, sorting, JSON), Deno runs the V8
 *   that Node runs. The runtimes' own spawners, files and signals are tested by packages node, bun,
 *   deno, langchain-adapter and cli, on every lane where they run.
 * - `test-utils`: the scripted spawner, a test double with no runtime API, on Node.
 */
const lanesOf: Record<string, ReadonlyArray<typeof runtime>> = {
  bun: ["bun"],
  core: ["node", "bun"],
  "test-utils": ["node"]
}

const projectsFor = packageDirs
  .filter((name) => (lanesOf[name] ?? [runtime]).includes(runtime))
  .map((name) => ({
    extends: true as const,
    test: {
      name,
      root,
      include: [`packages/${name}/test/**/*.test.ts`],
      exclude: [
        "**/node_modules/**",
        "**/dist/**",
        ...otherRuntimes.map((r) => `**/*.${r}.test.ts`),
        ...(runtime === "node" ? [] : [builtCliFiles]),
        ...aloneFiles,
        ...(fast ? slowFiles : [])
      ]
    }
  }))

const stressProject = {
  extends: true as const,
  test: {
    name: "stress",
    root,
    include: aloneFiles.filter((f) => !f.startsWith("packages/bun/") || runtime === "bun"),
    exclude: ["**/node_modules/**", "**/dist/**", ...otherRuntimes.map((r) => `**/*.${r}.test.ts`)],
    sequence: { groupOrder: 1 },
    maxWorkers: 1
  }
}

const docsProject = {
  extends: true as const,
  test: {
    name: "docs",
    root,
    include: ["docs/test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", ...otherRuntimes.map((r) => `**/*.${r}.test.ts`)]
  }
}

export default defineConfig({
  resolve: { conditions: clientConditions },
  ssr: { resolve: { conditions: serverConditions } },
  test: {
    projects: fast ? projectsFor : [...projectsFor, docsProject, stressProject],
    setupFiles: [fileURLToPath(new URL("./vitest.setup.ts", import.meta.url))],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A lane with no test files (e.g. a filter that matches nothing here) is not a failure.
    passWithNoTests: true,
    // The files mostly wait on hook processes and timeouts, so three workers on a 2-core machine
    // halve a lane's time (the fast lane: 70 s with the default of one, 33 s with three). The
    // stress files run after them, alone (`stressProject`).
    maxWorkers: workers,
    sequence: { sequencer: LongFilesFirst }
  }
})
