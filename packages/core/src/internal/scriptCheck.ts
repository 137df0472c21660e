/**
 * What `validate` can know about a command hook before anything runs: the script its first word
 * names (missing, or without the run bit: exit 126/127 only at run time otherwise), and settings
 * that look right but can never work (environment variables no engine sets, a tool matcher in the
 * wrong case).
 */
import type { HookEntry, PlanWarning } from "../SettingsModel.ts"
import * as PosixPath from "./posixPath.ts"
import { leadingCommand } from "./shellLexer.ts"
import { nearest } from "./text.ts"

/** What load found at a script path. @internal */
export type ScriptState = "ok" | "missing" | "not-executable" | "not-a-file"

/**
 * The first shell word of a command, unquoted by the one shell lexer (`ShellLexer`), expansions
 * kept as written; `undefined` when the command does not start with a plain word (a redirection or
 * `(` first, a command substitution in it) or does not lex.
 * @internal
 */
export const firstWord = (command: string): string | undefined => {
  const word = leadingCommand(command, "posix")?.words[0]
  return word === undefined || /`|\$\(/.test(word.raw) ? undefined : word.text
}

/**
 * The absolute path of the script a command hook's first word names, after the project and plugin
 * variables every engine sets; `undefined` for a word looked up on `PATH`, or one that depends on
 * anything else (placeholders, other variables, globs).
 * @internal
 */
export const scriptPath = (
  entry: HookEntry,
  projectDir: string,
  projectDirEnv: ReadonlyArray<string>,
  home: string | undefined
): string | undefined => {
  const handler = entry.handler
  if (handler.type !== "command") return undefined
  let word = handler.args !== undefined ? handler.command : firstWord(handler.command)
  if (word === undefined) return undefined
  for (const name of ["CLAUDE_PROJECT_DIR", "AGENT_HOOKS_PROJECT_DIR", ...projectDirEnv]) {
    word = word.replace(new RegExp(`^\\$\\{${name}\\}|^\\$${name}(?![A-Za-z0-9_])`), projectDir)
  }
  if (entry.pluginRoot !== undefined)
    word = word.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}|^\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/, entry.pluginRoot)
  if (home !== undefined && word.startsWith("~/")) word = PosixPath.join(home, word.slice(2))
  if (!word.includes("/") || /[$*?[\]{}~]/.test(word)) return undefined
  return PosixPath.resolve(projectDir, word)
}

/** Variables that hook scripts sometimes read but that no engine sets (the input comes on stdin). */
const UNSET_VARIABLES = [
  "CLAUDE_TOOL_INPUT",
  "CLAUDE_TOOL_NAME",
  "CLAUDE_TOOL_OUTPUT",
  "CLAUDE_FILE_PATHS",
  "CLAUDE_FILE_PATH",
  "CLAUDE_PROMPT"
]
const UNSET_REGEX = UNSET_VARIABLES.map((name) => [name, new RegExp(`\\$\\{?${name}(?![A-Za-z0-9_])`)] as const)
/** One pass for the common case (none of them): the per-name checks run only when this matches. */
const ANY_UNSET = new RegExp(`\\$\\{?(?:${UNSET_VARIABLES.join("|")})(?![A-Za-z0-9_])`)

/** Tool names of Claude Code's built-in tools, for matchers written in the wrong case (and a preset's default `toolNames`). */
export const TOOL_NAMES: ReadonlyArray<string> = [
  "Bash",
  "Edit",
  "MultiEdit",
  "Write",
  "Read",
  "Glob",
  "Grep",
  "LS",
  "Task",
  "Agent",
  "WebFetch",
  "WebSearch",
  "NotebookEdit",
  "NotebookRead",
  "TodoWrite",
  "ExitPlanMode",
  "KillShell",
  "BashOutput",
  "Skill",
  "SlashCommand"
]
const lowerCase = new WeakMap<ReadonlyArray<string>, ReadonlySet<string>>()
const lowerOf = (names: ReadonlyArray<string>): ReadonlySet<string> => {
  let set = lowerCase.get(names)
  if (set === undefined) lowerCase.set(names, (set = new Set(names.map((name) => name.toLowerCase()))))
  return set
}

/** Words a shell runs itself (builtins and keywords): they are not looked up on PATH. */
const SHELL_WORDS = new Set([
  ".",
  ":",
  "[",
  "[[",
  "alias",
  "bg",
  "break",
  "builtin",
  "case",
  "cd",
  "command",
  "continue",
  "declare",
  "do",
  "done",
  "echo",
  "elif",
  "else",
  "esac",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fg",
  "fi",
  "for",
  "function",
  "getopts",
  "hash",
  "if",
  "in",
  "jobs",
  "kill",
  "let",
  "local",
  "printf",
  "pwd",
  "read",
  "readonly",
  "return",
  "select",
  "set",
  "shift",
  "source",
  "test",
  "then",
  "time",
  "times",
  "trap",
  "true",
  "type",
  "typeset",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "until",
  "wait",
  "while",
  "!",
  "{",
  "}"
])

/**
 * The program a command hook has looked up on PATH (a bare name: exec form's `command`, or the first
 * word of a shell command that is no builtin); `undefined` when there is none or it cannot be told
 * before run time (a path, a variable, a PowerShell command, a hook with its own PATH).
 * @internal
 */
export const bareProgram = (entry: HookEntry): string | undefined => {
  const handler = entry.handler
  if (handler.type !== "command" || entry.invalid !== undefined || handler.env?.["PATH"] !== undefined) return undefined
  if (handler.args === undefined && handler.shell === "powershell") return undefined
  const word = handler.args !== undefined ? handler.command : firstWord(handler.command)
  if (word === undefined || word === "" || /[/$`*?[\]{}~=\\]/.test(word) || SHELL_WORDS.has(word)) return undefined
  return word
}

