/**
 * The native client of the per-user daemon (`packages/cli/native/hook-client.c`): what
 * `agent-hooks install --host <agent> --native` builds with the machine's C compiler, where it puts
 * it, and what `doctor` reads back from it.
 *
 * The client is built for one Node and one install of the CLI (both compiled in: the daemon's socket
 * is named by them, and the call runs in-process through them when the daemon does not answer), into
 * a per-user folder (`$XDG_DATA_HOME/agent-hooks/native`, else `~/.local/share/agent-hooks/native`,
 * mode 0700), one file per agent config it is written into (`hook-client-<agent>-<scope>-<hash>`),
 * so that `uninstall` removes exactly the one it wired.
 *
 * @internal
 */
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, readFileSync, renameSync, rmdirSync, rmSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, isAbsolute, join } from "node:path"
import { privateFolder } from "./privateFolder.ts"

/** The C source beside the CLI's `dist/` (the package ships `native/`), from the CLI's entry file. */
export const clientSource = (bin: string): string => join(dirname(bin), "..", "native", "hook-client.c")

/** The folder of the user's native clients; `undefined` without a home. */
export const nativeFolder = (env: NodeJS.ProcessEnv): string | undefined => {
  const data = env["XDG_DATA_HOME"]
  if (data !== undefined && isAbsolute(data)) return join(data, "agent-hooks", "native")
  const home = env["HOME"] || homedir()
  return home !== "" && isAbsolute(home) ? join(home, ".local", "share", "agent-hooks", "native") : undefined
}

/** FNV-1a, 32 bits: a short name for a config's own client, not a secret. */
const fnv = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, "0")
}

/** The client one agent's config (user, or one project's) calls. */
export const clientPath = (folder: string, agent: string, scope: "user" | "project", projectDir: string): string =>
  join(folder, `hook-client-${agent}-${scope}${scope === "project" ? `-${fnv(projectDir)}` : ""}`)

/** A C string literal of any bytes (octal escapes but for letters and digits): safe on a command line and in C. */
const cString = (text: string): string =>
  `"${[...Buffer.from(text, "utf8")].map((byte) => (/[A-Za-z0-9]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, "0")}`)).join("")}"`

/** What the client runs (compiled in): the Node, the CLI's entry, that Node's version. */
export interface ClientConfig {
  readonly node: string
  readonly bin: string
  readonly version: string
}

/** The flags the client is built with; `sanitize` adds AddressSanitizer and UBSan (the tests' flag). */
export const compilerArgs = (source: string, out: string, config: ClientConfig, sanitize = false): ReadonlyArray<string> => [
  "-std=c99",
  "-O2",
  "-Wall",
  "-Wextra",
  "-Werror",
  ...(sanitize ? ["-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"] : []),
  `-DAH_NODE=${cString(config.node)}`,
  `-DAH_BIN=${cString(config.bin)}`,
  `-DAH_NODE_VERSION=${cString(config.version)}`,
  "-o",
  out,
  source
]

/**
 * Builds the client at `out` (written beside it, then renamed into place; mode 0700) with `cc`.
 * The error says why not: no C compiler, or what it said.
 */
export const buildClient = (
  source: string,
  out: string,
  config: ClientConfig,
  options: { readonly sanitize?: boolean; readonly cc?: string } = {}
): { readonly ok: true } | { readonly error: string; readonly noCompiler: boolean } => {
  const temp = `${out}.${process.pid}.tmp`
  const cc = options.cc ?? "cc"
  const built = spawnSync(cc, compilerArgs(source, temp, config, options.sanitize), { encoding: "utf8", timeout: 120_000 })
  if (built.error !== undefined) {
    rmSync(temp, { force: true })
    const missing = (built.error as NodeJS.ErrnoException).code === "ENOENT"
    return {
      error: missing ? `no C compiler (${cc} is not on PATH)` : `${cc} did not finish: ${built.error.message}`,
      noCompiler: missing
    }
  }
  if (built.status !== 0) {
    rmSync(temp, { force: true })
    const said = `${built.stderr ?? ""}${built.stdout ?? ""}`.trim().split("\n").slice(0, 5).join("\n")
    return { error: `${cc} could not build ${source} (exit ${built.status}): ${said}`, noCompiler: false }
  }
  chmodSync(temp, 0o700)
  renameSync(temp, out)
  return { ok: true }
}

/** Builds the client for `config` into the user's folder at `path`; the error says why not. */
export const installClient = (
  path: string,
  config: ClientConfig
): { readonly ok: true } | { readonly error: string; readonly noCompiler: boolean } => {
  const folder = privateFolder(dirname(path))
  if (folder === undefined)
    return { error: `${dirname(path)} is not a private folder of this user's own (mode 0700, not a symlink)`, noCompiler: false }
  const source = clientSource(config.bin)
  if (!existsSync(source)) return { error: `the client's source ${source} is not there`, noCompiler: false }
  return buildClient(source, path, config)
}

/** Removes a client install built (and its folder once empty); `true` when there was one. */
export const removeClient = (path: string): boolean => {
  if (!existsSync(path)) return false
  rmSync(path, { force: true })
  // the folders install made for it, once empty (rmdir fails on a folder that is not)
  for (const folder of [dirname(path), dirname(dirname(path))]) {
    try {
      rmdirSync(folder)
    } catch {
      break
    }
  }
  return true
}

/** What a native client at `path` runs (compiled in), or `undefined` when it is not one. */
export const readClient = (path: string): ClientConfig | undefined => {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch {
    return undefined
  }
  const marker = Buffer.from("agent-hooks-native-client\n")
  const at = bytes.indexOf(marker)
  if (at === -1) return undefined
  const end = bytes.indexOf(0, at)
  const [node, bin, version] = bytes
    .subarray(at + marker.length, end === -1 ? undefined : end)
    .toString("utf8")
    .split("\n")
  return node !== undefined && bin !== undefined && version !== undefined ? { node, bin, version } : undefined
}
