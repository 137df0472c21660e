/**
 * Tool calls: the PreToolUse decision applied (a deny, an ask to a human, an `updatedInput`), the
 * tool run, then PostToolUse or PostToolUseFailure on its result.
 */
import { ToolMessage } from "@langchain/core/messages"
import type { AIMessage, BaseMessage } from "@langchain/core/messages"
import { GraphInterrupt, interrupt, isGraphBubbleUp } from "@langchain/langgraph"
import type { Command } from "@langchain/langgraph"
import type { DispatchOutcome } from "../HookDispatcher.ts"
import { dispatch, quick } from "./dispatch.ts"
import { appendText, contentText, promptId, reminder, toolCallsOf } from "./messages.ts"
import type { ToolCallLike } from "./messages.ts"
import { asks, decide, quietRecord, quietToolOf, turnOf, turnRecords } from "./preToolUse.ts"
import * as Resume from "./resume.ts"
import * as Review from "./review.ts"
import { common, hasCheckpointer, lazyInfoOf, parentRun, transcriptOf } from "./session.ts"
import type { CallRecord, RunInfo, State } from "./state.ts"
import type { ResolvedTool } from "./toolNames.ts"
import { refusal, replaceToolMessage, revisedTurn, thrownText, toolMessageOf, withContent, withRevision } from "./toolResults.ts"
import { errorMessage, isRecord, remember } from "./util.ts"

export interface ToolRequest {
  toolCall: { id?: string; name: string; args: Record<string, unknown> }
  state: Record<string, unknown>
  runtime: unknown
}
export type ToolHandler = (request: never) => Promise<ToolMessage | Command> | ToolMessage | Command

/** One tool call on its way: the call as it will run, and what the hooks said for the model. */
interface Call {
  readonly s: State
  readonly info: () => RunInfo
  readonly messages: Array<BaseMessage> | undefined
  /** Adds the messages so far to the transcript (when a hook runs). */
  readonly seen: () => void
  call: ToolCallLike
  tool: ResolvedTool
  toolInput: Record<string, unknown>
  readonly notes: Array<string>
  /** A hook said `continue: false`: its stop reason. */
  halt: string | null
  /** The model's message with the human's edits, written with the first asked call's result. */
  revision: AIMessage | undefined
}

const noteContext = (c: Call, event: string, contexts: ReadonlyArray<string>) => {
  for (const context of contexts) c.notes.push(reminder(`${event}:${c.tool.name} hook additional context`, context))
}

const stopIfAsked = (c: Call, event: string, outcome: DispatchOutcome) => {
  if (!outcome.continue) c.halt ??= outcome.stopReason ?? `Stopped by a ${event} hook`
}

/** A hook said `continue: false`: the next model call of this run answers in its place. */
const noteHalt = (c: Call) => {
  if (c.halt !== null) remember(c.s.halts, promptId(c.messages) ?? "", c.halt)
}

/** The tool does not run: the result the model reads in place of the tool's. */
interface Refused {
  readonly refused: ToolMessage | Command
}

/** The tool does not run: the model reads `text` (and the hooks' notes) as its result. */
const refuse = (c: Call, text: string): Refused => {
  const message = new ToolMessage({
    content: c.notes.length > 0 ? `${text}\n\n${c.notes.join("\n")}` : text,
    tool_call_id: c.call.id ?? "",
    name: c.call.name,
    status: "error"
  })
  noteHalt(c)
  return { refused: withRevision(message, c.revision) }
}

const denied = (c: Call, pre: CallRecord) => refuse(c, pre.reason ?? `The PreToolUse hook denied this ${c.tool.name} call.`)

const refusedText = (hookToolName: string, answer: Review.Answer & { type: "reject" }) =>
  answer.message ?? `The user refused this ${hookToolName} call.`

/**
 * What most calls are: no hook of a tool call's events can match this tool, and nothing of its
 * model turn waits for a human. The call goes to the tool with nothing else done (a subagent it
 * starts still knows its parent).
 */
