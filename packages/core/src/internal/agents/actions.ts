/**
 * Every tool call as what it does: the shared readers of the shapes agents give their tools (a
 * command as a string or an argv array, a list of files, a Codex patch, URLs in a prompt), each
 * giving actions in Claude Code's names (`Bash` with `command` as one string, `Read` / `Write` /
 * `Edit` with one `file_path`, `WebFetch` with one `url`). Each agent's folder says which of its
 * tools reads which way (`<agent>/tools.ts`); a tool no table names is one action, its `tools`
 * mapping (`common.ts`).
 */
import type { Action, ToolActions } from "../../HostModel.ts"
import { quote } from "../shellLexer.ts"

type Input = Readonly<Record<string, unknown>>
type Read = ReadonlyArray<Action> | { readonly refuse: string }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** What a delete or a move is, on a `Write` action: a policy's `Write` guard sees it, and can tell it. */
export const OPERATION = "agent_hooks_operation"

/** One word for a POSIX shell: as it is when it needs no quoting, else single-quoted (the lexer's `quote`). */
export const shellWord = (word: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : quote(word))

/**
 * A command as one string: a string as it is, an argv array (`["bash", "-lc", "rm -rf /"]`) joined
 * with a POSIX shell's quoting (`bash -lc 'rm -rf /'`), so that a policy reads the words the program
 * receives; `undefined` for anything else (an array with a word that is no string).
 */
export const commandText = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  // a word with NUL cannot reach a program (and no shell word holds one): not judged on a guess
  if (!Array.isArray(value) || value.length === 0 || !value.every((word) => typeof word === "string" && !word.includes("\0")))
    return undefined
  // the program word quoted where a shell would read it otherwise: a reserved word (`if`, `!`) or an
  // assignment (`FOO=bar rm` runs rm; the argv runs a program named `FOO=bar`)
  return (value as ReadonlyArray<string>)
    .map((word, index) => (index === 0 && (RESERVED.has(word) || word.includes("=")) ? quote(word) : shellWord(word)))
    .join(" ")
}

/** The reserved words of POSIX shells and bash, which a shell reads as syntax where a program name stands. */
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "function",
  "select",
  "time",
  "coproc",
  "!",
  "{",
  "}",
  "[[",
  "]]"
])

/** The input without `drop`'s fields. */
const without = (input: Input, drop: ReadonlyArray<string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([key]) => !drop.includes(key)))

/** A command that is no string and no argv array of strings: the call is not judged on a guess. */
const unreadableCommand = (tool: string, field: string) => ({
  refuse: `the ${tool} call's ${field} is neither a command string nor an argv array of strings: it cannot be judged`
})

/** The patch a command carries (`apply_patch` run through the shell), when it carries one. */
const PATCH_START = "*** Begin Patch"

/**
 * `Bash` with `command` as one string, from the agent's `field` (a string or an argv array); the
 * other fields stay. A command that runs Codex's `apply_patch` adds the patch's file actions.
 */
export const shell =
  (tool: string, field = "command") =>
  (input: Input): Read => {
    const value = input[field]
    if (value === undefined) return [{ tool_name: "Bash", tool_input: { ...input } }]
    const command = commandText(value)
    if (command === undefined) return unreadableCommand(tool, field)
    // the command in place of the agent's field, the other fields in their order
    const fields = Object.entries(input).filter(([key]) => key !== "command" || field === "command")
    const bash: Action = {
      tool_name: "Bash",
      tool_input: Object.fromEntries(fields.map(([key, value]) => (key === field ? ["command", command] : [key, value])))
    }
    return [bash, ...patchInCommand(value)]
  }

/** The file actions of a patch an argv or a command string carries (`apply_patch '*** Begin Patch…'`, a heredoc). */
const patchInCommand = (value: unknown): ReadonlyArray<Action> => {
  const texts = Array.isArray(value) ? value.filter((word): word is string => typeof word === "string") : [String(value)]
  const out: Array<Action> = []
  for (const text of texts) {
    const at = text.indexOf(PATCH_START)
    if (at === -1) continue
    const parsed = patchActions(text.slice(at))
    if (!("refuse" in parsed)) out.push(...parsed)
  }
  return out
}

/**
 * Codex's patch (`*** Begin Patch` … `*** End Patch`) as one action per file operation: `Add File`
 * a `Write` with its content, `Update File` an `Edit`, `Delete File` a `Write` with
 * `agent_hooks_operation: "delete"`, `Move to` a `Write` of the new path (`agent_hooks_operation:
 * "move"`, `agent_hooks_from`) besides the `Edit` of the old one. A patch with no file operation is
 * refused: what it would change cannot be told.
 */
