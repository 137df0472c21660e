/**
 * The per-user launcher a user-scope install writes (`<data>/agent-hooks/bin/agent-hooks`, beside the
 * native clients): every agent's user-wide hook entry calls this one file, which starts the runtime
 * and the CLI install named in it. So the agents' configs outlive the CLI they were written with:
 *
 * - an agent-hooks that runs from a place that may go (a project's `node_modules`, a git checkout, a
 *   temporary folder) is copied first, its bundle, the native client's source and Cedar's engine,
 *   into `<data>/agent-hooks/lib/<version>-<hash>/`, and the launcher starts the copy (`install` says so);
 * - when what the launcher starts is gone all the same (the runtime uninstalled, the folder
 *   removed), the agent's call gets a block that names `agent-hooks doctor` (exit 2, Claude Code's
 *   block; Cline's `cancel` on stdout, since Cline reads no exit code), never a stack trace; a call
 *   that is not a tool call (no key of one: `tool_name`, `toolName`, `command`, ...; Stop, a
 *   session event) gets exit 1, a visible error that blocks nothing, so no agent is kept in a loop;
 * - `doctor` reads the launcher back (`readLauncher`) and names the missing file.
 *
 * Re-running `install` rewrites the launcher for the agent-hooks that runs it; copies in `lib/` are
 * kept (a native client may start one).
 *
 * @internal
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, dirname, isAbsolute, join, sep } from "node:path"
import { createHash } from "node:crypto"
import { writeText } from "./configFile.ts"
import { missingFolders, recordCreated, removeCreated } from "./installFolders.ts"
import { nativeFolder } from "./nativeClient.ts"
import { privateFolder } from "./privateFolder.ts"
import { shellQuote } from "./hostConfig.ts"

/** The user's agent-hooks data folder (`$XDG_DATA_HOME/agent-hooks`, else `~/.local/share/agent-hooks`). */
export const dataFolder = (env: NodeJS.ProcessEnv): string | undefined => {
  const native = nativeFolder(env)
  return native === undefined ? undefined : dirname(native)
}

/** Where the launcher is. */
export const launcherPath = (env: NodeJS.ProcessEnv): string | undefined => {
  const data = dataFolder(env)
  return data === undefined ? undefined : join(data, "bin", "agent-hooks")
}

const MARKER = "# agent-hooks launcher"

/**
 * Why the CLI file `real` (a real path) may not be there tomorrow, or `undefined`: inside a
 * temporary folder, a git checkout, or a project's `node_modules` (the folder holding that
 * `node_modules` has a `package.json`).
 */
export const unstableReason = (real: string): string | undefined => {
  for (const temp of new Set([tmpdir(), "/tmp", "/var/tmp", "/dev/shm"])) {
    if (real.startsWith(temp.endsWith(sep) ? temp : temp + sep)) return `a temporary folder (${temp})`
  }
  const parts = real.split(sep)
  const first = parts.indexOf("node_modules")
  if (first > 0) {
    const owner = parts.slice(0, first).join(sep) || sep
    if (existsSync(join(owner, "package.json"))) return `the node_modules of the project ${owner}`
  }
  for (let folder = dirname(real); ; folder = dirname(folder)) {
    if (existsSync(join(folder, ".git"))) return `the git checkout ${folder}`
    if (dirname(folder) === folder) return undefined
  }
}

/** The package folder of `specifier` as the module `from` resolves it (its nearest package.json named so). */
const packageFolder = (from: string, name: string): string | undefined => {
  let file: string
  try {
    file = createRequire(from).resolve(`${name}/nodejs`)
  } catch {
    return undefined
  }
  for (let folder = dirname(file); dirname(folder) !== folder; folder = dirname(folder)) {
    const manifest = join(folder, "package.json")
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === name) return folder
      } catch {}
    }
  }
  return undefined
}

