/**
 * The policy is the user's, not the environment's. A hook process inherits variables a project can
 * set (Claude Code's project `env` key, the `.env` Gemini CLI and Qwen Code read from the project),
 * so no such variable may choose which settings are read, weaken what they enforce, or run code in
 * the process that judges.
 *
 * - Host mode (`agent-hooks hook`): the variables of `LOCATION_VARIABLES` and `ENFORCEMENT_VARIABLES`
 *   are ignored, with a warning; the user's own folders come from the flags `install` writes into
 *   the agent's user config (`--home`, `--managed-dir`), honoured only as absolute folders the user
 *   (or root, for managed) owns that nobody else may write. `HOME` is honoured only as such a folder
 *   that is not inside the project's checkout, else the user's home from the password database is used.
 * - Other commands (`run`, `validate`, `list`, ...): a location variable is honoured only as an
 *   absolute path outside the project's checkout, owned as above; else it is ignored with a warning.
 * - `CODE_VARIABLES` run code in a process that starts (`NODE_OPTIONS=--require`, `LD_PRELOAD`,
 *   `BASH_ENV`, ...): the entry `install` writes clears them before Node starts (`hostConfig.clearingWords`), and
 *   host mode refuses to judge under them (the code already ran): a block with the reason.
 */
import { existsSync, statSync } from "node:fs"
import { userInfo } from "node:os"
import { isAbsolute, join, relative, resolve } from "node:path"

type Env = Readonly<Record<string, string | undefined>>

/** The variables that name where settings (and the trust store) are read: ignored in host mode. */
export const LOCATION_VARIABLES: ReadonlyArray<string> = [
  "AGENT_HOOKS_HOME",
  "AGENT_HOOKS_MANAGED_DIR",
  "CLAUDE_CONFIG_DIR",
  "CODEX_HOME",
  "COPILOT_HOME",
  "PIGO_HOME",
  "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
  "QWEN_CODE_SYSTEM_SETTINGS_PATH",
  "WINDSURF_SYSTEM_HOOKS_PATH"
]

/**
 * The variables that weaken what the settings enforce: ignored in host mode (its flags, or the
 * defaults, decide). `AGENT_HOOKS_FOREIGN` is read by host mode for its stricter values only
 * (`foreignModeOf`).
 */
export const ENFORCEMENT_VARIABLES: ReadonlyArray<string> = [
  // picks another operating system's command: one that does not exist here fails, and lets the call through
  "AGENT_HOOKS_PLATFORM",
  // a cap of 1 ends a Stop hook's block after one round
  "AGENT_HOOKS_STOP_HOOK_BLOCK_CAP",
  "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
  // a short timeout kills SessionEnd hooks (an audit's last record)
  "AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS",
  "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"
]

/**
 * The variables that run code in a process as it starts, before agent-hooks can look: Node's
 * options and module path (`--require`, `--import`) and compile cache, the dynamic loader's
 * (`LD_PRELOAD`, macOS's `DYLD_*`), Bun's and Deno's options and caches, and the file bash sources
 * before any command. The entry install writes clears them; host mode refuses to judge under them.
 */
export const CODE_VARIABLES: ReadonlyArray<string> = [
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_COMPILE_CACHE",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "DYLD_INSERT_LIBRARIES",
  "DYLD_LIBRARY_PATH",
  "DYLD_FRAMEWORK_PATH",
  "BUN_OPTIONS",
  "BUN_INSPECT",
  "BUN_INSPECT_CONNECT_TO",
  "DENO_DIR",
  "DENO_V8_FLAGS",
  "BASH_ENV"
]

/** The `CODE_VARIABLES` set (not empty) in `env`. */
export const codeVariablesIn = (env: Env): ReadonlyArray<string> =>
  CODE_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== "")

/**
 * Whether `path` lies below the project `projectDir` when that is a checkout (it holds a `.git`):
 * where a cloned repository's files are. The project folder itself is not (a user may run an agent
 * in a home folder kept in git).
 */
