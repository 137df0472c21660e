#!/usr/bin/env node
// Bundles the CLI program (packages/cli/src/main.ts and everything it imports: effect, the core,
// the Node runtime package) into packages/cli/dist/agent-hooks.mjs, which `bin.js` loads after
// turning on Node's compile cache, and chunks in dist/chunks/ that it imports on first use. A few
// files to read and compile instead of a few hundred modules to resolve: `agent-hooks run` starts in about half the time (docs/benchmarks/cli-startup.md).
//
// esbuild, because it is a single small binary with a JS API that needs no config, builds this in
// well under a second, and its output started as fast as any other we measured (see the page).
// `@agent-hooks/bun` is bundled too (its module runs only under Bun, where main.ts imports it), so
// the bundle needs none of the workspace packages installed, and Bun loads one copy of effect.
//
// Run by `npm run build` (scripts/dev.mjs) after `tsc -b`; by hand: `node scripts/bundle-cli.mjs`.

import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { moduleId, RUN_TIME_FILES, runTimeFileProblem } from "./run-time-files.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const CLI = join(ROOT, "packages", "cli")
const { version } = JSON.parse(readFileSync(join(CLI, "package.json"), "utf8"))

/**
 * Reads every workspace module the bundle takes in for files it finds beside itself at run time
 * (scripts/run-time-files.mjs): one that is not listed fails the build, instead of the user's run.
 */
export const runTimeFilesPlugin = {
  name: "run-time-files",
  setup(build) {
    build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const contents = await readFile(args.path, "utf8")
      const problem = runTimeFileProblem(moduleId(ROOT, args.path), contents)
      return problem === undefined ? { contents, loader: "ts" } : { errors: [{ text: problem }] }
    })
  }
}

/** Builds a run-time file (one module, its imports bundled in) at `outfile`. */
export const buildRunTimeFile = (source, outfile) =>
  build({
    entryPoints: [join(ROOT, source)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    conditions: ["source"],
    logLevel: "warning"
  })

export const bundleCli = async (outfile = join(CLI, "dist", "agent-hooks.mjs")) => {
  // Code only some subcommands (or only some settings) need sits in chunks loaded on first use
  // (`import()` in Cli.ts and the core): `run` reads and evaluates the entry and the chunks it imports.
  rmSync(join(dirname(outfile), "chunks"), { recursive: true, force: true })
  const result = await build({
    absWorkingDir: ROOT,
    metafile: true,
    plugins: [runTimeFilesPlugin],
    entryPoints: { [basename(outfile, ".mjs")]: join(CLI, "src", "main.ts") },
    outdir: dirname(outfile),
    outExtension: { ".js": ".mjs" },
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    // Workspace packages from their TypeScript sources (the `source` export condition).
    conditions: ["source"],
    // Cedar's engine reads its .wasm beside its own module: it stays a dependency, imported (and
    // loaded) only when a `cedar` hook runs.
    external: ["@cedar-policy/cedar-wasm", "@cedar-policy/cedar-wasm/*"],
    define: { AGENT_HOOKS_VERSION: JSON.stringify(version) },
    // A few dependencies still call require(); an ES module has none, so give it one.
    banner: {
      js: `import { createRequire as __agentHooksCreateRequire } from "node:module"; const require = __agentHooksCreateRequire(import.meta.url);`
    },
    legalComments: "linked",
    logLevel: "warning"
  })
  // The files a bundled module finds beside itself at run time, beside the output file that holds its code.
  for (const [output, { inputs }] of Object.entries(result.metafile.outputs)) {
    for (const id of Object.keys(inputs)) {
      for (const { file, source } of RUN_TIME_FILES[id] ?? []) {
        const target = join(ROOT, dirname(output), file)
        await buildRunTimeFile(source, target)
        if (!existsSync(target)) throw new Error(`${target}: not built (${id} starts it at run time)`)
      }
    }
  }
  return result
}

// The settings JSON Schema, shipped beside the bundle (`@agent-hooks/cli/settings.schema.json`):
// written by the bundle itself (`agent-hooks schema`), so the file and the command cannot differ.
export const writeSchema = (bundle = join(CLI, "dist", "agent-hooks.mjs")) =>
  writeFileSync(join(dirname(bundle), "settings.schema.json"), execFileSync(process.execPath, [bundle, "schema"], { encoding: "utf8" }))

// An empty Bun config beside bin.js: started by Bun in a project with a bunfig.toml or .env files,
// bin.js starts itself again with `--no-env-file --config=<this file>`, so Bun reads neither.
export const writeBunConfig = (bundle = join(CLI, "dist", "agent-hooks.mjs")) =>
  writeFileSync(
    join(dirname(bundle), "bunfig.toml"),
    "# agent-hooks under Bun: read instead of the working directory's bunfig.toml (see bin.js).\n"
  )

// The executable as npm links it (`agent-hooks.cjs`, packages/cli/src/internal/nodeEntry.ts): one
// CommonJS file holding the daemon's client, so that `agent-hooks hook` answered by the per-user
// daemon starts no ES module loader and reads one file (a few ms of every hook call an agent makes);
// every other command imports bin.js from it.
export const bundleEntry = (bundle = join(CLI, "dist", "agent-hooks.mjs")) =>
  build({
    absWorkingDir: ROOT,
    entryPoints: [join(CLI, "src", "internal", "nodeEntry.ts")],
    outfile: join(dirname(bundle), "agent-hooks.cjs"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning"
  })

// `agent-hooks run` for Bun, compiled ahead of time (scripts/bundle-cli-bun.ts, run by Bun): when
// the toolchain has no Bun, there is none, and bin.js loads the bundle above under Bun too.
export const bundleForBun = (outfile = join(CLI, "dist", "agent-hooks.mjs")) => {
  const bun = join(ROOT, ".tools", "node_modules", ".bin", "bun")
  rmSync(join(dirname(outfile), "agent-hooks.bun.cjs"), { force: true })
  rmSync(join(dirname(outfile), "agent-hooks.bun.cjs.jsc"), { force: true })
  if (!existsSync(bun)) return false
  execFileSync(bun, [join(ROOT, "scripts", "bundle-cli-bun.ts"), dirname(outfile), version], { stdio: ["ignore", "ignore", "inherit"] })
  return true
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleCli(process.argv[2])
  await bundleEntry(process.argv[2])
  writeSchema(process.argv[2])
  writeBunConfig(process.argv[2])
  bundleForBun(process.argv[2])
}
