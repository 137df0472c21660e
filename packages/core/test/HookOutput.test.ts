import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { HookEvent, HookOutput, Outcome } from "@agent-hooks/core"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { readsAdditionalContext } from "@agent-hooks/test-utils/ClaudeContract"

const spec = (name: string) => {
  const found = HookEvent.get(name)
  if (found === undefined) throw new Error(`no event ${name}`)
  return found
}
const run = (over: Partial<HookOutput.RawRun>): HookOutput.RawRun => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  timeout: 600,
  stdout: "",
  stderr: "",
  ...over
})
const interpret = (event: string, over: Partial<HookOutput.RawRun>) => HookOutput.interpret(spec(event), run(over))
const json = (value: unknown) => JSON.stringify(value)

describe("HookOutput.interpret", () => {
  it("exit 0 with nothing is a success with no decision", () => {
    const v = interpret("PreToolUse", {})
    expect(v).toMatchObject({ status: "success", decision: null, reason: null, continue: true, additionalContext: [] })
  })

  it("exit 2 on PreToolUse denies with stderr as the reason", () => {
    const v = interpret("PreToolUse", { exitCode: 2, stderr: "rm -rf is not allowed\n" })
    expect(v).toMatchObject({ status: "blocking-error", decision: "deny", reason: "rm -rf is not allowed" })
  })

  it("exit 2 on Stop blocks (the agent keeps going)", () => {
    expect(interpret("Stop", { exitCode: 2, stderr: "run the tests first" })).toMatchObject({
      decision: "block",
      reason: "run the tests first"
    })
  })

  it("exit 2 on an event that cannot block decides nothing and says so", () => {
    const v = interpret("SessionEnd", { exitCode: 2, stderr: "nope" })
    expect(v.decision).toBeNull()
    expect(v.messages.join("\n")).toMatch(/SessionEnd cannot block/)
  })

  it("exit 2 with valid JSON uses the JSON reason", () => {
    const v = interpret("PreToolUse", {
      exitCode: 2,
      stderr: "raw",
      stdout: json({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "from json" }
      })
    })
    expect(v).toMatchObject({ decision: "deny", reason: "from json" })
  })

  it("exit 2 with invalid JSON still blocks with stderr", () => {
    const v = interpret("PreToolUse", {
      exitCode: 2,
      stderr: "because",
      stdout: json({ hookSpecificOutput: { permissionDecision: "allow" } })
    })
    expect(v).toMatchObject({ decision: "deny", reason: "because" })
    expect(v.messages.join("\n")).toMatch(/missing required field "hookEventName"/)
  })

  it.each(["allow", "deny", "ask", "defer"] as const)("permissionDecision %s", (d) => {
    const v = interpret("PreToolUse", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: d, permissionDecisionReason: "r" } })
    })
    expect(v).toMatchObject({ status: "success", decision: d, reason: "r" })
  })

  it("a wrong hookEventName discards the output with Claude Code's message", () => {
    const v = interpret("PreToolUse", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } })
    })
    expect(v.status).toBe("non-blocking-error")
    expect(v.decision).toBeNull()
    expect(v.messages).toContain(
      "Hook JSON output validation failed — Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'"
    )
  })

  it("legacy top-level decision approve / block on PreToolUse", () => {
    expect(interpret("PreToolUse", { stdout: json({ decision: "approve" }) }).decision).toBe("allow")
    expect(interpret("PreToolUse", { stdout: json({ decision: "block", reason: "legacy" }) })).toMatchObject({
      decision: "deny",
      reason: "legacy"
    })
  })

  it("a top-level decision other than approve/block is a validation error", () => {
    const v = interpret("PreToolUse", { stdout: json({ decision: "deny" }) })
    expect(v.status).toBe("non-blocking-error")
    expect(v.messages.join()).toMatch(/decision: expected "approve" \| "block", got "deny"/)
  })

  it("a flat permissionDecision is ignored, with a note", () => {
    const v = interpret("PreToolUse", { stdout: json({ permissionDecision: "deny" }) })
    expect(v.decision).toBeNull()
    expect(v.messages.join()).toMatch(/top-level "permissionDecision" is ignored/)
  })

  it("decision block on PostToolUse and UserPromptSubmit", () => {
    expect(interpret("PostToolUse", { stdout: json({ decision: "block", reason: "lint failed" }) })).toMatchObject({
      decision: "block",
      reason: "lint failed"
    })
    expect(interpret("UserPromptSubmit", { stdout: json({ decision: "block", reason: "secret" }) })).toMatchObject({
      decision: "block",
      reason: "secret"
    })
  })

  it("continue false, stopReason and systemMessage", () => {
    const v = interpret("PostToolUse", { stdout: json({ continue: false, stopReason: "halt", systemMessage: "warn user" }) })
    expect(v).toMatchObject({ continue: false, stopReason: "halt", systemMessage: "warn user" })
  })

  it("additionalContext and updatedInput", () => {
    const v = interpret("PreToolUse", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "ctx", updatedInput: { command: "ls -la" } } })
    })
    expect(v).toMatchObject({ additionalContext: ["ctx"], updatedInput: { command: "ls -la" } })
  })

  it("plain stdout reaches the context on UserPromptSubmit and SessionStart only", () => {
    expect(interpret("UserPromptSubmit", { stdout: "branch: main\n" }).additionalContext).toEqual(["branch: main"])
    expect(interpret("SessionStart", { stdout: "hello" }).additionalContext).toEqual(["hello"])
    expect(interpret("PreToolUse", { stdout: "hello" }).additionalContext).toEqual([])
  })

  it("stdout that starts with { but is not JSON is plain text, with a note", () => {
    const v = interpret("UserPromptSubmit", { stdout: "{not json" })
    expect(v.status).toBe("success")
    expect(v.additionalContext).toEqual(["{not json"])
    expect(v.messages.join()).toMatch(/looks like a JSON object but is not valid JSON/)
  })

  it("log lines before the JSON make it plain text", () => {
    const v = interpret("PreToolUse", { stdout: `checking...\n${json({ decision: "block" })}` })
    expect(v.decision).toBeNull()
  })

  it("exit 1 is a non-blocking error with the first line of stderr", () => {
    const v = interpret("PreToolUse", { exitCode: 1, stderr: "first\nsecond" })
    expect(v).toMatchObject({ status: "non-blocking-error", decision: null })
    expect(v.messages).toEqual(["Failed with non-blocking status code 1: first"])
  })

  it("another exit code with valid JSON applies the JSON", () => {
    const v = interpret("PreToolUse", {
      exitCode: 1,
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } })
    })
    expect(v).toMatchObject({ status: "success", decision: "ask" })
  })

  it("a timeout is cancelled: output discarded, no decision", () => {
    const v = interpret("PreToolUse", {
      timedOut: true,
      exitCode: null,
      signal: "SIGTERM",
      stdout: json({ decision: "block" }),
      timeout: 2
    })
    expect(v).toMatchObject({ status: "cancelled", decision: null, additionalContext: [] })
    expect(v.messages).toEqual(["timed out after 2 s; output discarded, no decision"])
  })

  it("a hook that could not start is a non-blocking error", () => {
    const v = interpret("PreToolUse", { exitCode: null, spawnError: "spawn nope ENOENT" })
    expect(v).toMatchObject({ status: "non-blocking-error", decision: null })
  })

  it("PermissionRequest: decision.behavior, exit 2 ignored", () => {
    const allow = interpret("PermissionRequest", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { a: 1 } } } })
    })
    expect(allow).toMatchObject({ decision: "allow", updatedInput: { a: 1 } })
    expect(interpret("PermissionRequest", { exitCode: 2, stderr: "x" }).decision).toBeNull()
  })
})