const insideCheckout = (path: string, projectDir: string | undefined): boolean =>
  projectDir !== undefined &&
  resolve(projectDir) !== path &&
  inside(path, resolve(projectDir)) &&
  existsSync(join(resolve(projectDir), ".git"))

/** Whether `path` is `dir` or inside it. */
const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/**
 * Why `path` cannot be the user's folder of settings (`undefined`: it can): not absolute, not a
 * folder, owned by another user than this one (or root, with `root`), or writable by anybody. A
 * folder that does not exist is a problem only with `mustExist`. Looser than
 * `privateFolder.folderProblem` (0700, for the daemon's socket and the compile cache): others may
 * read a settings folder, never write it.
 */
export const ownFolderProblem = (
  path: string,
  options: { readonly root?: boolean; readonly mustExist?: boolean } = {}
): string | undefined => {
  if (!isAbsolute(path)) return "not an absolute path"
  let stat: ReturnType<typeof statSync>
  try {
    stat = statSync(path)
  } catch {
    return options.mustExist === true ? "does not exist" : undefined
  }
  if (!stat.isDirectory()) return "not a folder"
  const uid = process.getuid?.()
  if (uid !== undefined && stat.uid !== uid && !(options.root === true && stat.uid === 0))
    return `owned by another user (uid ${stat.uid}${options.root === true ? ", neither you nor root" : ""})`
  if ((stat.mode & 0o002) !== 0) return "writable by anybody"
  return undefined
}

/** The user's home from the password database (not `HOME`); `undefined` where there is none. */
const passwdHome = (): string | undefined => {
  try {
    return userInfo().homedir || undefined
  } catch {
    return undefined
  }
}

const quote = (value: string): string => JSON.stringify(value)

/** What host mode's settings are read under: the environment, and the lines that say what was ignored. */
export interface UserEnvironment {
  readonly env: Record<string, string | undefined>
  readonly warnings: ReadonlyArray<string>
}

/**
 * The environment host mode reads its settings under (and its hooks inherit): `env` without the
 * variables a project could set to choose or weaken the policy (each one set is a warning, unless
 * it says what the flag says), `AGENT_HOOKS_HOME` and `AGENT_HOOKS_MANAGED_DIR` from `--home` and
 * `--managed-dir` (checked: an `error` when a flag names no folder the user owns), and `HOME` the
 * user's own: a folder of the user's that nobody else may write, not below `projectDir` when that
 * is a checkout (the project the agent names or one found upward; `undefined` when there is none),
 * else the home of the password database. `agent` names the agent for the fix in the warnings.
 */
export const hostEnvironment = (
  env: Env,
  flags: { readonly home: string | undefined; readonly managedDir: string | undefined },
  projectDir: string | undefined,
  agent: string
): UserEnvironment | { readonly error: string } => {
  for (const [flag, value, root] of [
    ["--home", flags.home, false],
    ["--managed-dir", flags.managedDir, true]
  ] as const) {
    if (value === undefined) continue
    const problem = ownFolderProblem(value, { root, mustExist: true })
    if (problem !== undefined)
      return {
        error: `${flag} ${quote(value)}: ${problem}; host mode reads the policy only from a folder you${root ? " (or root)" : ""} own that nobody else may write. Fix the folder, or run agent-hooks install --host ${agent} again with the right ${flag}`
      }
  }
  const out: Record<string, string | undefined> = { ...env }
  const warnings: Array<string> = []
  const given: Readonly<Record<string, string | undefined>> = {
    AGENT_HOOKS_HOME: flags.home,
    AGENT_HOOKS_MANAGED_DIR: flags.managedDir
  }
  for (const name of [...LOCATION_VARIABLES, ...ENFORCEMENT_VARIABLES]) {
    const value = out[name]
    delete out[name]
    if (value === undefined || value === "" || value === given[name]) continue
    const flag = name === "AGENT_HOOKS_HOME" ? "--home" : name === "AGENT_HOOKS_MANAGED_DIR" ? "--managed-dir" : undefined
    warnings.push(
      `${name}=${quote(value)} in the hook's environment is ignored in host mode: a project can set it (Claude Code's env key, an agent's .env)` +
        (flag === undefined
          ? ""
          : `; to move that folder, run agent-hooks install --host ${agent} ${flag} DIR (the flag in your agent's config is honoured)`)
    )
  }
  if (flags.home !== undefined) out["AGENT_HOOKS_HOME"] = flags.home
  if (flags.managedDir !== undefined) out["AGENT_HOOKS_MANAGED_DIR"] = flags.managedDir
  const home = env["HOME"]
  if (home !== undefined && home !== "") {
    const problem = ownFolderProblem(home) ?? (insideCheckout(resolve(home), projectDir) ? "inside the project's checkout" : undefined)
    if (problem !== undefined) {
      const own = passwdHome()
      if (own === undefined) delete out["HOME"]
      else out["HOME"] = own
      warnings.push(
        `HOME=${quote(home)} in the hook's environment is ${problem}: ignored in host mode (a project can set it); the user's settings are read from ${own === undefined ? "nowhere" : quote(own)}`
      )
    }
  }
  return { env: out, warnings }
}

