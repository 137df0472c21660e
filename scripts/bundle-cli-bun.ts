// Run by Bun (scripts/bundle-cli.mjs starts it): `agent-hooks run` for Bun, compiled ahead of time.
// packages/cli/src/internal/bunRun.ts and everything it imports become one CommonJS file,
// packages/cli/dist/agent-hooks.bun.cjs, with its bytecode beside it (.jsc): Bun loads the bytecode
// instead of parsing and compiling the engine at every start (about 15 % of `run` on Bun), and
// falls back to the source when the bytecode was made by another Bun version. Bytecode needs
// CommonJS, and CommonJS has no `import.meta`: effect's ConfigProvider reads `import.meta.env`
// (Vite's), which is left out here (the process environment is read as before).
//
//   bun scripts/bundle-cli-bun.ts <outdir> <version>
import { readFile } from "node:fs/promises"

declare const Bun: {
  build(options: Record<string, unknown>): Promise<{ success: boolean; logs: ReadonlyArray<unknown>; outputs: ReadonlyArray<{ path: string }> }>
}

const [outdir, version] = process.argv.slice(2)
const result = await Bun.build({
  entrypoints: [new URL("../packages/cli/src/internal/bunRun.ts", import.meta.url).pathname],
  outdir,
  naming: "agent-hooks.bun.cjs",
  target: "bun",
  format: "cjs",
  bytecode: true,
  conditions: ["source"],
  define: { AGENT_HOOKS_VERSION: JSON.stringify(version) },
  plugins: [{
    name: "no-import-meta",
    setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: string }>): void }) {
      build.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]ConfigProvider\.js$/ }, async (args) => ({
        contents: (await readFile(args.path, "utf8")).replace("...import.meta?.env", ""),
        loader: "js"
      }))
    }
  }]
})
if (!result.success) {
  console.error(result.logs.map(String).join("\n"))
  process.exit(1)
}
// CommonJS has no `import.meta`: one left in (a new use in a dependency) would fail every start.
const bundle = result.outputs.find((output) => output.path.endsWith(".cjs"))!.path
if (/\bimport\.meta\b/.test(await readFile(bundle, "utf8"))) {
  console.error(`${bundle}: uses import.meta, which CommonJS (and so Bun's bytecode) cannot run; leave it out in the plugin above`)
  process.exit(1)
}
console.log(result.outputs.map((output) => output.path).join("\n"))
