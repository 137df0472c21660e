#!/usr/bin/env node
// Single-file executables of the CLI for hosts without a JavaScript runtime, and the npm package
// per platform that ships each one (the way esbuild and biome ship theirs):
//
//   release/binaries/agent-hooks-<os>-<arch>[.exe]      the executable (`bun build --compile`)
//   release/packages/cli-<os>-<arch>/                    @agent-hooks/cli-<os>-<arch>: package.json
//                                                        (os, cpu), LICENSE, README, bin/agent-hooks
//
// Usage (from the repository root, after `npm run build`, toolchain on PATH):
//   node scripts/release-binaries.mjs                 the host's own target only (no download)
//   node scripts/release-binaries.mjs --all           linux-x64, linux-arm64, darwin-x64,
//                                                     darwin-arm64, windows-x64
//   node scripts/release-binaries.mjs --target linux-arm64 [--target ...]
//
// Cross-target builds make bun download that target's runtime from the npm registry (about 80 MB
// each): keep them out of CI. The test suite builds only linux-x64 (packages/cli/test/Binary.node.test.ts, with `compile`).
// At publish time, the platform packages are published first, then @agent-hooks/cli with the
// `optionalDependencies` block this script prints (each at the same version), added to its
// package.json for that release only: before they are on the registry, npm and pnpm skip them, but
// the workspace lockfile cannot record them and `pnpm install --frozen-lockfile` refuses. The CLI
// finds the installed one with `@agent-hooks/cli/Binary` (`binaryPath()`).

import { spawnSync } from "node:child_process"
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleCli } from "./bundle-cli.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const OUT = join(ROOT, "release")
const { version } = JSON.parse(readFileSync(join(ROOT, "packages", "cli", "package.json"), "utf8"))

export const TARGETS = {
  "linux-x64": { bun: "bun-linux-x64", os: "linux", cpu: "x64", exe: "" },
  "linux-arm64": { bun: "bun-linux-arm64", os: "linux", cpu: "arm64", exe: "" },
  "darwin-x64": { bun: "bun-darwin-x64", os: "darwin", cpu: "x64", exe: "" },
  "darwin-arm64": { bun: "bun-darwin-arm64", os: "darwin", cpu: "arm64", exe: "" },
  "windows-x64": { bun: "bun-windows-x64", os: "win32", cpu: "x64", exe: ".exe" }
}

export const hostTarget = () => {
  const os = process.platform === "win32" ? "windows" : process.platform
  return `${os}-${process.arch}`
}

/**
 * The executable reads nothing of the folder it is started in before the CLI's own checks: by
 * default a Bun executable loads the working directory's bunfig.toml (whose preloads run code of a
 * cloned project before any trust check) and its .env files (which set, say,
 * AGENT_HOOKS_MANAGED_DIR to a folder of the project's). tsconfig.json and package.json are off by
 * default; said here so a change of Bun's defaults does not turn them on.
 */
export const COMPILE_FLAGS = [
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json"
]

/**
 * Cedar inside the executable. The CLI imports `@cedar-policy/cedar-wasm/nodejs` when a cedar hook
 * runs; that build reads its .wasm from the folder it was installed in, which the executable does
 * not have (every cedar hook failed: "Cannot find package '@cedar-policy/cedar-wasm'"). Beside the
 * bundle, a package of that name whose `nodejs` entry is Cedar's own `web` build, initialised from
 * its .wasm embedded in the executable (`with { type: "file" }`): bun compiles it in, and a cedar
 * hook evaluates as it does under Node.
 */
const embedCedar = (bundle) => {
  const installed = dirname(
    dirname(createRequire(join(ROOT, "packages", "cli", "package.json")).resolve("@cedar-policy/cedar-wasm/nodejs"))
  )
  const { version: cedarVersion } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
  const dir = join(dirname(bundle), "node_modules", "@cedar-policy", "cedar-wasm")
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const file of ["cedar_wasm.js", "cedar_wasm_bg.wasm"]) copyFileSync(join(installed, "web", file), join(dir, file))
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "@cedar-policy/cedar-wasm", version: cedarVersion, type: "module", exports: { ".": "./embedded.js", "./nodejs": "./embedded.js" } }, null, 2)}\n`
  )
  writeFileSync(
    join(dir, "embedded.js"),
    [
      `// Cedar's web build, initialised from the .wasm embedded in the executable (scripts/release-binaries.mjs)`,
      `import { readFileSync } from "node:fs"`,
      `import wasm from "./cedar_wasm_bg.wasm" with { type: "file" }`,
      `import { initSync } from "./cedar_wasm.js"`,
      `initSync({ module: readFileSync(wasm) })`,
      `export * from "./cedar_wasm.js"`,
      ``
    ].join("\n")
  )
}

/** Builds one target's executable at `outfile` from the CLI bundle, made at `bundle` first. */
export const compile = async (target, outfile, bundle = join(OUT, "agent-hooks.mjs")) => {
  const spec = TARGETS[target]
  if (spec === undefined) throw new Error(`unknown target ${target} (known: ${Object.keys(TARGETS).join(", ")})`)
  await bundleCli(bundle)
  embedCedar(bundle)
  mkdirSync(dirname(outfile), { recursive: true })
  const r = spawnSync("bun", ["build", "--compile", ...COMPILE_FLAGS, `--target=${spec.bun}`, bundle, "--outfile", outfile], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })
  if (r.status !== 0) throw new Error(`bun build --compile --target=${spec.bun} failed:\n${r.stdout}${r.stderr}${r.error ?? ""}`)
  return outfile
}

const platformPackage = (target, binary) => {
  const spec = TARGETS[target]
  const dir = join(OUT, "packages", `cli-${target}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, "bin"), { recursive: true })
  const file = `agent-hooks${spec.exe}`
  copyFileSync(binary, join(dir, "bin", file))
  chmodSync(join(dir, "bin", file), 0o755)
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"))
  writeFileSync(
    join(dir, "README.md"),
    `# @agent-hooks/cli-${target}\n\nThe \`agent-hooks\` command as one executable for ${spec.os} ${spec.cpu} (no JavaScript runtime needed). Installed by \`@agent-hooks/cli\` as an optional dependency; see its README.\n`
  )
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify(
      {
        name: `@agent-hooks/cli-${target}`,
        version,
        description: `The agent-hooks command as a single executable for ${spec.os} ${spec.cpu}.`,
        license: "MIT",
        os: [spec.os],
        cpu: [spec.cpu],
        files: ["bin", "LICENSE", "README.md"],
        preferUnplugged: true
      },
      null,
      2
    )}\n`
  )
  return dir
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const targets = args.includes("--all") ? Object.keys(TARGETS) : args.flatMap((arg, i) => (args[i - 1] === "--target" ? [arg] : []))
  if (targets.length === 0) targets.push(hostTarget())
  for (const target of targets) {
    const binary = await compile(target, join(OUT, "binaries", `agent-hooks-${target}${TARGETS[target].exe}`))
    const dir = platformPackage(target, binary)
    console.log(`${target}: ${binary} (${dir})`)
  }
  console.log(
    `\noptionalDependencies for @agent-hooks/cli at publish time:\n${JSON.stringify(Object.fromEntries(targets.map((t) => [`@agent-hooks/cli-${t}`, version])), null, 2)}`
  )
}