/** The files of one build that run the CLI on their own: the Node entry, the bundle, its chunks, and what they find beside them. */
const BUNDLE = ["agent-hooks.cjs", "agent-hooks.mjs", "chunks", "spawnHelperMain.js", "settings.schema.json"]

/**
 * A copy of the CLI build whose Node entry is `entry` (`…/dist/agent-hooks.cjs`) in the user's data
 * folder, made once per build (named by version and content); its entry file. An error when the
 * build has no bundle to copy (a build by `tsc` alone).
 */
export const copyBuild = (
  entry: string,
  version: string,
  env: NodeJS.ProcessEnv
): { readonly entry: string } | { readonly error: string } => {
  const dist = dirname(entry)
  if (basename(entry) !== "agent-hooks.cjs" || !existsSync(join(dist, "agent-hooks.mjs")))
    return { error: `${dist} holds no bundle of agent-hooks to copy (agent-hooks.cjs and agent-hooks.mjs)` }
  const data = dataFolder(env)
  if (data === undefined) return { error: "no folder for a copy (no HOME)" }
  const hash = createHash("sha256")
  for (const name of ["agent-hooks.cjs", "agent-hooks.mjs"]) hash.update(readFileSync(join(dist, name)))
  for (const name of readdirSync(join(dist, "chunks")).sort()) hash.update(name)
  // the folders made here are install's: uninstall removes them with the last user-wide entry
  recordCreated(missingFolders(join(data, "lib", "copy", "agent-hooks.cjs")), env)
  const lib = privateFolder(join(data, "lib"))
  if (lib === undefined) return { error: `${join(data, "lib")} is not a folder of your own that only you can write` }
  const target = join(lib, `${version}-${hash.digest("hex").slice(0, 12)}`)
  // laid out as the package is (dist/, native/ with the native client's source, node_modules/)
  const copied = join(target, "dist", "agent-hooks.cjs")
  if (existsSync(copied)) return { entry: copied }
  const staging = `${target}.${process.pid}.tmp`
  try {
    mkdirSync(join(staging, "dist"), { recursive: true, mode: 0o700 })
    for (const name of BUNDLE) {
      if (existsSync(join(dist, name))) cpSync(join(dist, name), join(staging, "dist", name), { recursive: true, dereference: true })
    }
    if (existsSync(join(dist, "..", "native")))
      cpSync(join(dist, "..", "native"), join(staging, "native"), { recursive: true, dereference: true })
    // Cedar's engine stays a dependency of the bundle (it reads its .wasm beside itself)
    const cedar = packageFolder(entry, "@cedar-policy/cedar-wasm")
    if (cedar !== undefined)
      cpSync(cedar, join(staging, "node_modules", "@cedar-policy", "cedar-wasm"), { recursive: true, dereference: true })
    cpSync(staging, target, { recursive: true })
  } catch (error) {
    return { error: `cannot copy agent-hooks into ${target}: ${(error as Error).message}` }
  } finally {
    try {
      rmSync(staging, { recursive: true, force: true })
    } catch {}
  }
  return { entry: copied }
}

/**
 * The launcher's text: starts `words` (runtime and entry, absolute) with the arguments it is given;
 * when one of them is gone, the block described above.
 */
