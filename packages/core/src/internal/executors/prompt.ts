/** The `prompt` and `agent` executor: the host's model judges the input and answers `{"ok": boolean}`. */
import type * as Effect from "effect/Effect"
import type { ModelCaller } from "../../Capabilities.ts"
import type { PromptHandler } from "../../SettingsModel.ts"
import type { ExecContext, Executed } from "./context.ts"
import { inProcess, notRun } from "./context.ts"

const SYSTEM_PROMPT = [
  "You are evaluating a hook in an AI agent's lifecycle. You receive the hook's input as JSON and a condition to check.",
  `Answer with only a JSON object: {"ok": true} when the condition holds, or {"ok": false, ` +
    `"reason": "<why, addressed to the agent>"} when it does not.`
].join("\n")

/** `$ARGUMENTS` is replaced by the input JSON (`\$` escapes a literal `$`); without it the JSON is appended. */
const promptText = (prompt: string, json: string): string => {
  let used = false
  const text = prompt.replace(/\\\$|\$ARGUMENTS/g, (match) => {
    if (match === "\\$") return "$"
    used = true
    return json
  })
  return used ? text : `${text}\n\n${json}`
}

/** @internal */
export const prompt = (handler: PromptHandler, ctx: ExecContext, model: ModelCaller | undefined): Effect.Effect<Executed> => {
  if (model === undefined) return notRun(`no model is configured for ${handler.type} hooks (pass options.model to the engine)`)
  return inProcess(ctx.timeout, async (signal) => {
    const answer = await model({
      kind: handler.type,
      system: SYSTEM_PROMPT,
      prompt: promptText(handler.prompt, ctx.stdin),
      model: handler.model,
      input: ctx.input,
      signal
    })
    const found = /\{[\s\S]*\}/.exec(answer)
    let verdict: unknown
    try {
      verdict = found === null ? undefined : JSON.parse(found[0])
    } catch {
      verdict = undefined
    }
    if (typeof verdict !== "object" || verdict === null || typeof (verdict as { ok?: unknown }).ok !== "boolean") {
      return { exitCode: 1, stderr: `the model did not answer {"ok": boolean}: ${answer.slice(0, 200)}` }
    }
    const { ok, reason, impossible } = verdict as { ok: boolean; reason?: unknown; impossible?: unknown }
    // The model's answer is the hook's "stdout" in its result; classification reads the parsed answer.
    return {
      exitCode: 0,
      stdout: answer,
      answer: {
        ok,
        reason: typeof reason === "string" && reason !== "" ? reason : "the hook's condition was not met",
        impossible: handler.type === "prompt" && impossible === true,
        continueOnBlock: handler.type === "agent" || handler.continueOnBlock === true
      }
    }
  })
}