/** What a host acts on: the Outcome without the hooks' records and the warnings. */
const acted = (event: HookEvent.HookEventSpec, verdict: HookOutput.HookVerdict) => {
  const result: Outcome.HookResult = {
    command: "hook.sh",
    exitCode: 0,
    signal: null,
    timedOut: false,
    durationMs: 1,
    stdout: "",
    stderr: "",
    status: verdict.status,
    source: null,
    decision: verdict.decision,
    messages: []
  }
  const { hooks: _hooks, warnings: _warnings, ...rest } = Outcome.aggregate(event, [{ result, verdict }], [])
  // toUser names a failed hook with its last message; the property is about valid answers.
  return rest
}

/** The lines of `ignored` that name one field: `"reason" ...`, `top-level "reason" ...`, `hookSpecificOutput.updatedInput ...`. */
const naming = (ignored: ReadonlyArray<string>, key: string, inSpecific: boolean): ReadonlyArray<string> =>
  ignored.filter((line) =>
    inSpecific
      ? line.startsWith(`hookSpecificOutput.${key} `) || line.startsWith(`hookSpecificOutput[${JSON.stringify(key)}]`)
      : line.startsWith(`${JSON.stringify(key)} `) ||
        line.startsWith(`${JSON.stringify(key)}: false `) ||
        line.startsWith(`top-level ${JSON.stringify(key)} `) ||
        line.startsWith(`${key} ignored`)
  )

