import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as Predicate from "effect/Predicate"
import { SettingsError } from "../HookError.ts"
import { handlerTypeOf } from "./handlerTypes.ts"
import * as PosixPath from "./posixPath.ts"
import { parse as parseToml } from "smol-toml"
import { sha256Hex } from "./sha256.ts"
import { quote, split } from "./shellLexer.ts"

/** @internal */
export const fingerprint = (text: string): Effect.Effect<string> => sha256Hex(text)

/** @internal */
export const storePath = (env: Readonly<Record<string, string | undefined>>, path: Path.Path): string | undefined => {
  const home = env["AGENT_HOOKS_HOME"]
  if (home !== undefined && home !== "") return path.join(home, "trusted-settings.json")
  const user = env["HOME"]
  return user !== undefined && user !== "" ? path.join(user, ".agent-hooks", "trusted-settings.json") : undefined
}

const readStore = (store: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(store).pipe(
      Effect.map((text): string | undefined => text),
      Effect.catch((error) =>
        error.reason._tag === "NotFound"
          ? Effect.succeed(undefined)
          : Effect.fail(new SettingsError({ file: store, path: [], detail: `cannot read the approvals (${error.message})` }))
      )
    )
    if (text === undefined) return {}
    const document = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new SettingsError({ file: store, path: [], detail: "not valid JSON; fix or delete the file, then approve again" })
    })
    const files = Predicate.isObject(document) ? document["files"] : undefined
    if (!Predicate.isObject(files)) {
      return yield* new SettingsError({
        file: store,
        path: ["files"],
        detail: `expected an object mapping settings-file paths to fingerprints`
      })
    }
    const out: Record<string, string> = {}
    for (const [file, value] of Object.entries(files)) if (typeof value === "string") out[file] = value
    return out
  })

/** @internal */
export const approved = (store: string): Effect.Effect<ReadonlyMap<string, string>, SettingsError, FileSystem.FileSystem> =>
  Effect.map(readStore(store), (files) => new Map(Object.entries(files)))

/** @internal */
export const approve = (
  store: string,
  files: ReadonlyArray<string>,
  projectDir?: string
): Effect.Effect<
  ReadonlyArray<{ readonly path: string; readonly fingerprint: string }>,
  SettingsError,
  FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const current = { ...(yield* readStore(store)) }
    const recorded: Array<{ path: string; fingerprint: string }> = []
    for (const file of files) {
      const text = yield* fs.readFileString(file).pipe(Effect.catch(() => Effect.succeed(undefined)))
      if (text === undefined) continue
      const print = projectDir === undefined ? yield* fingerprint(text) : yield* fingerprintFile(file, text, projectDir)
      current[file] = print
      recorded.push({ path: file, fingerprint: print })
    }
    const write = fs.makeDirectory(path.dirname(store), { recursive: true }).pipe(
      Effect.andThen(fs.writeFileString(store, `${JSON.stringify({ version: 1, files: current }, null, 2)}\n`)),
      Effect.mapError((error) => new SettingsError({ file: store, path: [], detail: `cannot write the approvals (${error.message})` }))
    )
    yield* write
    return recorded
  })

// ---------------------------------------------------------------------------------------------
// The environment switch
// ---------------------------------------------------------------------------------------------

const TRUE_WORDS = new Set(["1", "true", "yes", "on"])
const FALSE_WORDS = new Set(["", "0", "false", "no", "off"])

/** @internal */
export const requireTrustFromEnv = (
  value: string | undefined
): { readonly _tag: "Success"; readonly value: boolean } | { readonly _tag: "Failure"; readonly message: string } => {
  if (value === undefined) return { _tag: "Success", value: false }
  const word = value.trim().toLowerCase()
  if (TRUE_WORDS.has(word)) return { _tag: "Success", value: true }
  if (FALSE_WORDS.has(word)) return { _tag: "Success", value: false }
  return {
    _tag: "Failure",
    message:
      `AGENT_HOOKS_REQUIRE_TRUST=${JSON.stringify(value)} is not a yes or no; set it to 1, true, ` +
      `yes or on (any case) to require approval of project hooks, or 0, false, no, off or nothing`
  }
}

// ---------------------------------------------------------------------------------------------
// Fingerprints that cover the scripts and modules a settings file names
// ---------------------------------------------------------------------------------------------

const PROJECT_DIR_VARIABLE =
  /\$\{(?:CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR)\}|\$(?:CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR)(?![A-Za-z0-9_])/g
const SCRIPT = /\.(?:sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|ps1|lua)$/

