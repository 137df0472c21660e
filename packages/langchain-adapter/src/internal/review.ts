import type { ActionRequestWithHooks, HooksReviewRequest } from "../HooksMiddleware.ts"

/** What the human answered for one asked tool call. */
export type Answer =
  | { readonly type: "approve" }
  | { readonly type: "reject"; readonly message: string | null }
  | { readonly type: "edit"; readonly name: string; readonly args: Record<string, unknown> }

/** One tool call the hooks asked about, as shown to the human. */
export interface Asked {
  readonly id: string
  readonly name: string
  readonly args: Record<string, unknown>
  readonly hookToolName: string
  readonly reason: string | null
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The interrupt of one model turn, in `humanInTheLoopMiddleware`'s shape (`actionRequests` /
 * `reviewConfigs`), so that a UI built for LangChain's HITL works unchanged.
 */
export const request = (asked: ReadonlyArray<Asked>): HooksReviewRequest => ({
  actionRequests: asked.map(
    (call): ActionRequestWithHooks => ({
      name: call.name,
      args: call.args,
      description: `${call.reason ?? "A PreToolUse hook asks for confirmation"}\n\nTool: ${call.hookToolName}\nArgs: ${JSON.stringify(call.args, null, 2)}`,
      hookToolName: call.hookToolName,
      reason: call.reason,
      toolCallId: call.id
    })
  ),
  reviewConfigs: asked.map((call) => ({ actionName: call.name, allowedDecisions: ["approve", "edit", "reject"] }))
})

const accepted = (count: number) =>
  `Accepted: { decisions: [...] } with one decision per asked call, in order (${count} here), each { type: "approve" }, ` +
  `{ type: "edit", editedAction: { name, args } } or { type: "reject", message? }` +
  (count === 1 ? `; or, since exactly one call is asked: true, false, "allow", "deny", { decision: "allow" | "deny", reason? }.` : ".")

const describe = (value: unknown): string => {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 200)}...` : text
  } catch {
    return String(value)
  }
}

class Unreadable extends Error {}

const fail = (what: string, resume: unknown, count: number): never => {
  throw new Unreadable(`agent-hooks: cannot read the answer to the hooks' question (${what}; got ${describe(resume)}). ${accepted(count)}`)
}

const single = (resume: unknown): Answer | undefined => {
  if (resume === true || resume === "allow" || resume === "approve") return { type: "approve" }
  if (resume === false || resume === "deny" || resume === "reject") return { type: "reject", message: null }
  if (isRecord(resume) && typeof resume["decision"] === "string") {
    const reason = typeof resume["reason"] === "string" ? resume["reason"] : null
    if (resume["decision"] === "allow" || resume["decision"] === "approve") return { type: "approve" }
    if (resume["decision"] === "deny" || resume["decision"] === "reject") return { type: "reject", message: reason }
  }
  return undefined
}

const decision = (value: unknown, index: number, resume: unknown, count: number): Answer => {
  if (!isRecord(value)) return fail(`decisions[${index}] is not an object`, resume, count)
  switch (value["type"]) {
    case "approve":
      return { type: "approve" }
    case "reject": {
      const message = value["message"]
      if (message !== undefined && typeof message !== "string") return fail(`decisions[${index}].message is not a string`, resume, count)
      return { type: "reject", message: message ?? null }
    }
    case "edit": {
      const edited = value["editedAction"]
      if (!isRecord(edited) || typeof edited["name"] !== "string" || !isRecord(edited["args"])) {
        return fail(`decisions[${index}].editedAction must be { name: string, args: object }`, resume, count)
      }
      return { type: "edit", name: edited["name"], args: edited["args"] }
    }
    default:
      return fail(`decisions[${index}].type is not "approve", "edit" or "reject"`, resume, count)
  }
}

const answers = (resume: unknown, count: number): ReadonlyArray<Answer> => {
  if (isRecord(resume) && "decisions" in resume) {
    const decisions = resume["decisions"]
    if (!Array.isArray(decisions)) return fail("decisions is not an array", resume, count)
    if (decisions.length !== count) return fail(`${decisions.length} decisions for ${count} asked calls`, resume, count)
    return decisions.map((value, index) => decision(value, index, resume, count))
  }
  if (count === 1) {
    const answer = single(resume)
    if (answer !== undefined) return [answer]
  }
  return fail(count === 1 ? "not a known answer" : `${count} calls are asked, so the answer must be { decisions: [...] }`, resume, count)
}

/**
 * Reads an answer given to a question asked by another task (the turn's first asked call): the
 * answers, or `undefined` when it cannot be read, in which case the asking task asks again and
 * the reader waits for that answer (one question per model turn, never one per asked call).
 */
export const read = (resume: unknown, count: number): ReadonlyArray<Answer> | undefined => {
  try {
    return answers(resume, count)
  } catch (error) {
    if (error instanceof Unreadable) return undefined
    throw error
  }
}

/**
 * Asks the human (LangGraph `interrupt()`) and returns the answers, one per asked call in order.
 * An answer that cannot be read is never taken for a refusal: the question is asked again, with
 * `error` naming the accepted shapes. (A thrown error would not do: LangGraph keeps a resume value
 * once given, so the thread could never be answered again.)
 */
export const ask = (question: HooksReviewRequest, interrupt: (value: unknown) => unknown): ReadonlyArray<Answer> => {
  const count = question.actionRequests.length
  let resume = interrupt(question)
  for (;;) {
    try {
      return answers(resume, count)
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error
      resume = interrupt({ ...question, error: error.message })
    }
  }
}