const plainCall = async (request: ToolRequest, handler: ToolHandler, s: State, info: () => RunInfo): Promise<ToolMessage | Command> => {
  const plain = request.toolCall
  if (plain.id !== undefined) s.quietCalls.delete(plain.id)
  // Read only by a subagent the tool starts.
  const store = {
    get info() {
      return info()
    },
    get subagentType() {
      const type = isRecord(plain.args) ? s.tools(plain.name).toInput(plain.args)["subagent_type"] : undefined
      return typeof type === "string" ? type : null
    }
  }
  try {
    return await parentRun.run(store, () => handler(request as never))
  } catch (error) {
    if (isGraphBubbleUp(error)) throw error
    return refusal(plain, thrownText(errorMessage(error)))
  }
}

/** The asked calls of the call's model turn (a human answers them together), when the agent can ask. */
const askedOfTurn = (
  turn: BaseMessage | undefined,
  records: Readonly<Record<string, CallRecord>> | undefined
): ReadonlyArray<ToolCallLike> =>
  records === undefined || !hasCheckpointer()
    ? []
    : toolCallsOf(turn).filter((entry) => entry.id !== undefined && records[entry.id] !== undefined && asks(records[entry.id]!))

/**
 * One interrupt per model turn (humanInTheLoopMiddleware's convention): the turn's first asked
 * call asks about all of them, the turn's other calls wait for the answer (an interrupt that
 * shows nothing) and, on resume, each asked call takes its own answer from the same decisions.
 * `given`: the answer to the first asked call's question, read by the others.
 */
const answerOfTurn = (
  c: Call,
  turn: BaseMessage | undefined,
  records: Readonly<Record<string, CallRecord>>,
  asked: ReadonlyArray<ToolCallLike>,
  given: { readonly value: unknown } | undefined,
  decidedNow: boolean
): Review.Answer | undefined => {
  const first = asked[0]!.id === c.call.id
  // The other calls never ask: they wait (an interrupt that shows nothing) while there is no answer they can read.
  if (!first && given === undefined) throw new GraphInterrupt()
  const index = asked.findIndex((entry) => entry.id === c.call.id)
  if (index < 0 || decidedNow) return undefined
  const question = () =>
    Review.request(
      asked.map((entry) => ({
        id: entry.id!,
        name: entry.name,
        args: entry.args,
        hookToolName: c.s.toolName(entry.name),
        reason: records[entry.id!]!.reason
      }))
    )
  const answers = first ? Review.ask(question(), interrupt) : Review.read(given!.value, asked.length)
  if (answers === undefined) throw new GraphInterrupt()
  if (first && answers.some((entry) => entry.type === "edit")) c.revision = revisedTurn(turn!, asked, answers)
  return answers[index]
}

/**
 * The human's answer to an asked call: a refusal, the call as it is, or the edited call (to be
 * decided again: the human answered the ask, but a deny or exit 2 of the hooks still blocks it).
 */
const applyAnswer = (c: Call, pre: CallRecord, given: Review.Answer | undefined): CallRecord | Refused | { readonly edited: true } => {
  let answer = given
  if (answer === undefined) {
    if (!hasCheckpointer()) {
      return refuse(
        c,
        pre.reason ??
          `A PreToolUse hook asked for confirmation of this ${c.tool.name} call, and this agent cannot ask (it has no checkpointer).`
      )
    }
    // A call the model node did not decide (added by another middleware): asked on its own.
    const question = Review.request([
      { id: c.call.id ?? "", name: c.call.name, args: c.call.args, hookToolName: c.tool.name, reason: pre.reason }
    ])
    answer = Review.ask(question, interrupt)[0]!
  }
  if (answer.type === "reject") return refuse(c, refusedText(c.tool.name, answer))
  if (answer.type !== "edit") return pre
  c.call = { ...c.call, name: answer.name, args: answer.args }
  c.tool = c.s.tools(c.call.name)
  c.toolInput = c.tool.toInput(answer.args)
  return { edited: true }
}

/**
 * The PreToolUse decision for the call, with the human's answer when the hooks asked: `run` with
 * the decision, or the result in place of the tool's. It awaits only what it must (a decision not
 * made yet, another call's answer, an edited call's new decision): the tool of a call decided
 * before starts at once, as the calls of one turn run side by side.
 */
