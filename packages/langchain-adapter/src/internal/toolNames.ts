import type { ToolMapping, ToolResult } from "../HooksMiddleware.ts"

/** A mapping with every part filled in. */
export interface ResolvedTool {
  readonly name: string
  readonly toInput: (args: Record<string, unknown>) => Record<string, unknown>
  readonly fromInput: (toolInput: Record<string, unknown>) => Record<string, unknown>
  readonly toResponse: (result: ToolResult) => unknown
}

const same = (value: Record<string, unknown>) => value
const text = (result: ToolResult): unknown => result.text

const bash: ToolMapping = {
  name: "Bash",
  toResponse: (result) => ({ stdout: result.text, stderr: "", interrupted: false, isImage: false })
}
const write: ToolMapping = {
  name: "Write",
  toResponse: (result) => ({ filePath: result.toolInput["file_path"], success: true, message: result.text })
}
const edit: ToolMapping = {
  name: "Edit",
  toResponse: (result) => ({ filePath: result.toolInput["file_path"], success: true, message: result.text })
}
// deepagents' `task` tool takes `{ description, subagent_type }`; Claude Code's Agent takes
// `{ prompt, description, subagent_type }`, where `prompt` is the subagent's task.
const agent: ToolMapping = {
  name: "Agent",
  toInput: (args) => ({ prompt: args["description"], ...args }),
  fromInput: (input) => {
    const { prompt, ...rest } = input
    return typeof prompt === "string" && prompt !== input["description"] ? { ...rest, description: prompt } : rest
  },
  toResponse: (result) => ({ status: "completed", content: [{ type: "text", text: result.text }] })
}

/** @internal */
export const defaults: Readonly<Record<string, string | ToolMapping>> = {
  bash,
  shell: bash,
  execute: bash,
  terminal: bash,
  run_command: bash,
  read_file: "Read",
  write_file: write,
  edit_file: edit,
  glob: "Glob",
  grep: "Grep",
  ls: "LS",
  task: agent,
  write_todos: "TodoWrite",
  web_fetch: "WebFetch",
  fetch_url: "WebFetch",
  web_search: "WebSearch"
}

/** The name a mapping gives hooks. */
const targetOf = (entry: string | ToolMapping): string => (typeof entry === "string" ? entry : entry.name)

/**
 * Where the built-in mapping applies. `true`: everywhere; `false`: nowhere; `"preset"`: only where
 * the engine's settings use the name it maps to (`presetNames`; `undefined`: the engine does not
 * say, Claude Code's names, so everywhere).
 */
export type DefaultsUse = boolean | "preset"

/** @internal */
export const resolver = (
  custom: Readonly<Record<string, string | ToolMapping>> | undefined,
  useDefaults: DefaultsUse,
  presetNames: () => ReadonlyArray<string> | undefined = () => undefined,
  /** `false` while `presetNames` may still change (an engine not built yet): nothing is cached then. */
  settled: () => boolean = () => true
): ((langchainName: string) => ResolvedTool) => {
  const cache = new Map<string, ResolvedTool>()
  const resolve = (langchainName: string): ResolvedTool => {
    let entry = custom !== undefined && Object.hasOwn(custom, langchainName) ? custom[langchainName] : undefined
    if (entry === undefined && useDefaults !== false && Object.hasOwn(defaults, langchainName)) {
      const builtIn = defaults[langchainName]!
      const names = useDefaults === "preset" ? presetNames() : undefined
      // A preset written in its agent's own tool names (Wingman's `write_file`, pigo's `bash`) sees
      // the tool under its LangChain name: renamed, its own matchers would never match.
      if (names === undefined || names.includes(targetOf(builtIn))) entry = builtIn
    }
    const mapping: ToolMapping = entry === undefined ? { name: langchainName } : typeof entry === "string" ? { name: entry } : entry
    return {
      name: mapping.name,
      toInput: mapping.toInput ?? same,
      fromInput: mapping.fromInput ?? same,
      toResponse: mapping.toResponse ?? text
    }
  }
  return (langchainName) => {
    const cached = cache.get(langchainName)
    if (cached !== undefined) return cached
    const resolved = resolve(langchainName)
    if (settled()) cache.set(langchainName, resolved)
    return resolved
  }
}
