import { Effect, FileSystem, Path, Predicate } from "effect"
import { SettingsError } from "../HookError.ts"

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
  files: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<{ readonly path: string; readonly fingerprint: string }>, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const current = { ...(yield* readStore(store)) }
    const recorded: Array<{ path: string; fingerprint: string }> = []
    for (const file of files) {
      const text = yield* fs.readFileString(file).pipe(Effect.catch(() => Effect.succeed(undefined)))
      if (text === undefined) continue
      const print = yield* fingerprint(text)
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
