import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { launcherArgs } from "./detach.ts"
// Type-only edges to the public twin (it hands the `SpawnError` class in): no import cycle with a value edge.
import type { ProcessHandle, ProcessRequest, ProcessSpawner, SpawnError, SpawnErrorReason, SpawnPrimitive } from "../ProcessSpawner.ts"

/** The `SpawnError` constructor, given by the public module. @internal */
export type SpawnErrorClass = new (args: {
  readonly file: string
  readonly cause: unknown
  readonly detail: string
  readonly reason?: SpawnErrorReason
}) => SpawnError

/** The errno `code` of a runtime's error, if it has one. @internal */
export const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

const RESOURCE_CODES = new Set(["EMFILE", "ENFILE", "EAGAIN", "ENOMEM"])
// A runtime that gives no errno code says it in the message (Rust's `os error 24` for EMFILE).
const RESOURCE_MESSAGE = /\b(?:EMFILE|ENFILE|EAGAIN|ENOMEM)\b|too many open files|os error (?:11|12|23|24)\b/i

/**
 * A start the request's size refused: E2BIG (some runtimes give only its message, "Argument list
 * too long (os error 7)"), or the runtime's own limit hit while it prepared the arguments (Deno's
 * node:child_process scans a `sh -c` command with a regex that overflows the stack on a long one).
 */
const tooLarge = (code: string | undefined, cause: unknown): boolean =>
  code === "E2BIG" || cause instanceof RangeError || (cause instanceof Error && /Argument list too long|os error 7\b/.test(cause.message))

const reasonOf = (code: string | undefined, cwd: string | undefined, cause: unknown): SpawnErrorReason =>
  cwd !== undefined
    ? "cwd"
    : code === "ENOENT" || code === "EACCES" || code === "ENOEXEC"
      ? "not-found"
      : tooLarge(code, cause)
        ? "payload"
        : code !== undefined && RESOURCE_CODES.has(code)
          ? "resources"
          : "other"

/** The `SpawnError` of a failed start, worded the same on every runtime. @internal */
export const spawnErrorFrom = (
  SpawnError: SpawnErrorClass,
  request: ProcessRequest,
  cause: unknown,
  cwdProblem: (cwd: string) => string | undefined
): SpawnError => {
  const code = errorCode(cause)
  const message = (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!
  // An errno reads the same on every runtime: `spawn <file> <code>`.
  const base = code !== undefined && /^E[A-Z0-9]+$/.test(code) ? `spawn ${request.file} ${code}` : message
  // Runtimes report a missing cwd as ENOENT of the executable, which points at the wrong thing.
  const cwd = code === "ENOENT" || code === "ENOTDIR" ? cwdProblem(request.cwd) : undefined
  const reason = code === undefined && cwd === undefined && RESOURCE_MESSAGE.test(message) ? "resources" : reasonOf(code, cwd, cause)
  return new SpawnError({ file: request.file, cause, detail: cwd ? `${base} (${cwd})` : base, reason })
}

// NUL cannot be passed in argv or the environment (C strings end there): every runtime would throw.
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g
const strip = (text: string): string => (text.includes("\u0000") ? text.replace(NUL, "") : text)

const stripEnv = (env: Readonly<Record<string, string>>): Readonly<Record<string, string>> => {
  let clean: Record<string, string> | undefined
  for (const [name, value] of Object.entries(env)) {
    if (!name.includes("\u0000") && !value.includes("\u0000")) continue
    clean ??= { ...env }
    delete clean[name]
    const key = strip(name)
    if (key !== "") clean[key] = strip(value)
  }
  return clean ?? env
}

/** The request without NUL bytes (the same object when it had none, the common case). @internal */
export const withoutNul = (request: ProcessRequest): ProcessRequest => {
  const dirty = request.file.includes("\u0000") || request.cwd.includes("\u0000") || request.args.some((arg) => arg.includes("\u0000"))
  const env = stripEnv(request.env)
  if (!dirty && env === request.env) return request
  return { ...request, file: strip(request.file), cwd: strip(request.cwd), args: request.args.map(strip), env }
}

/** @internal */
export const make =
  (SpawnError: SpawnErrorClass) =>
  (primitive: SpawnPrimitive): ProcessSpawner["Service"] => {
    // NUL is looked for only after a failed start: the environment is often `process.env`, whose
    // every read is slow, and the runtime reads it once already.
    const start = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
      primitive.start(request).pipe(
        Effect.catch((cause) => {
          const clean = withoutNul(request)
          return clean === request ? Effect.fail(cause) : primitive.start(clean)
        }),
        Effect.mapError((cause) => spawnErrorFrom(SpawnError, request, cause, primitive.cwdProblem))
      )

    const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
      Effect.suspend(() => {
        if (request.detached !== undefined) {
          // The launcher is started in the request's place: the runtime starts it as any process.
          const launcher = launcherArgs({ ...request, detached: request.detached })
          if (launcher === undefined) {
            return Effect.fail(
              new SpawnError({
                file: request.file,
                cause: undefined,
                detail: "a value file's variable is not a plain name",
                reason: "other"
              })
            )
          }
          const { detached: _, ...rest } = request
          return spawnNow({ ...rest, ...launcher })
        }
        return spawnNow(request)
      })

    const spawnNow = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
      Effect.suspend(() => {
        const files = request.files
        if (files === undefined || files.length === 0) return start(request)
        const { files: _, ...rest } = request
        return Effect.acquireRelease(
          Effect.try({
            try: () => primitive.tempFiles.write(files.map((file) => file.content)),
            catch: (cause) =>
              new SpawnError({
                file: request.file,
                cause,
                detail: `could not write the payload files: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`,
                reason: "payload"
              })
          }),
          // After the process's own release (scopes close last-in, first-out): the hook has exited or been killed.
          (written) => Effect.sync(() => written.remove())
        ).pipe(
          Effect.flatMap((written) => {
            const env: Record<string, string> = { ...rest.env }
            files.forEach((file, i) => {
              env[strip(file.env)] = written.paths[i]!
            })
            return start({ ...rest, env })
          })
        )
      })

    return { capabilities: primitive.capabilities, spawn }
  }