/** A word of a command as a project file, or undefined when it names none. */
const projectFile = (word: string, projectDir: string): string | undefined => {
  const text = word.replace(PROJECT_DIR_VARIABLE, projectDir)
  if (/[$`]/.test(text) || text === "") return undefined
  if (!text.includes("/") && !SCRIPT.test(text)) return undefined
  const file = PosixPath.resolve(projectDir, text.replace(/^~(?=\/|$)/, "/nonexistent-home"))
  return file.startsWith(`${projectDir.replace(/\/+$/, "")}/`) ? file : undefined
}

/**
 * The keys that hold a command line in some dialect's settings: Claude Code's `command`, Codex's
 * `commandWindows`, Copilot CLI's `bash`/`powershell`, VS Code's `windows`/`linux`/`osx`. A script
 * any of them names is covered by the approval, whichever the platform picks.
 */
const COMMAND_KEYS = ["command", "commandWindows", "bash", "powershell", "windows", "linux", "osx"] as const

/** @internal */
export const namedFiles = (document: unknown, settingsFile: string, projectDir: string): ReadonlyArray<string> => {
  // Some dialects run a relative command from the settings file's folder (Cursor's hooks.json):
  // a relative word names the file beside the settings too, when that folder is in the project.
  const folder = PosixPath.dirname(settingsFile)
  const inProject = folder.startsWith(`${projectDir.replace(/\/+$/, "")}/`)
  const found = new Set<string>()
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    if (!Predicate.isObject(value)) return
    const args = value["args"]
    const files = handlerTypeOf(value["type"])?.files
    if (files !== undefined) {
      // The files a handler type names (a module, a cedar hook's policies, entities and schema) are
      // approved with the settings, like a script.
      for (const key of Object.keys(files)) {
        const file = value[key]
        if (typeof file === "string") found.add(PosixPath.resolve(PosixPath.dirname(settingsFile), file))
      }
    } else {
      for (const key of COMMAND_KEYS) {
        const line = value[key]
        if (typeof line !== "string") continue
        const words =
          key === "command" && Array.isArray(args)
            ? [line, ...args.filter((arg): arg is string => typeof arg === "string")]
            : (split(line, "posix") ?? []).flatMap((c) => c.words.map((w) => w.text))
        for (const word of words) {
          const file = projectFile(word, projectDir)
          if (file !== undefined) found.add(file)
          const beside = inProject && word.startsWith("./") ? projectFile(PosixPath.resolve(folder, word), projectDir) : undefined
          if (beside !== undefined) found.add(beside)
        }
      }
    }
    for (const item of Object.values(value)) visit(item, depth + 1)
  }
  visit(document, 0)
  return [...found].sort()
}

const digestBytes = (bytes: Uint8Array): Effect.Effect<string> => sha256Hex(bytes)

/** A named project file as it was read for a fingerprint: its bytes, once (`undefined`: it could not be read). */
export interface NamedFile {
  readonly path: string
  readonly bytes: Uint8Array | undefined
  readonly digest: string | undefined
}

/**
 * The fingerprint of a settings file with the bytes of each named project file it was computed
 * from: what runs, when the file is approved, is exactly these bytes (see {@link pinHandler}).
 *
 * @internal
 */
export const snapshotFile = (
  file: string,
  text: string,
  projectDir: string
): Effect.Effect<{ readonly print: string; readonly named: ReadonlyArray<NamedFile> }, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    let document: unknown
    try {
      // Codex's config.toml holds hooks too: its named scripts are approved with it, as a JSON file's.
      document = file.endsWith(".toml") ? parseToml(text) : JSON.parse(text)
    } catch {
      return { print: yield* fingerprint(text), named: [] }
    }
    const paths = namedFiles(document, file, projectDir)
    if (paths.length === 0) return { print: yield* fingerprint(text), named: [] }
    const fs = yield* FileSystem.FileSystem
    const parts: Array<string> = [text]
    const named: Array<NamedFile> = []
    for (const script of paths) {
      const bytes = yield* fs.readFile(script).pipe(Effect.catch(() => Effect.succeed(undefined)))
      const digest = bytes === undefined ? undefined : yield* digestBytes(bytes)
      named.push({ path: script, bytes, digest })
      parts.push(`${script}\u0000${digest ?? "absent"}`)
    }
    return { print: yield* fingerprint(parts.join("\u0000\u0000")), named }
  })

/** @internal */
export const fingerprintFile = (file: string, text: string, projectDir: string): Effect.Effect<string, never, FileSystem.FileSystem> =>
  Effect.map(snapshotFile(file, text, projectDir), (snapshot) => snapshot.print)

// ---------------------------------------------------------------------------------------------
// What runs is what was approved
// ---------------------------------------------------------------------------------------------

/**
 * Writes each named file that was read into the pinned store, `<store folder>/pinned/<sha256>/<name>`
 * (mode 0700 when the original could be executed, else 0600; folders 0700), and returns the copy
 * of each by original path. A copy already there is used only if its bytes still hash to its
 * folder's name. A file that could not be read (a folder, a missing file) gets no copy.
 *
 * @internal
 */
export const pinFiles = (
  store: string,
  named: ReadonlyArray<NamedFile>
): Effect.Effect<ReadonlyMap<string, string>, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const root = path.join(path.dirname(store), "pinned")
    const pins = new Map<string, string>()
    const failed = (what: string) => (error: { readonly message: string }) =>
      new SettingsError({
        file: store,
        path: [],
        detail: `cannot keep the approved copy of ${what} (${error.message}); its hooks are held back`
      })
    for (const file of named) {
      if (file.bytes === undefined || file.digest === undefined) continue
      const folder = path.join(root, file.digest)
      const copy = path.join(folder, path.basename(file.path))
      const info = yield* fs.stat(file.path).pipe(Effect.catch(() => Effect.succeed(undefined)))
      const mode = info !== undefined && (info.mode & 0o111) !== 0 ? 0o700 : 0o600
      const existing = yield* fs.readFile(copy).pipe(Effect.catch(() => Effect.succeed(undefined)))
      const intact = existing !== undefined && (yield* digestBytes(existing)) === file.digest
      if (!intact) {
        yield* fs.makeDirectory(folder, { recursive: true, mode: 0o700 }).pipe(Effect.mapError(failed(file.path)))
        // Written aside, then renamed: a copy is never seen half written.
        const aside = path.join(folder, `.${path.basename(file.path)}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`)
        yield* fs.writeFile(aside, file.bytes, { mode }).pipe(Effect.mapError(failed(file.path)))
        yield* fs.rename(aside, copy).pipe(Effect.mapError(failed(file.path)))
      }
      yield* fs.chmod(copy, mode).pipe(Effect.catch(() => Effect.void))
      pins.set(file.path, copy)
    }
    return pins
  })

/** Characters around a shell word: the start or end, blanks, operators, parentheses, backticks. */
const WORD_EDGE = /[\s;&|()<>`]/

/** `text` with every whole-word `raw` replaced by `by`. */
const replaceWord = (text: string, raw: string, by: string): string => {
  let out = ""
  let from = 0
  for (let at = text.indexOf(raw); at >= 0; at = text.indexOf(raw, at + raw.length)) {
    const before = at === 0 ? " " : text[at - 1]!
    const after = at + raw.length >= text.length ? " " : text[at + raw.length]!
    if (!WORD_EDGE.test(before) || !WORD_EDGE.test(after)) continue
    out += text.slice(from, at) + by
    from = at + raw.length
  }
  return out + text.slice(from)
}

/** The project files the words of a shell command name. */
const shellNamed = (command: string, projectDir: string): Array<{ readonly raw: string; readonly file: string }> =>
  (split(command, "posix") ?? []).flatMap((c) =>
    c.words.flatMap((w) => {
      const file = projectFile(w.text, projectDir)
      return file === undefined ? [] : [{ raw: w.raw, file }]
    })
  )

/**
 * The handler as it must run for its approval to hold: every word that names a pinned project file
 * (a command's words, an exec form's `command` and `args`, a module's path) now names the file's
 * approved copy, so a script swapped after the check (by a rename, a checkout) is not what runs.
 * `undefined` when a word still names a pinned file after the rewrite (a PowerShell command, a
 * word written so that it cannot be replaced whole): the hook must be held back.
 *
 * @internal
 */
export const pinHandler = <H extends { readonly type: string }>(
  handler: H,
  pins: ReadonlyMap<string, string>,
  projectDir: string
): H | undefined => {
  if (pins.size === 0) return handler
  const h = handler as H & { readonly command?: unknown; readonly args?: unknown; readonly shell?: unknown }
  const files = handlerTypeOf(h.type)?.files
  if (files !== undefined) {
    // each file the handler type names, by its resolved path, runs from its approved copy
    const fields = handler as H & Readonly<Record<string, unknown>>
    const pinned: Record<string, unknown> = {}
    for (const resolved of Object.values(files)) {
      const file = fields[resolved]
      if (typeof file === "string" && pins.has(file)) pinned[resolved] = pins.get(file)
    }
    return Object.keys(pinned).length === 0 ? handler : { ...handler, ...pinned }
  }
  if (h.type !== "command" || typeof h.command !== "string") return handler
  if (Array.isArray(h.args)) {
    const swap = (word: string) => {
      const file = projectFile(word, projectDir)
      return file === undefined ? word : (pins.get(file) ?? word)
    }
    return { ...handler, command: swap(h.command), args: h.args.map((arg) => (typeof arg === "string" ? swap(arg) : arg)) }
  }
  const named = shellNamed(h.command, projectDir).filter((word) => pins.has(word.file))
  if (named.length === 0) return handler
  if (h.shell === "powershell") return undefined
  let command = h.command
  for (const word of named) command = replaceWord(command, word.raw, quote(pins.get(word.file)!))
  if (shellNamed(command, projectDir).some((word) => pins.has(word.file))) return undefined
  return { ...handler, command }
}
