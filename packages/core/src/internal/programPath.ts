/**
 * Where a command hook's relative program path points: the root of the scope that declared it (the
 * project root for project, local and `--settings` files; the folder of the user's settings, the
 * agent-hooks home; the managed folder; a plugin's root), never the folder the payload's `cwd` names.
 * A hook's working folder is still the payload's `cwd`: only which file runs is settled here, so
 * that a guard written `./hooks/guard.sh` is the same guard from every folder the agent works in.
 */
import type { CommandHandler, HookEntry } from "../SettingsModel.ts"
import * as PosixPath from "./posixPath.ts"
import { leadingCommand, quote } from "./shellLexer.ts"

/** Programs that take a script to run as their first argument (`bash hooks/x.sh`, `python3 hooks/x.py`). */
const INTERPRETERS = new Set(["sh", "bash", "dash", "zsh", "ksh", "python", "python3", "node", "bun", "deno", "ruby", "perl", "php"])
/** An interpreter's argument is a script when it holds a `/` or ends as one (`check.py`), not a subcommand (`deno run`). */
const SCRIPT = /\.(?:sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|lua)$/

/**
 * The folder a relative program of this entry is resolved against.
 * @internal
 */
export const rootOf = (entry: Pick<HookEntry, "scope" | "source" | "pluginRoot">, projectDir: string): string => {
  switch (entry.scope) {
    case "user":
      // the folder that holds the user's settings: the agent-hooks home (~/.agent-hooks)
      return PosixPath.dirname(entry.source)
    case "managed": {
      // managed-settings.json and managed-settings.d/*.json: the managed folder
      const folder = PosixPath.dirname(entry.source)
      return folder.endsWith("/managed-settings.d") ? PosixPath.dirname(folder) : folder
    }
    case "plugin":
      return entry.pluginRoot ?? PosixPath.dirname(entry.source)
    default:
      // project, local, and the files given by --settings (which stand for the project's)
      return projectDir
  }
}

/** A relative path written plainly: no expansion, no option, no home folder. */
const relative = (text: string): boolean =>
  text !== "" && !text.startsWith("/") && !text.startsWith("-") && !text.startsWith("~") && !/[$`\\]/.test(text)

const programWord = (text: string): boolean => relative(text) && text.includes("/") && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)
const scriptWord = (text: string): boolean => relative(text) && (text.includes("/") || SCRIPT.test(text))
const interpreter = (program: string): boolean => INTERPRETERS.has(program.slice(program.lastIndexOf("/") + 1))

/** A path as one shell word: bare when it needs no quotes. */
const shellWord = (path: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(path) ? path : quote(path))

/**
 * The relative paths a command hook names that are resolved: its program (`./hooks/x.sh`), and the
 * script a known interpreter is given as its first argument (`bash hooks/x.sh`). In shell form only
 * the command the line starts with is read, and only words written without expansions, globs or
 * backslashes (`"$CLAUDE_PROJECT_DIR"/x.sh` is the project's file already; `cd sub && ./x.sh` is
 * left to the shell).
 * @internal
 */
export const relativeWords = (handler: CommandHandler): { readonly program?: string | undefined; readonly script?: string | undefined } => {
  if (handler.args !== undefined) {
    const first = handler.args[0]
    return {
      program: programWord(handler.command) ? handler.command : undefined,
      script: interpreter(handler.command) && first !== undefined && scriptWord(first) ? first : undefined
    }
  }
  if (handler.shell === "powershell") return {}
  const words = leadingWords(handler.command)
  return { program: words.program?.text, script: words.script?.text }
}

interface Located {
  readonly text: string
  readonly raw: string
  readonly at: number
}

/** The program and the interpreter's script of a shell command, where they stand in its text, when they are relative. */
const leadingWords = (command: string): { readonly program?: Located | undefined; readonly script?: Located | undefined } => {
  const words = leadingCommand(command, "posix")?.words
  const first = words?.[0]
  // only words written plainly: quotes are fine, expansions and globs are the shell's
  const plain = (raw: string) => !/[$`\\*?[\]{}~]/.test(raw)
  if (first === undefined || first.dynamic || !plain(first.raw)) return {}
  const at = command.length - command.trimStart().length
  const program = programWord(first.text) ? { text: first.text, raw: first.raw, at } : undefined
  const second = words?.[1]
  if (second === undefined || second.dynamic || !plain(second.raw) || !interpreter(first.text) || !scriptWord(second.text))
    return { program }
  const after = at + first.raw.length
  const gap = /^[ \t]+/.exec(command.slice(after))?.[0].length ?? 0
  if (gap === 0 || !command.startsWith(second.raw, after + gap)) return { program }
  return { program, script: { text: second.text, raw: second.raw, at: after + gap } }
}

/**
 * The handler as it runs: its relative program and interpreter's script made absolute against
 * `root` (the same object when there is none).
 * @internal
 */
export const resolveHandler = (handler: CommandHandler, root: string): CommandHandler => {
  if (handler.args !== undefined) {
    const { program, script } = relativeWords(handler)
    if (program === undefined && script === undefined) return handler
    return {
      ...handler,
      command: program === undefined ? handler.command : PosixPath.resolve(root, program),
      args: script === undefined ? handler.args : [PosixPath.resolve(root, script), ...handler.args.slice(1)]
    }
  }
  if (handler.shell === "powershell") return handler
  const { program, script } = leadingWords(handler.command)
  if (program === undefined && script === undefined) return handler
  let command = handler.command
  // the later word first, so that the earlier one's place stays right
  for (const word of [script, program]) {
    if (word === undefined) continue
    command = command.slice(0, word.at) + shellWord(PosixPath.resolve(root, word.text)) + command.slice(word.at + word.raw.length)
  }
  return { ...handler, command }
}

/**
 * The absolute path of the script an interpreter is given (`python3 hooks/x.py`), for `validate`'s
 * "does not exist"; `undefined` when there is none, or it is not written plainly.
 * @internal
 */
export const interpreterScript = (entry: HookEntry, projectDir: string): string | undefined => {
  if (entry.handler.type !== "command" || entry.invalid !== undefined) return undefined
  const script = relativeWords(entry.handler).script
  return script === undefined ? undefined : PosixPath.resolve(rootOf(entry, projectDir), script)
}
