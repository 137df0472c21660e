// Run by Bun (scripts/bundle-cli.mjs starts it): `agent-hooks run` for Bun, compiled ahead of time.
// packages/cli/src/internal/bunRun.ts and everything it imports become one CommonJS file,
// packages/cli/dist/agent-hooks.bun.cjs, with its bytecode beside it (.jsc): Bun loads the bytecode
// instead of parsing and compiling the engine at every start (about 15 % of `run` on Bun), and
// falls back to the source when the bytecode was made by another Bun version. Bytecode needs
// CommonJS, and CommonJS has no `import.meta`: effect's ConfigProvider reads `import.meta.env`
// (Vite's), which is left out here (the process environment is read as before).
//
// A module that finds a file beside itself at run time (scripts/run-time-files.mjs) gets the bundle's
// own location for import.meta.url (Bun writes the build machine's path of the module there), and
// the file is built beside the bundle; any other such module fails the build.
//
//   bun scripts/bundle-cli-bun.ts <outdir> <version>
import { readFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { buildRunTimeFile } from "./bundle-cli.mjs"
import { moduleId, RUN_TIME_FILES, runTimeFileProblem } from "./run-time-files.mjs"

declare const Bun: {
  build(
    options: Record<string, unknown>
  ): Promise<{ success: boolean; logs: ReadonlyArray<unknown>; outputs: ReadonlyArray<{ path: string }> }>
}
type OnLoad = (options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: string }>) => void

const ROOT = resolve(import.meta.dir, "..")
const [outdir, version] = process.argv.slice(2)
const problems: Array<string> = []
const withFiles = new Set<keyof typeof RUN_TIME_FILES>()
const result = await Bun.build({
  entrypoints: [new URL("../packages/cli/src/internal/bunRun.ts", import.meta.url).pathname],
  outdir,
  naming: "agent-hooks.bun.cjs",
  target: "bun",
  format: "cjs",
  bytecode: true,
  conditions: ["source"],
  // Cedar's engine reads its .wasm beside its own module: a dependency, loaded when a cedar hook runs.
  external: ["@cedar-policy/cedar-wasm", "@cedar-policy/cedar-wasm/*"],
  define: { AGENT_HOOKS_VERSION: JSON.stringify(version) },
  // The bundle's own URL, for the modules of RUN_TIME_FILES: the banner runs inside the CommonJS wrapper,
  // whose __filename is the bundle (in a bundled module Bun writes the module's source path instead).
  banner: 'var __agentHooksBundleUrl = require("node:url").pathToFileURL(__filename).href;',
  plugins: [
    {
      name: "no-import-meta",
      setup(build: { onLoad: OnLoad }) {
        build.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]ConfigProvider\.js$/ }, async (args) => ({
          contents: (await readFile(args.path, "utf8")).replace("...import.meta?.env", ""),
          loader: "js"
        }))
      }
    },
    {
      name: "run-time-files",
      setup(build: { onLoad: OnLoad }) {
        build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
          const id = moduleId(ROOT, args.path)
          const contents = await readFile(args.path, "utf8")
          const problem = runTimeFileProblem(id, contents)
          if (problem !== undefined) problems.push(problem)
          if (id in RUN_TIME_FILES) withFiles.add(id as keyof typeof RUN_TIME_FILES)
          return {
            contents: withFiles.has(id as keyof typeof RUN_TIME_FILES)
              ? contents.replaceAll("import.meta.url", "__agentHooksBundleUrl")
              : contents,
            loader: "ts"
          }
        })
      }
    }
  ]
})
if (!result.success || problems.length > 0) {
  console.error([...problems, ...result.logs.map(String)].join("\n"))
  process.exit(1)
}
for (const id of withFiles) {
  for (const { file, source } of RUN_TIME_FILES[id]) await buildRunTimeFile(source, join(outdir!, file))
}
// CommonJS has no `import.meta`: one left in (a new use in a dependency) would fail every start.
const bundle = result.outputs.find((output) => output.path.endsWith(".cjs"))!.path
const text = await readFile(bundle, "utf8")
if (/\bimport\.meta\b/.test(text)) {
  console.error(`${bundle}: uses import.meta, which CommonJS (and so Bun's bytecode) cannot run; leave it out in the plugin above`)
  process.exit(1)
}
// A path of the build machine (Bun's value for import.meta.url in CommonJS) points nowhere on the user's.
if (text.includes(ROOT)) {
  console.error(
    `${bundle}: holds a path of the build machine (${ROOT}): a module finds a file at run time where the bundle is built, not where it is installed`
  )
  process.exit(1)
}
console.log(result.outputs.map((output) => output.path).join("\n"))
