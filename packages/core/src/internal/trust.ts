import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as Predicate from "effect/Predicate"
import { SettingsError } from "../HookError.ts"
import * as PosixPath from "./posixPath.ts"
import { split } from "./shellLexer.ts"

interface SubtleLike {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>
}
interface TextEncoderLike {
  encode(text: string): Uint8Array
}
const web = globalThis as unknown as { readonly crypto: { readonly subtle: SubtleLike }; readonly TextEncoder: new() => TextEncoderLike }

/** @internal */
export const fingerprint = (text: string): Effect.Effect<string> =>
  Effect.promise(() => web.crypto.subtle.digest("SHA-256", new web.TextEncoder().encode(text))).pipe(
    Effect.map((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""))
  )

/** @internal */
export const storePath = (env: Readonly<Record<string, string | undefined>>, path: Path.Path): string | undefined => {
  const home = env["AGENT_HOOKS_HOME"]
  if (home !== undefined && home !== "") return path.join(home, "trusted-settings.json")
  const user = env["HOME"]
  return user !== undefined && user !== "" ? path.join(user, ".agent-hooks", "trusted-settings.json") : undefined
}

const readStore = (store: string) =>
  Effect.gen(function*() {
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
      return yield* new SettingsError({ file: store, path: ["files"], detail: `expected an object mapping settings-file paths to fingerprints` })
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
): Effect.Effect<ReadonlyArray<{ readonly path: string; readonly fingerprint: string }>, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
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
    message: `AGENT_HOOKS_REQUIRE_TRUST=${JSON.stringify(value)} is not a yes or no; set it to 1, true, yes or on (any case) to require approval of project hooks, or 0, false, no, off or nothing`
  }
}

// ---------------------------------------------------------------------------------------------
// Fingerprints that cover the scripts and modules a settings file names
// ---------------------------------------------------------------------------------------------

const PROJECT_DIR_VARIABLE = /\$\{(?:CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR)\}|\$(?:CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR)(?![A-Za-z0-9_])/g
const SCRIPT = /\.(?:sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|ps1|lua)$/

/** A word of a command as a project file, or undefined when it names none. */
const projectFile = (word: string, projectDir: string): string | undefined => {
  const text = word.replace(PROJECT_DIR_VARIABLE, projectDir)
  if (/[$`]/.test(text) || text === "") return undefined
  if (!text.includes("/") && !SCRIPT.test(text)) return undefined
  const file = PosixPath.resolve(projectDir, text.replace(/^~(?=\/|$)/, "/nonexistent-home"))
  return file.startsWith(`${projectDir.replace(/\/+$/, "")}/`) ? file : undefined
}

/** @internal */
export const namedFiles = (document: unknown, settingsFile: string, projectDir: string): ReadonlyArray<string> => {
  const found = new Set<string>()
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
      return
    }
    if (!Predicate.isObject(value)) return
    const command = value["command"]
    const args = value["args"]
    if (value["type"] === "module" && typeof value["module"] === "string") {
      found.add(PosixPath.resolve(PosixPath.dirname(settingsFile), value["module"]))
    } else if (typeof command === "string") {
      const words = Array.isArray(args)
        ? [command, ...args.filter((arg): arg is string => typeof arg === "string")]
        : (split(command, "posix") ?? []).flatMap((c) => c.words.map((w) => w.text))
      for (const word of words) {
        const file = projectFile(word, projectDir)
        if (file !== undefined) found.add(file)
      }
    }
    for (const item of Object.values(value)) visit(item, depth + 1)
  }
  visit(document, 0)
  return [...found].sort()
}

const digestBytes = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(() => web.crypto.subtle.digest("SHA-256", bytes)).pipe(
    Effect.map((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""))
  )

/** @internal */
export const fingerprintFile = (file: string, text: string, projectDir: string): Effect.Effect<string, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    let document: unknown
    try {
      document = JSON.parse(text)
    } catch {
      return yield* fingerprint(text)
    }
    const named = namedFiles(document, file, projectDir)
    if (named.length === 0) return yield* fingerprint(text)
    const fs = yield* FileSystem.FileSystem
    const parts: Array<string> = [text]
    for (const script of named) {
      const bytes = yield* fs.readFile(script).pipe(Effect.catch(() => Effect.succeed(undefined)))
      parts.push(`${script}\u0000${bytes === undefined ? "absent" : yield* digestBytes(bytes)}`)
    }
    return yield* fingerprint(parts.join("\u0000\u0000"))
  })