export const launcherText = (words: ReadonlyArray<string>, version: string): string => {
  const checks = words
    .filter((word) => isAbsolute(word))
    .map((word) => `[ -e ${shellQuote(word)} ] || missing=${shellQuote(word)}`)
    .join("\n")
  return `#!/bin/sh
${MARKER} (agent-hooks ${version}): every user-wide agent-hooks entry of your agents calls this file.
# \`agent-hooks install --host <agent>\` writes it again for the agent-hooks that runs it; \`agent-hooks doctor --host <agent>\` checks it.
# starts: ${words.join(" ")}
missing=
${checks}
[ -n "$missing" ] || exec ${words.map(shellQuote).join(" ")} "$@"
host=agent
previous=
for word in "$@"; do
  [ "$previous" = --host ] && host=$word
  previous=$word
done
reason="agent-hooks cannot start: $missing is gone (this launcher, $0, starts it). Nothing judges this agent's calls, so its tool calls are blocked: run \\\`agent-hooks doctor --host $host\\\`, which says how to fix it (install agent-hooks again, then agent-hooks install --host $host)"
printf '%s\\n' "$reason" >&2
[ "$1" = hook ] || exit 1
payload=$(cat)
# a tool call: a key only the agent writes (a value's quotes arrive escaped, so a model cannot fake one away)
case $payload in
  *'"tool_name"'*|*'"toolName"'*|*'"tool_input"'*|*'"tool_call"'*|*'"toolCall"'*|*'"tool_info"'*|*'"preToolUse"'*|*'"command"'*|*'"file_path"'*)
    # Cline reads no exit code: its block is JSON on stdout
    if [ "$host" = cline ]; then
      printf '{"cancel":true,"errorMessage":"%s"}\\n' "$(printf '%s' "$reason" | sed 's/[\\\\"]/\\\\&/g')"
    fi
    exit 2 ;;
esac
exit 1
`
}

/** What a launcher at `path` starts (its absolute words), or `undefined` when `path` is no launcher of agent-hooks. */
export const readLauncher = (path: string): { readonly words: ReadonlyArray<string> } | undefined => {
  let text: string
  try {
    if (statSync(path).size > 64 * 1024) return undefined
    text = readFileSync(path, "utf8")
  } catch {
    return undefined
  }
  if (!text.includes(MARKER)) return undefined
  const line = /^\[ -n "\$missing" \] \|\| exec (.*) "\$@"$/m.exec(text)
  if (line === null) return undefined
  const words = [...line[1]!.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll(`'\\''`, "'"))
  return { words }
}

/** The launcher, (re)written to start `words`; its path. */
export const writeLauncher = (
  words: ReadonlyArray<string>,
  version: string,
  env: NodeJS.ProcessEnv
): { readonly path: string } | { readonly error: string } => {
  const path = launcherPath(env)
  if (path === undefined) return { error: "no folder for the launcher (no HOME)" }
  recordCreated(missingFolders(path), env)
  const data = privateFolder(dirname(dirname(path)))
  const bin = data === undefined ? undefined : privateFolder(dirname(path))
  if (bin === undefined) return { error: `${dirname(path)} is not a folder of your own that only you can write` }
  const text = launcherText(words, version)
  try {
    if (existsSync(path) && readFileSync(path, "utf8") === text) return { path }
    writeText(path, text, 0o700)
  } catch (error) {
    return { error: `cannot write the launcher ${path}: ${(error as Error).message}` }
  }
  return { path }
}

/** The real path of `file`, or `file`. */
export const realOf = (file: string): string => {
  try {
    return realpathSync(file)
  } catch {
    return file
  }
}

/**
 * Removes the launcher and the copies of agent-hooks it may start (uninstall, once no agent's
 * user-wide config calls agent-hooks), and the folders install made for them while they are empty.
 * The paths removed.
 */
export const removeLauncher = (env: NodeJS.ProcessEnv): ReadonlyArray<string> => {
  const path = launcherPath(env)
  const data = dataFolder(env)
  if (path === undefined || data === undefined) return []
  const removed: Array<string> = []
  if (readLauncher(path) !== undefined) {
    rmSync(path, { force: true })
    removed.push(path)
  }
  const lib = join(data, "lib")
  if (existsSync(lib)) {
    for (const name of readdirSync(lib)) {
      if (!existsSync(join(lib, name, "dist", "agent-hooks.cjs"))) continue
      rmSync(join(lib, name), { recursive: true, force: true })
      removed.push(join(lib, name))
    }
  }
  removed.push(...removeCreated(path, env), ...removeCreated(join(lib, "copy", "agent-hooks.cjs"), env))
  return removed
}
