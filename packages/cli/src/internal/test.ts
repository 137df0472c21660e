import type * as Outcome from "@agent-hooks/core/Outcome"
import type { Preset } from "@agent-hooks/core/Preset"
import * as Debug from "./debug.ts"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { Failed } from "../ExitCode.ts"
import { withEngine } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"

/** Options of `agent-hooks test`. */
export interface TestOptions extends SettingsOptions {
  readonly files: ReadonlyArray<string>
  readonly preset: Preset
  readonly json: boolean
}

/** What a case expects of the Outcome; every field given must hold. */
interface Expected {
  readonly blocked?: boolean
  readonly decision?: string | null
  /** A substring of the Outcome's reason. */
  readonly reason?: string
  /** A substring of the additional context given to the model. */
  readonly additionalContext?: string
}

interface Case {
  readonly file: string
  readonly name: string
  readonly event: string
  readonly payload: unknown
  readonly expect: Expected
}

const EXPECT_KEYS = ["blocked", "decision", "reason", "additionalContext"]

const describe = (value: unknown): string => (value === undefined ? "nothing" : JSON.stringify(value))

const bad = (file: string, path: string, expected: string, got: unknown): Failed =>
  new Failed({
    message: `${file} at ${path}: expected ${expected}, got ${describe(got)} (a fixture file is a list of {"name", "event", "payload", "expect": {"blocked", "decision", "reason", "additionalContext"}})`
  })

/** Reads one fixture file: a JSON array of cases (or `{"cases": [...]}`), each located on error. */
const readCases = (file: string): Effect.Effect<ReadonlyArray<Case>, Failed> =>
  Effect.gen(function* () {
    const text = yield* Effect.try({
      try: () => readFileSync(file, "utf8"),
      catch: (error) => new Failed({ message: `${file}: cannot read it (${error instanceof Error ? error.message : String(error)})` })
    })
    const document = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new Failed({ message: `${file}: not JSON (${error instanceof Error ? error.message : String(error)})` })
    })
    const list = Array.isArray(document)
      ? document
      : typeof document === "object" && document !== null && Array.isArray((document as { cases?: unknown }).cases)
        ? (document as { cases: Array<unknown> }).cases
        : undefined
    if (list === undefined) return yield* bad(file, "$", "an array of cases", document)
    const cases: Array<Case> = []
    for (const [index, item] of list.entries()) {
      const at = Array.isArray(document) ? `[${index}]` : `cases[${index}]`
      if (typeof item !== "object" || item === null || Array.isArray(item)) return yield* bad(file, at, "a case object", item)
      const c = item as Record<string, unknown>
      if (typeof c["event"] !== "string" || c["event"] === "") return yield* bad(file, `${at}.event`, "an event name (string)", c["event"])
      const payload = c["payload"] ?? {}
      if (typeof payload !== "object" || payload === null || Array.isArray(payload))
        return yield* bad(file, `${at}.payload`, "a JSON object", payload)
      const expected = c["expect"]
      if (typeof expected !== "object" || expected === null || Array.isArray(expected))
        return yield* bad(file, `${at}.expect`, "an object", expected)
      const e = expected as Record<string, unknown>
      const unknownKey = Object.keys(e).find((key) => !EXPECT_KEYS.includes(key))
      if (unknownKey !== undefined) return yield* bad(file, `${at}.expect.${unknownKey}`, `one of ${EXPECT_KEYS.join(", ")}`, unknownKey)
      if (Object.keys(e).length === 0) return yield* bad(file, `${at}.expect`, "at least one expected field", e)
      if (e["blocked"] !== undefined && typeof e["blocked"] !== "boolean")
        return yield* bad(file, `${at}.expect.blocked`, "true or false", e["blocked"])
      if (e["decision"] !== undefined && e["decision"] !== null && typeof e["decision"] !== "string")
        return yield* bad(file, `${at}.expect.decision`, "a string or null", e["decision"])
      for (const key of ["reason", "additionalContext"]) {
        if (e[key] !== undefined && typeof e[key] !== "string")
          return yield* bad(file, `${at}.expect.${key}`, "a substring (string)", e[key])
      }
      const name = typeof c["name"] === "string" && c["name"] !== "" ? c["name"] : `${c["event"]} #${index + 1}`
      cases.push({ file, name, event: c["event"], payload, expect: e as Expected })
    }
    return cases
  })

/** Why the Outcome does not meet the case's expectations; empty when it does. */
const check = (expected: Expected, outcome: Outcome.Outcome): ReadonlyArray<string> => {
  const failures: Array<string> = []
  if (expected.blocked !== undefined && outcome.blocked !== expected.blocked) {
    failures.push(`expected blocked ${expected.blocked}, got ${outcome.blocked}${outcome.reason ? ` (reason: ${outcome.reason})` : ""}`)
  }
  if (expected.decision !== undefined && (outcome.decision ?? null) !== expected.decision) {
    failures.push(`expected decision ${describe(expected.decision)}, got ${describe(outcome.decision ?? null)}`)
  }
  if (expected.reason !== undefined && !(outcome.reason ?? "").includes(expected.reason)) {
    failures.push(`expected a reason containing ${describe(expected.reason)}, got ${describe(outcome.reason ?? null)}`)
  }
  if (expected.additionalContext !== undefined && !outcome.additionalContext.join("\n").includes(expected.additionalContext)) {
    failures.push(
      `expected additional context containing ${describe(expected.additionalContext)}, got ${describe(outcome.additionalContext)}`
    )
  }
  return failures
}

/**
 * `agent-hooks test FILE...`: runs each fixture case against the real hooks of the settings and
 * reports like a test runner; exit 1 when a case fails.
 *
 * @internal
 */
export const test = (options: TestOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    if (options.files.length === 0) return yield* new Failed({ message: "test: name at least one fixture file" })
    const cases: Array<Case> = []
    for (const file of options.files) cases.push(...(yield* readCases(file)))
    const level = yield* Debug.verbosity
    const results = yield* withEngine(
      options,
      (warning) => process.stderr.write(`agent-hooks: warning: ${warning}\n`),
      (engine) =>
        Effect.forEach(cases, (c) =>
          Effect.suspend(() => {
            if (level.debug) Debug.matched(engine.plan, c.event, c.payload)
            return engine.dispatch(c.event, c.payload)
          }).pipe(
            Effect.tap((outcome) => Effect.sync(() => level.debug && Debug.results(outcome))),
            Effect.map((outcome) => ({ case: c, failures: check(c.expect, outcome), outcome })),
            Effect.catch((error: { readonly message: string }) =>
              Effect.succeed({ case: c, failures: [`the engine failed: ${error.message}`], outcome: undefined })
            )
          )
        )
    )
    const failed = results.filter((result) => result.failures.length > 0).length
    const passed = results.length - failed
    if (options.json) {
      yield* Console.log(
        JSON.stringify({
          passed,
          failed,
          cases: results.map((result) => ({
            file: result.case.file,
            name: result.case.name,
            event: result.case.event,
            passed: result.failures.length === 0,
            failures: result.failures,
            outcome: result.outcome ?? null
          }))
        })
      )
    } else {
      for (const result of results) {
        const ok = result.failures.length === 0
        yield* Console.log(
          `${ok ? "ok  " : "FAIL"} ${result.case.file} › ${result.case.name}${ok ? "" : `\n       ${result.failures.join("\n       ")}`}`
        )
      }
      yield* Console.log(`\n${passed} passed, ${failed} failed`)
    }
    if (failed > 0) return yield* new Failed({ message: `${failed} of ${results.length} cases failed` })
  })