const preToolUse = async (c: Call, run: (pre: CallRecord) => Promise<ToolMessage | Command>): Promise<ToolMessage | Command> => {
  const { call, s } = c
  // Decided when the model asked for the call: the hooks do not run again (also after an
  // interrupt and a resume). A call decided on other arguments, or never seen, is decided here.
  const turn = call.id === undefined ? undefined : turnOf(c.messages, call.id)
  const records = turnRecords(turn)
  const recorded = call.id === undefined ? undefined : (records?.[call.id] ?? s.decidedCalls.get(call.id) ?? quietRecord(s, call.id))
  const pre = recorded !== undefined && recorded.input === JSON.stringify(c.toolInput) ? recorded : await decide(s, c.info, call, c.seen)
  // A call decided here (one its model turn did not show us: another middleware added it) keeps
  // its decision for a resume in this process, so an ask's hooks do not run again.
  if (pre !== recorded && call.id !== undefined && pre.quiet !== true) remember(s.decidedCalls, call.id, pre)
  if (pre.halt !== null) c.halt ??= pre.halt
  const asked = askedOfTurn(turn, records)
  let answer: Review.Answer | undefined
  if (asked.length > 0) {
    const given = asked[0]!.id === call.id ? undefined : await Resume.answerToTurn(asked[0]!.id!)
    answer = answerOfTurn(c, turn, records!, asked, given, pre !== recorded)
  }
  // A call no model turn recorded (another middleware added it) that is resumed in a process
  // which did not decide it: its hooks ran again just now and may not ask again (a hook that
  // asks once). The human was asked where it was decided, and the answer waiting for this call
  // is theirs, whatever the hooks say now (a deny still blocks).
  const answeredElsewhere =
    recorded === undefined && records === undefined && call.id !== undefined && !asks(pre) && hasCheckpointer() && Resume.resuming()
  noteContext(c, "PreToolUse", pre.additionalContext)
  if (pre.blocked) return denied(c, pre).refused
  if (!asks(pre) && !answeredElsewhere) return run(pre)
  const applied = applyAnswer(c, pre, answer)
  if ("refused" in applied) return applied.refused
  if (!("edited" in applied)) return run(applied)
  const again = await decide(s, c.info, c.call, c.seen)
  if (again.halt !== null) c.halt ??= again.halt
  noteContext(c, "PreToolUse", again.additionalContext)
  return again.blocked ? denied(c, again).refused : run(again)
}

/** PostToolUseFailure: the tool threw, or returned an error result. */
const failed = async (c: Call, input: Record<string, unknown>, error: string, durationMs: number) => {
  const failure = await dispatch(
    c.s,
    "PostToolUseFailure",
    () => ({
      ...common(c.s, c.info()),
      tool_name: c.tool.name,
      tool_input: input,
      tool_use_id: c.call.id,
      error,
      is_interrupt: false,
      duration_ms: durationMs
    }),
    c.seen,
    { tool_name: c.tool.name }
  )
  stopIfAsked(c, "PostToolUseFailure", failure)
  noteContext(c, "PostToolUseFailure", failure.additionalContext)
  if (failure.blocked && failure.reason !== null) c.notes.push(reminder(`PostToolUseFailure:${c.tool.name} hook feedback`, failure.reason))
}

/** PostToolUse on a result: its `updatedToolOutput`, if a hook gave one. */
const succeeded = async (
  c: Call,
  input: Record<string, unknown>,
  text: string,
  artifact: unknown,
  durationMs: number
): Promise<string | undefined> => {
  const post = await dispatch(
    c.s,
    "PostToolUse",
    () => ({
      ...common(c.s, c.info()),
      tool_name: c.tool.name,
      tool_input: input,
      tool_response: c.tool.toResponse({ text, artifact, toolInput: input }),
      tool_use_id: c.call.id,
      duration_ms: durationMs
    }),
    c.seen,
    { tool_name: c.tool.name }
  )
  stopIfAsked(c, "PostToolUse", post)
  const updated = post.hookSpecificOutput?.["updatedToolOutput"]
  if (post.blocked) c.notes.push(reminder(`PostToolUse:${c.tool.name} hook blocking error`, post.reason ?? "blocked"))
  noteContext(c, "PostToolUse", post.additionalContext)
  return updated === undefined || updated === null ? undefined : typeof updated === "string" ? updated : JSON.stringify(updated)
}