const strings = fc.constantFrom("", "why", "\u001b]0;title\u0007", "\u0007", "\u001b[31m")
/** A reason's text, never equal to another field's: a field the same as its fallback would change nothing by chance. */
const reasonText = (tag: string) => fc.constantFrom(`${tag}`, `${tag}\u0007`)
/** A value of the right type for a field, most of the time; now and then one of the wrong type. */
const topFields: Record<string, fc.Arbitrary<unknown>> = {
  continue: fc.boolean(),
  stopReason: strings,
  suppressOutput: fc.boolean(),
  systemMessage: strings,
  decision: fc.constantFrom("approve", "block"),
  reason: fc.oneof(fc.constant(""), reasonText("top reason")),
  terminalSequence: strings,
  permissionDecision: fc.constantFrom("allow", "deny"),
  additionalContext: strings,
  action: fc.constantFrom("continue", "block"),
  result: fc.constant("block")
}
const specificFields: Record<string, fc.Arbitrary<unknown>> = {
  permissionDecision: fc.constantFrom("allow", "deny", "ask", "defer"),
  permissionDecisionReason: reasonText("permissionDecisionReason"),
  updatedInput: fc.constantFrom({}, { command: "ls" }),
  additionalContext: strings,
  decision: fc.oneof(
    fc.record({ behavior: fc.constantFrom("allow", "deny") }),
    fc.record(
      {
        behavior: fc.constantFrom("allow", "deny"),
        message: reasonText("message"),
        updatedInput: fc.constant({ a: 1 }),
        interrupt: fc.boolean()
      },
      { requiredKeys: ["behavior"] }
    )
  ),
  sessionTitle: strings,
  watchPaths: fc.constant(["/tmp/x"]),
  updatedToolOutput: fc.constant({ ok: true }),
  displayContent: strings,
  action: fc.constantFrom("accept", "decline"),
  worktreePath: fc.constant("/tmp/wt"),
  retry: fc.boolean(),
  permisionDecision: fc.constant("deny")
}
const answers = fc.record({
  event: fc.constantFrom(...HookEvent.catalog.map((event) => event.name)),
  exitCode: fc.constantFrom(0, 0, 1),
  top: fc.record(topFields, { requiredKeys: [] }),
  specific: fc.option(fc.record(specificFields, { requiredKeys: [] }), { nil: undefined }),
  otherEvent: fc.boolean()
})

