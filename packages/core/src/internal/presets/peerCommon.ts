/**
 * Pieces shared by the presets of the agents whose hook files are flat per-event lists (Cursor,
 * Copilot CLI, VS Code) or carry per-OS commands (Codex's `commandWindows`, Copilot's `bash` /
 * `powershell`, VS Code's `windows` / `linux` / `osx`).
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetContext } from "../../PresetModel.ts"
import { decodeTranslated, formatPath, hooksObject, isRecord, nonEmpty } from "./common.ts"
import type { JsonPath } from "./common.ts"

/** The platform whose command is picked: `AGENT_HOOKS_PLATFORM` when set, else the one the engine runs on. */
export const platformOf = (context: Pick<PresetContext, "env">): string => {
  const forced = context.env["AGENT_HOOKS_PLATFORM"]
  if (nonEmpty(forced)) return forced
  const proc = (globalThis as { readonly process?: { readonly platform?: unknown } }).process
  return typeof proc?.platform === "string" ? proc.platform : "linux"
}

/** One per-OS variant of a command: the key it is written under and the platforms it is for. */
export interface CommandVariant {
  readonly key: string
  readonly platforms: ReadonlyArray<string> | "any"
  /** The canonical `shell` that runs it. */
  readonly shell?: "bash" | "powershell" | undefined
}

const UNIX = ["linux", "darwin", "freebsd", "openbsd", "sunos", "aix", "android"]

/** Codex: `commandWindows` (alias `command_windows`) on Windows, else `command`. */
export const CODEX_VARIANTS: ReadonlyArray<CommandVariant> = [
  { key: "commandWindows", platforms: ["win32"] },
  { key: "command_windows", platforms: ["win32"] },
  { key: "command", platforms: "any" }
]
/** Copilot CLI: `bash` off Windows, `powershell` on Windows, `command` anywhere. */
export const COPILOT_VARIANTS: ReadonlyArray<CommandVariant> = [
  { key: "bash", platforms: UNIX, shell: "bash" },
  { key: "powershell", platforms: ["win32"], shell: "powershell" },
  { key: "command", platforms: "any" }
]
/**
 * VS Code: `windows`, `linux`, `osx` override `command` on their platform (a Copilot file's `bash`/`powershell` as VS
 * Code converts them).
 */
export const VSCODE_VARIANTS: ReadonlyArray<CommandVariant> = [
  { key: "windows", platforms: ["win32"] },
  { key: "linux", platforms: ["linux", "freebsd", "openbsd", "sunos", "aix", "android"] },
  { key: "osx", platforms: ["darwin"] },
  { key: "bash", platforms: UNIX, shell: "bash" },
  { key: "powershell", platforms: ["win32"], shell: "powershell" },
  { key: "command", platforms: "any" }
]

/**
 * The command of a handler for this platform, the first variant that fits (the platform's own
 * before the generic `command`), and the handler without the variant keys. When the handler has
 * commands only for other platforms, there is none, and a warning names the file, the JSON path,
 * the platform and the keys that were there.
 */
export const pickCommand = (
  handler: Readonly<Record<string, unknown>>,
  variants: ReadonlyArray<CommandVariant>,
  platform: string,
  file: string,
  path: JsonPath,
  warnings: Array<string>
): {
  readonly rest: Record<string, unknown>
  readonly command?: string | undefined
  readonly shell?: "bash" | "powershell" | undefined
} => {
  const keys = new Set(variants.map((variant) => variant.key))
  const rest = Object.fromEntries(Object.entries(handler).filter(([key]) => !keys.has(key)))
  const present = variants.filter((variant) => handler[variant.key] !== undefined)
  for (const variant of present) {
    const value = handler[variant.key]
    if (typeof value !== "string" || value.trim() === "") {
      warnings.push(
        `${file} at ${formatPath([...path, variant.key])}: expected a command (a non-empty string), got ${JSON.stringify(value)}; ignored`
      )
    }
  }
  const fits = present.find(
    (variant) =>
      typeof handler[variant.key] === "string" &&
      (handler[variant.key] as string).trim() !== "" &&
      (variant.platforms === "any" || variant.platforms.includes(platform))
  )
  if (fits !== undefined) return { rest, command: handler[fits.key] as string, shell: fits.shell }
  if (present.length > 0) {
    warnings.push(
      `${file} at ${formatPath(path)}: no command for this platform (${platform}): the hook has only ${present
        .map((variant) => variant.key)
        .join(", ")}; add ${variants
        .filter((variant) => variant.platforms === "any" || variant.platforms.includes(platform))
        .map((variant) => `"${variant.key}"`)
        .join(" or ")}; skipped`
    )
  }
  return { rest }
}