/** Why the script a command hook names cannot run, from what load found at its path. @internal */
export const scriptProblem = (script: string, state: ScriptState | undefined): string | undefined =>
  state === "missing"
    ? `${script} does not exist: the hook would fail with exit 127 and guard nothing`
    : state === "not-executable"
      ? `${script} is not executable: the hook would fail with exit 126 and guard nothing; run: chmod +x ${script}`
      : state === "not-a-file"
        ? `${script} is not a file`
        : undefined

/**
 * The warnings of one planned hook: what looks right but never works (variables no engine sets,
 * a tool matcher in the wrong case). A script that cannot run is plan.ts's `neverRuns`.
 * @internal
 */
export const check = (
  entry: HookEntry,
  file: string | undefined,
  toolEvent: boolean,
  // the agent's built-in tool names (the preset's; Claude Code's by default)
  toolNames: ReadonlyArray<string> = TOOL_NAMES
): ReadonlyArray<PlanWarning> => {
  const out: Array<PlanWarning> = []
  const handler = entry.handler
  if (handler.type === "command") {
    const text = [handler.command, ...(handler.args ?? []), ...Object.values(handler.env ?? {})].join("\n")
    for (const [name, regex] of ANY_UNSET.test(text) ? UNSET_REGEX : []) {
      if (regex.test(text)) {
        out.push({
          file,
          path: `${entry.path}.command`,
          message: `$${name} is set by no engine: the hook reads the event as JSON on stdin (for example: jq -r '.tool_input')`
        })
      }
    }
  }
  const source = entry.matcher.source
  if (toolEvent && entry.matcher.kind === "exact" && source !== undefined) {
    for (const name of source.split("|").map((part) => part.trim())) {
      // only a built-in tool's name in another case can warn: the edit distance is not needed for the rest
      if (name === "" || toolNames.includes(name) || name.startsWith("mcp__") || !lowerOf(toolNames).has(name.toLowerCase())) continue
      const near = nearest(name, toolNames)
      if (near !== undefined && near.toLowerCase() === name.toLowerCase()) {
        out.push({
          file,
          path: `${entry.path.replace(/\.hooks\[\d+\]$/, "")}.matcher`,
          message: `"${name}" never matches ${near}: tool names are case-sensitive`
        })
      }
    }
  }
  return out
}