export const patchActions = (text: string): Read => {
  const lines = text.split(/\r?\n/)
  const out: Array<Action> = []
  let adding: { path: string; content: Array<string> } | undefined
  let updating: string | undefined
  const flush = () => {
    if (adding !== undefined) out.push({ tool_name: "Write", tool_input: { file_path: adding.path, content: adding.content.join("\n") } })
    adding = undefined
  }
  for (const line of lines) {
    const op = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trim())
    if (op !== null) {
      flush()
      const path = op[2]!.trim()
      if (op[1] === "Add File") adding = { path, content: [] }
      else if (op[1] === "Update File") {
        updating = path
        out.push({ tool_name: "Edit", tool_input: { file_path: path } })
      } else if (op[1] === "Delete File")
        out.push({ tool_name: "Write", tool_input: { file_path: path, content: "", [OPERATION]: "delete" } })
      else out.push({ tool_name: "Write", tool_input: { file_path: path, [OPERATION]: "move", agent_hooks_from: updating ?? null } })
      continue
    }
    if (adding !== undefined && line.startsWith("+")) adding.content.push(line.slice(1))
  }
  flush()
  if (out.length === 0)
    return { refuse: "the patch names no file operation (*** Add File, Update File, Delete File): what it changes cannot be judged" }
  return out
}

/** Codex's `apply_patch`: the patch in `command`, `input` or `patch` (a string), or an argv whose words carry it. */
export const applyPatch = (input: Input): Read => {
  for (const field of ["command", "input", "patch"]) {
    const value = input[field]
    if (typeof value === "string") return patchActions(value.includes(PATCH_START) ? value.slice(value.indexOf(PATCH_START)) : value)
    if (Array.isArray(value)) {
      const found = patchInCommand(value)
      if (found.length > 0) return found
    }
  }
  return { refuse: "the apply_patch call carries no patch (command, input or patch): what it changes cannot be judged" }
}

/**
 * One action per file of a list: `tool` with `file_path` set to each path of `input[field]` (strings,
 * or objects whose `pathField` is one); the other fields of `extra(entry)` with it.
 */
export const perFile =
  (
    tool: string,
    field: string,
    options: {
      readonly pathFields?: ReadonlyArray<string>
      readonly extra?: (entry: Record<string, unknown>) => Record<string, unknown>
    } = {}
  ) =>
  (input: Input): Read => {
    const list = input[field]
    if (!Array.isArray(list)) return { refuse: `the call's ${field} is not a list of files: it cannot be judged` }
    const out: Array<Action> = []
    for (const entry of list) {
      if (typeof entry === "string") {
        out.push({ tool_name: tool, tool_input: { file_path: entry } })
        continue
      }
      const path = isObject(entry)
        ? (options.pathFields ?? ["path", "filePath", "file_path"]).map((name) => entry[name]).find((value) => typeof value === "string")
        : undefined
      if (path === undefined || !isObject(entry)) return { refuse: `an entry of the call's ${field} names no file: it cannot be judged` }
      out.push({ tool_name: tool, tool_input: { file_path: path, ...options.extra?.(entry) } })
    }
    return out.length === 0 ? [{ tool_name: tool, tool_input: { ...input } }] : out
  }

/** The http(s) URLs of a text (Gemini CLI's `web_fetch` takes them inside its `prompt`). */
export const urlsIn = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/\bhttps?:\/\/[^\s"'<>`)\]]+/gi)].map((match) => match[0]!.replace(/[.,;:!?]+$/, ""))

/** `WebFetch` per URL: `url`, each of `urls[]`, and the URLs inside `prompt`; at least one action. */
export const fetches = (input: Input): Read => {
  const urls = new Set<string>()
  if (typeof input["url"] === "string") urls.add(input["url"])
  if (Array.isArray(input["urls"])) for (const url of input["urls"]) if (typeof url === "string") urls.add(url)
  if (typeof input["prompt"] === "string") for (const url of urlsIn(input["prompt"])) urls.add(url)
  const rest = without(input, ["url", "urls"])
  if (urls.size === 0) return [{ tool_name: "WebFetch", tool_input: { ...input } }]
  return [...urls].map((url) => ({ tool_name: "WebFetch", tool_input: { ...rest, url } }))
}

/** A table of readers by the agent's tool name: each with the Claude Code tools its actions can be. */
export const table = (
  readers: Readonly<Record<string, readonly [gives: ReadonlyArray<string>, read: (input: Input) => Read]>>
): ReadonlyArray<ToolActions> => Object.entries(readers).map(([host, [gives, actions]]) => ({ host, gives, actions }))

/** What a shell command can be: a `Bash`, and the file actions of a patch it runs. */
export const SHELL = ["Bash", "Write", "Edit"] as const
/** What a patch can be. */
export const PATCH = ["Write", "Edit"] as const