/** Single-quoted for a POSIX shell (and PowerShell, where '' escapes a quote inside single quotes). */
const quoted = (text: string, powershell: boolean): string => `'${text.replace(/'/g, powershell ? "''" : `'\\''`)}'`

/**
 * A command written relative to a folder (Cursor: the `hooks.json` folder; Copilot: `cwd`) runs
 * from that folder: `cd '<folder>' && <command>`. An absolute command, or one that starts with a
 * placeholder or variable, is left as it is.
 */
export const inFolder = (command: string, folder: string, powershell = false): string =>
  /^\s*(?:\/|\$|~|[A-Za-z]:[\\/])/.test(command) ? command : `cd ${quoted(folder, powershell)} && ${command}`

/** A flat list entry (`{command, ...}`) as a canonical matcher group of one handler. */
export const group = (matcher: unknown, handler: Record<string, unknown>): Record<string, unknown> => ({
  ...(typeof matcher === "string" ? { matcher } : {}),
  hooks: [handler]
})

export { isRecord }

/** What a flat-list dialect says about one of its hook entries. */
export interface FlatOptions {
  /** The dialect's name, for messages ("Cursor"). */
  readonly dialect: string
  /** The event an entry's key names (an alias resolved), or undefined for a name it does not know. */
  readonly event: (name: string) => string | undefined
  /** The dialect's event names, for the warning about an unknown one. */
  readonly events: ReadonlyArray<string>
  /** One entry as a canonical handler and its matcher, or undefined when it is skipped (with a warning). */
  readonly handler: (
    entry: Record<string, unknown>,
    event: string,
    path: JsonPath,
    warnings: Array<string>
  ) => { readonly handler: Record<string, unknown>; readonly matcher?: unknown } | undefined
  /** An entry shaped as Claude Code's group (`{matcher, hooks: [...]}`) is read as one (VS Code reads both). */
  readonly groups?:
    | ((group: Record<string, unknown>, event: string, path: JsonPath, warnings: Array<string>) => Record<string, unknown>)
    | undefined
}

/**
 * A flat document (`{"hooks": {"event": [{...hook}]}}`) as a canonical one: one matcher group per
 * hook, each mapped back to the dialect's own JSON path. Unknown events and bad entries are
 * warnings naming the file and the path, ending in "skipped".
 */
export const translateFlat = (
  hooks: Record<string, unknown>,
  file: string,
  options: FlatOptions
): { readonly document: Record<string, unknown>; readonly paths: Map<string, string>; readonly warnings: Array<string> } => {
  const warnings: Array<string> = []
  const paths = new Map<string, string>()
  const out: Record<string, Array<unknown>> = {}
  for (const [name, list] of Object.entries(hooks)) {
    const event = options.event(name)
    if (event === undefined) {
      warnings.push(
        `${file} at ${formatPath(["hooks", name])}: unknown ${options.dialect} event "${name}"; ` +
          `expected one of ${options.events.join(", ")}; skipped`
      )
      continue
    }
    if (!Array.isArray(list)) {
      warnings.push(`${file} at ${formatPath(["hooks", name])}: expected an array of hooks, got ${JSON.stringify(list)}; skipped`)
      continue
    }
    list.forEach((entry: unknown, index) => {
      const path: JsonPath = ["hooks", name, index]
      if (!isRecord(entry)) {
        warnings.push(`${file} at ${formatPath(path)}: expected a hook object, got ${JSON.stringify(entry)}; skipped`)
        return
      }
      const groups = (out[event] ??= [])
      if (options.groups !== undefined && Array.isArray(entry["hooks"])) {
        paths.set(formatPath(["hooks", event, groups.length]), formatPath(path))
        groups.push(options.groups(entry, event, path, warnings))
        return
      }
      const made = options.handler(entry, event, path, warnings)
      if (made === undefined) return
      paths.set(formatPath(["hooks", event, groups.length]), formatPath(path))
      groups.push(group(made.matcher, made.handler))
    })
  }
  return { document: { hooks: out }, paths, warnings }
}

/** `version` of a v1 hooks file: 1 (or absent); another value is a warning, the file is read as v1. */
export const checkVersion = (document: Record<string, unknown>, file: string, dialect: string, warnings: Array<string>): void => {
  const version = document["version"]
  if (version !== undefined && version !== 1) {
    warnings.push(`${file} at version: ${dialect} hooks files are version 1, got ${JSON.stringify(version)}; read as version 1`)
  }
}

/**
 * A v1 flat hooks file (Cursor's, Copilot CLI's) decoded: its version checked, its entries
 * translated by `options`, then decoded as canonical settings under the file's own JSON paths.
 */
export const decodeFlat = (
  document: unknown,
  file: Parameters<Preset["decode"]>[1],
  events: ReadonlyArray<CustomEvent>,
  options: FlatOptions
) =>
  Effect.gen(function* () {
    const hooks = yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    checkVersion(document as Record<string, unknown>, file.path, options.dialect, warnings)
    const translated = translateFlat(hooks ?? {}, file.path, options)
    return yield* decodeTranslated(
      { document: translated.document, paths: translated.paths, warnings: [...warnings, ...translated.warnings] },
      file.path,
      file.scope,
      events,
      true
    )
  })