/**
 * The environment other commands (`run`, `validate`, `list`, ...) read settings under: a location
 * variable is honoured only as an absolute path, not inside the checkout of the project
 * `projectDir`, to a folder (or a file's folder) the user (or root) owns that nobody else may
 * write, or one that does not exist yet; else it is left out, with a warning.
 */
export const runEnvironment = (env: Env, projectDir: string): UserEnvironment => {
  const out: Record<string, string | undefined> = { ...env }
  const warnings: Array<string> = []
  for (const name of LOCATION_VARIABLES) {
    const value = out[name]
    if (value === undefined || value === "") continue
    const problem = !isAbsolute(value)
      ? "not an absolute path"
      : insideCheckout(resolve(value), projectDir)
        ? "inside the project's checkout"
        : ownFolderProblem(value, { root: true })
    // a variable naming a file (a system settings path) is checked by its folder's owner when it is not a folder
    const fileProblem =
      problem === "not a folder" ? ownFolderProblem(resolve(value, ".."), { root: true }) : problem === undefined ? undefined : problem
    if (fileProblem === undefined) continue
    delete out[name]
    warnings.push(
      `${name}=${quote(value)} is ${fileProblem}: ignored (a project can set variables for a hook process); give an absolute folder of your own${name === "AGENT_HOOKS_MANAGED_DIR" ? ", or --managed-dir" : ""}`
    )
  }
  return { env: out, warnings }
}

/**
 * `AGENT_HOOKS_FOREIGN` as host mode reads it: `judge` and `block` (stricter than the default) are
 * honoured, `leave` (another agent's call goes unjudged) is not: a project can set it. The
 * environment to read the mode from, and the warning when it was left out.
 */
export const foreignEnvironment = (env: Env): { readonly env: Env; readonly warning?: string } => {
  const value = env["AGENT_HOOKS_FOREIGN"]
  if (value === undefined || value.trim().toLowerCase() !== "leave") return { env }
  const { AGENT_HOOKS_FOREIGN: _, ...rest } = env
  return {
    env: rest,
    warning: `AGENT_HOOKS_FOREIGN=${quote(value)} in the hook's environment is ignored in host mode: a project can set it, and leave lets another agent's call go unjudged; give --foreign leave in the agent's config to mean it`
  }
}

/**
 * `env` without `LOCATION_VARIABLES`: where host mode looks for the agents' own configs (another
 * agent's entry, `--foreign auto`), so that a project's `COPILOT_HOME` cannot show it an entry of its
 * own in a "user" folder.
 */
export const withoutLocationVariables = (env: Env): Env => {
  const out: Record<string, string | undefined> = { ...env }
  for (const name of LOCATION_VARIABLES) delete out[name]
  return out
}