/** Runs the tool with the decided input, then PostToolUse or PostToolUseFailure; the result with the hooks' notes. */
const runTool = async (c: Call, request: ToolRequest, handler: ToolHandler, pre: CallRecord): Promise<ToolMessage | Command> => {
  const { call, tool } = c
  const input = pre.updatedInput ?? c.toolInput
  const args = pre.updatedInput === null ? call.args : tool.fromInput(pre.updatedInput)
  const effective = call === request.toolCall && pre.updatedInput === null ? request : { ...request, toolCall: { ...call, args } }
  const subagentType = typeof input["subagent_type"] === "string" ? input["subagent_type"] : null
  const started = performance.now()
  let result: ToolMessage | Command
  try {
    // The run info is made only if a subagent asks for it.
    const info = c.info
    result = await parentRun.run(
      {
        get info() {
          return info()
        },
        subagentType
      },
      () => handler(effective as never)
    )
  } catch (error) {
    if (isGraphBubbleUp(error)) throw error
    const message = errorMessage(error)
    await failed(c, input, message, Math.round(performance.now() - started))
    return refuse(c, thrownText(message)).refused
  }
  // No PostToolUse or PostToolUseFailure hook can match this tool, and nothing to add: the result as it is.
  const probe = { tool_name: tool.name }
  const quiet = quick(c.s, "PostToolUse", probe) !== undefined && quick(c.s, "PostToolUseFailure", probe) !== undefined
  if (c.notes.length === 0 && c.halt === null && quiet) {
    return withRevision(result, c.revision)
  }
  const durationMs = Math.round(performance.now() - started)
  const original = toolMessageOf(result, call.id)
  const text = original === undefined ? "" : contentText(original.content)
  let replacementContent: string | undefined
  if (original !== undefined && original.status === "error") await failed(c, input, text, durationMs)
  else replacementContent = await succeeded(c, input, text, original?.artifact, durationMs)
  noteHalt(c)
  if (c.notes.length === 0 && replacementContent === undefined) return withRevision(result, c.revision)
  if (original === undefined) {
    // A Command without a tool message: say it next to it.
    c.s.warn(`${tool.name}: the tool returned no ToolMessage; hook feedback goes in a separate message`)
    const message = new ToolMessage({ content: c.notes.join("\n"), tool_call_id: call.id ?? "", name: call.name })
    return withRevision(replaceToolMessage(result, undefined, message), c.revision)
  }
  const content = replacementContent ?? original.content
  const replacement = withContent(original, c.notes.length > 0 ? appendText(content, c.notes.join("\n")) : content)
  return withRevision(replaceToolMessage(result, original, replacement), c.revision)
}

export const wrapToolCall = async (s: State, request: ToolRequest, handler: ToolHandler): Promise<ToolMessage | Command> => {
  const info = lazyInfoOf(s, request.state, request.runtime)
  const messages = request.state["messages"] as Array<BaseMessage> | undefined
  const seen = () => transcriptOf(s, info()).sync(messages)
  if (s.agentNodes) seen()
  const id = request.toolCall.id
  if (quietToolOf(s, request.toolCall.name).all && (id === undefined || turnRecords(turnOf(messages, id)) === undefined)) {
    return plainCall(request, handler, s, info)
  }
  const tool = s.tools(request.toolCall.name)
  const c: Call = {
    s,
    info,
    messages,
    seen,
    call: request.toolCall,
    tool,
    toolInput: tool.toInput(isRecord(request.toolCall.args) ? request.toolCall.args : {}),
    notes: [],
    halt: null,
    revision: undefined
  }
  return preToolUse(c, (pre) => runTool(c, request, handler, pre))
}
