/**
 * What LangGraph hands a task that is resumed: whether a value to resume with is there, and the
 * answer given to the question of a model turn, as seen by the turn's calls that did not ask it.
 * LangGraph keeps these in the task's config (`__pregel_scratchpad`, `__pregel_resume_map`); they
 * are read here and nowhere else.
 */
import { getConfig } from "@langchain/langgraph"

interface Scratchpad {
  readonly resume?: ReadonlyArray<unknown>
  readonly nullResume?: unknown
  readonly interruptCounter?: number
}

type PendingWrite = readonly [taskId: string, channel: string, value: unknown]

interface CheckpointReader {
  getTuple(config: { configurable: Record<string, unknown> }): Promise<{ readonly pendingWrites?: ReadonlyArray<PendingWrite> } | undefined>
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const configurable = (): Record<string, unknown> | undefined => {
  try {
    const value = getConfig()?.configurable
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * A value to resume with is there for the next `interrupt()` of this task: the run is resumed,
 * not run for the first time.
 */
export const resuming = (): boolean => {
  const scratchpad = configurable()?.["__pregel_scratchpad"] as Scratchpad | undefined
  if (scratchpad === undefined) return false
  return scratchpad.nullResume !== undefined || (scratchpad.resume?.length ?? 0) > (scratchpad.interruptCounter ?? -1) + 1
}

/** The adapter's question (`actionRequests`) that asks about the tool call `callId`. */
const asksAbout = (question: unknown, callId: string): boolean =>
  isRecord(question) &&
  Array.isArray(question["actionRequests"]) &&
  question["actionRequests"].some((request: unknown) => isRecord(request) && request["toolCallId"] === callId)

/**
 * The answer given to the question of a model turn, for the turn's calls that did not ask it (one
 * interrupt per model turn: the turn's first asked call, `callId`, asks about all of them).
 *
 * - `Command({ resume: value })` gives `value` to every interrupted task.
 * - `Command({ resume: { [interruptId]: value } })` names only the asking task's interrupt, so
 *   the question is found among the checkpoint's pending interrupts by its tool call ids, and its
 *   id looked up in the map.
 *
 * `undefined` when no answer is there: the call waits for one.
 */
export const answerToTurn = async (callId: string): Promise<{ readonly value: unknown } | undefined> => {
  const conf = configurable()
  if (conf === undefined) return undefined
  const map = conf["__pregel_resume_map"]
  if (!isRecord(map)) {
    // A plain resume. (Under a resume by id, `nullResume` may still hold an earlier plain
    // resume that only the asking task consumed: the map decides there.)
    const scratchpad = conf["__pregel_scratchpad"] as Scratchpad | undefined
    return scratchpad?.nullResume === undefined ? undefined : { value: scratchpad.nullResume }
  }
  const checkpointer = conf["__pregel_checkpointer"] as CheckpointReader | undefined
  if (checkpointer === undefined || typeof checkpointer.getTuple !== "function") return undefined
  // The task's namespace is its parent graph's, then `|node:taskId`: the pending interrupts are
  // the parent checkpoint's.
  const namespace = typeof conf["checkpoint_ns"] === "string" ? conf["checkpoint_ns"] : ""
  const parent = namespace.includes("|") ? namespace.slice(0, namespace.lastIndexOf("|")) : ""
  const checkpointMap = conf["checkpoint_map"]
  const checkpointId = isRecord(checkpointMap) && typeof checkpointMap[parent] === "string" ? checkpointMap[parent] : undefined
  const tuple = await checkpointer.getTuple({
    configurable: {
      thread_id: conf["thread_id"],
      checkpoint_ns: parent,
      ...(checkpointId === undefined ? {} : { checkpoint_id: checkpointId })
    }
  })
  for (const [, channel, value] of tuple?.pendingWrites ?? []) {
    if (channel !== "__interrupt__" || !Array.isArray(value)) continue
    for (const pending of value) {
      if (isRecord(pending) && typeof pending["id"] === "string" && pending["id"] in map && asksAbout(pending["value"], callId)) {
        return { value: map[pending["id"]] }
      }
    }
  }
  return undefined
}