describe("an answer the event ignores is never silent", () => {
  it("the Notification hook that prints a block: the call goes on, and the answer's fields are named", () => {
    const v = interpret("Notification", { stdout: json({ decision: "block", reason: "x" }) })
    expect(v).toMatchObject({ status: "success", decision: null })
    expect(v.ignored).toEqual([
      `"decision" is ignored on Notification: it cannot block`,
      `"reason" is ignored on Notification: it cannot block`
    ])
    expect(v.messages).toEqual(expect.arrayContaining([...v.ignored!]))
  })

  it("property: a field that changes nothing in the Outcome is named once; a field that is used is not named", () => {
    fc.assert(
      fc.property(answers, ({ event: name, exitCode: exit, top, specific, otherEvent }) => {
        const event = spec(name)
        // A WorktreeCreate hook that exits non-zero fails the creation whatever it printed (its own test below).
        const exitCode = name === "WorktreeCreate" ? 0 : exit
        const answer: Record<string, unknown> = { ...top }
        if (specific !== undefined) answer["hookSpecificOutput"] = { hookEventName: otherEvent ? "Notification" : name, ...specific }
        const verdict = HookOutput.interpret(event, run({ exitCode, stdout: json(answer) }))
        // An answer that does not validate is a failed hook (a warning of its own), not a dropped field.
        if (verdict.messages.some((message) => message.startsWith("Hook JSON output validation failed"))) {
          expect(verdict.status).toBe("non-blocking-error")
          return
        }
        const ignored = verdict.ignored ?? []
        const outcome = JSON.stringify(acted(event, verdict))
        const inner = answer["hookSpecificOutput"] as Record<string, unknown> | undefined
        // PermissionRequest's decision object: its fields other than behavior count on their own (decision.updatedInput).
        const decisionObject =
          name === "PermissionRequest" && inner !== undefined && typeof inner["decision"] === "object"
            ? (inner["decision"] as Record<string, unknown>)
            : {}
        const fields = [
          ...Object.keys(answer)
            .filter((key) => key !== "hookSpecificOutput")
            .map((key) => ({ key, inSpecific: false })),
          ...Object.keys(inner ?? {})
            .filter((key) => key !== "hookEventName")
            .map((key) => ({ key, inSpecific: true })),
          ...Object.keys(decisionObject)
            .filter((key) => key !== "behavior")
            .map((key) => ({ key: `decision.${key}`, inSpecific: true }))
        ]
        // suppressOutput is accepted everywhere and does nothing, in Claude Code too; continue: true is the default.
        const exempt = ({ key, inSpecific }: { key: string; inSpecific: boolean }) =>
          !inSpecific && (key === "suppressOutput" || (key === "continue" && answer["continue"] === true))
        const without = (drop: ReadonlyArray<{ key: string; inSpecific: boolean }>): Record<string, unknown> => {
          const top = Object.fromEntries(Object.entries(answer).filter(([key]) => !drop.some((d) => !d.inSpecific && d.key === key)))
          const dropped = (key: string) => drop.some((d) => d.inSpecific && d.key === key)
          if (inner !== undefined) {
            const kept: Record<string, unknown> = Object.fromEntries(Object.entries(inner).filter(([key]) => !dropped(key)))
            if (typeof kept["decision"] === "object") {
              kept["decision"] = Object.fromEntries(Object.entries(decisionObject).filter(([key]) => !dropped(`decision.${key}`)))
            }
            top["hookSpecificOutput"] = kept
          }
          return top
        }
        const outcomeOf = (json: Record<string, unknown>) =>
          JSON.stringify(acted(event, HookOutput.interpret(event, run({ exitCode, stdout: JSON.stringify(json) }))))
        const label = (f: { key: string; inSpecific: boolean }) => `${name}: ${f.inSpecific ? "hookSpecificOutput." : ""}${f.key}`
        // Each field is named at most once, and every line names a field of the answer.
        const named = fields.filter((f) => {
          const lines = naming(ignored, f.key, f.inSpecific)
          expect(lines.length, `${label(f)} named ${lines.length} times: ${JSON.stringify(ignored)}`).toBeLessThanOrEqual(1)
          return lines.length === 1
        })
        expect(named.length, `a line names no field of the answer: ${JSON.stringify(ignored)}`).toBe(ignored.length)
        // A hookSpecificOutput field the event's table does not list is named (so, below, not delivered), whatever it is.
        for (const f of fields) {
          if (f.inSpecific && !f.key.startsWith("decision.") && !event.specificOutput.includes(f.key)) {
            expect(named, `${label(f)} is not in ${name}'s table, yet not named in ${JSON.stringify(ignored)}`).toContain(f)
          }
        }
        // The named fields are ignored indeed: without all of them, the Outcome is the same...
        const rest = without(named)
        expect(outcomeOf(rest), `${name}: leaving out ${named.map(label).join(", ")} changed the Outcome`).toBe(outcome)
        // ...and every field left is used: leaving it out changes the Outcome.
        for (const f of fields) {
          if (named.includes(f) || exempt(f)) continue
          const next = without([...named, f])
          expect(outcomeOf(next), `${label(f)} changes nothing, yet is not named in ${JSON.stringify(ignored)}`).not.toBe(outcome)
        }
        // Visibility only: every line is also among the hook's messages.
        for (const line of ignored) expect(verdict.messages).toContain(line)
      }),
      { numRuns: PropertyRuns.forLane(2000) }
    )
  })

  it("every field of hookSpecificOutput is read only on the events whose table lists it, at every exit code (exit 2 included)", () => {
    const everyField = [...new Set(HookEvent.catalog.flatMap((event) => event.specificOutput))]
    fc.assert(
      fc.property(
        fc.constantFrom(...HookEvent.catalog.filter((event) => event.specificOutput.length > 0).map((event) => event.name)),
        fc.constantFrom(0, 1, 2),
        fc.subarray(everyField, { minLength: 1, maxLength: 8 }),
        (name, exitCode, keys) => {
          const event = spec(name)
          const typed: Record<string, unknown> = { updatedInput: { command: "x" }, decision: { behavior: "allow" } }
          const inner = Object.fromEntries(keys.map((key) => [key, typed[key] ?? `${key} value`]))
          const runOf = (fields: Record<string, unknown>) =>
            run({ exitCode, stderr: "EXIT2", stdout: json({ hookSpecificOutput: { hookEventName: name, ...fields } }) })
          const verdict = HookOutput.interpret(event, runOf(inner))
          if (verdict.messages.some((message) => message.startsWith("Hook JSON output validation failed"))) return
          // Exit 2 on Elicitation and ElicitationResult reads no hookSpecificOutput at all; elsewhere the table decides.
          const unread = (key: string) => !event.specificOutput.includes(key) || (exitCode === 2 && name.startsWith("Elicitation"))
          const dropped = keys.filter(unread)
          for (const key of dropped) {
            expect(naming(verdict.ignored ?? [], key, true), `${name} exit ${exitCode}: ${key} not named once`).toHaveLength(1)
          }
          const kept = Object.fromEntries(Object.entries(inner).filter(([key]) => !unread(key)))
          expect(JSON.stringify(acted(event, verdict)), `${name} exit ${exitCode}: ${dropped.join(", ")} changed the Outcome`).toBe(
            JSON.stringify(acted(event, HookOutput.interpret(event, runOf(kept))))
          )
        }
      ),
      { numRuns: PropertyRuns.forLane(1000) }
    )
  })

  it("additionalContext reaches the model exactly on the events where Claude Code reads it", () => {
    for (const event of HookEvent.catalog) {
      const v = HookOutput.interpret(
        event,
        run({ stdout: json({ hookSpecificOutput: { hookEventName: event.name, additionalContext: "CTX" } }) })
      )
      const outcome = acted(event, v)
      if (readsAdditionalContext.has(event.name)) {
        expect(outcome.additionalContext, event.name).toEqual(["CTX"])
        expect(v.ignored, event.name).toBeUndefined()
      } else {
        expect(outcome.additionalContext, event.name).toEqual([])
        expect(JSON.stringify(outcome), event.name).not.toContain("CTX")
        // Named: as an ignored field where the event has a table, as a failed validation where it has none.
        expect(v.messages.join("\n"), event.name).toMatch(
          /hookSpecificOutput\.additionalContext is ignored|hookSpecificOutput is not supported/
        )
      }
    }
  })

  it("a declared event with no catalog base reads the decision fields of its blocking rule, and names the others", () => {
    const gate = HookEvent.custom({ name: "BeforeCall", blocking: "permission" })
    const deny = HookOutput.interpret(
      gate,
      run({
        stdout: json({
          hookSpecificOutput: {
            hookEventName: "BeforeCall",
            permissionDecision: "deny",
            permissionDecisionReason: "no",
            watchPaths: ["/x"]
          }
        })
      })
    )
    expect(deny).toMatchObject({ decision: "deny", reason: "no" })
    expect(deny.ignored).toEqual([
      "hookSpecificOutput.watchPaths is ignored: BeforeCall reads only hookSpecificOutput.permissionDecision, permissionDecisionReason, updatedInput, additionalContext"
    ])
    const request = HookEvent.custom({ name: "AskFirst", blocking: "permission-request" })
    expect(
      HookOutput.interpret(
        request,
        run({ stdout: json({ hookSpecificOutput: { hookEventName: "AskFirst", decision: { behavior: "deny" } } }) })
      ).decision
    ).toBe("deny")
  })

  it("exit 2 on Elicitation blocks without applying hookSpecificOutput; each of its fields is named", () => {
    for (const name of ["Elicitation", "ElicitationResult"]) {
      const v = interpret(name, {
        exitCode: 2,
        stderr: "no",
        stdout: json({ hookSpecificOutput: { hookEventName: name, action: "accept", content: { token: "x" } } })
      })
      expect(v).toMatchObject({ decision: "block", reason: "no", hookSpecificOutput: null })
      expect(v.ignored).toEqual([
        `hookSpecificOutput.action is ignored on ${name}: the exit code blocks`,
        `hookSpecificOutput.content is ignored on ${name}: the exit code blocks`
      ])
    }
  })

  it("exit 2 that replaces the JSON decision names it; a JSON block that agrees with exit 2 is not named", () => {
    const allow = interpret("PreToolUse", {
      exitCode: 2,
      stderr: "no",
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })
    })
    expect(allow.decision).toBe("deny")
    expect(allow.ignored).toEqual([`hookSpecificOutput.permissionDecision is ignored on PreToolUse: the exit code denies`])
    const agrees = interpret("Stop", { exitCode: 2, stdout: json({ decision: "block", reason: "go on" }) })
    expect(agrees).toMatchObject({ decision: "block", reason: "go on" })
    expect(agrees.ignored).toBeUndefined()
    const none = interpret("Notification", { exitCode: 2, stderr: "stop" })
    expect(none.ignored).toEqual(["exit code 2: Notification cannot block; stderr: stop"])
  })

  it("a hostile answer with thousands of unknown keys gets a bounded count of lines, each key quoted", () => {
    const keys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}\nfake line`, i]))
    const v = interpret("PreToolUse", { stdout: json({ ...keys, ["x".repeat(10_000)]: 1 }) })
    expect(v.ignored).toHaveLength(11)
    expect(v.ignored![0]).toMatch(/^"k0\\nfake line" is ignored: a hook's JSON answer has only continue, /)
    expect(v.ignored![10]).toBe("4991 more unknown fields are ignored")
    expect(v.ignored!.every((line) => !line.includes("\n") && line.length < 400)).toBe(true)
  })

  it("a near miss gets a suggestion", () => {
    const v = interpret("PreToolUse", { stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permisionDecision: "deny" } }) })
    expect(v.decision).toBeNull()
    expect(v.ignored).toEqual([
      `hookSpecificOutput.permisionDecision is ignored: PreToolUse reads only hookSpecificOutput.permissionDecision, permissionDecisionReason, updatedInput, additionalContext (did you mean "permissionDecision"?)`
    ])
  })
})
