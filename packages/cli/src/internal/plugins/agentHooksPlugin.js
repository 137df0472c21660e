// agent-hooks as a plugin of an agent without command hooks: a pi extension and an opencode (or
// Kilo) plugin in one file, written by `agent-hooks install --host pi|opencode|kilo` and removed by
// `agent-hooks uninstall`. Each event the agent gives a plugin runs host mode, `agent-hooks hook
// --host <agent>` (the command below), as a command hook runs: Claude Code's payload on stdin, one
// JSON answer on stdout (`decision: "block"` + `reason`, `updatedInput`, `additionalContext`).
// A call agent-hooks could not judge (it did not start, failed, ran past its time, answered
// garbage) is blocked with a reason naming `agent-hooks doctor`: the plugin fails closed.
// No imports but Node's (pi runs it in Node, opencode and Kilo in Bun).
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"

// install writes this line: the agent, host mode's command (as `sh -c` runs it) and its --timeout
const CONFIG = "@@agent-hooks-plugin-config@@"

const PLUGIN = "agent-hooks plugin"
// the events where a call agent-hooks could not judge is refused (a tool call, a prompt)
const GUARDS = new Set(["PreToolUse", "UserPromptSubmit"])

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value)

const warn = (line) => {
  try {
    process.stderr.write(`[${PLUGIN}] ${line}\n`)
  } catch {}
}

const doctorHint = () => `run \`agent-hooks doctor --host ${CONFIG.host}\` to see why`

/**
 * Runs host mode on one event: `{ kind: "answer", json }`, or `{ kind: "failed", reason }` when it
 * could not judge. The payload goes on stdin; the project folder is given as the agent's variable.
 */
const runHostMode = (payload, cwd) =>
  new Promise((resolve) => {
    let child
    let settled = false
    const done = (result) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const env = { ...process.env }
    // a folder that is not there fails the spawn itself (ENOENT, naming the shell): host mode then
    // starts in the agent's own folder, and finds the project from the variable
    const folder = typeof cwd === "string" && cwd !== "" && existsSync(cwd) ? cwd : undefined
    if (folder !== undefined) env[CONFIG.projectDirEnv] = folder
    try {
      child = spawn(CONFIG.command, {
        shell: true,
        cwd: folder,
        env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true
      })
    } catch (error) {
      resolve({ kind: "failed", reason: `agent-hooks could not start (${error?.message ?? error})` })
      return
    }
    const stdout = []
    const stderr = []
    // host mode keeps within --timeout; past it (and a grace) the call is not judged
    const timer = setTimeout(
      () => {
        try {
          if (process.platform !== "win32" && child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
          else child.kill("SIGKILL")
        } catch {}
        done({ kind: "failed", reason: `agent-hooks did not answer within ${CONFIG.timeout + 5} s` })
      },
      (CONFIG.timeout + 5) * 1000
    )
    child.stdout.on("data", (chunk) => stdout.push(chunk))
    child.stderr.on("data", (chunk) => stderr.push(chunk))
    child.on("error", (error) => done({ kind: "failed", reason: `agent-hooks could not start (${error?.message ?? error})` }))
    child.on("close", (code, signal) => {
      const out = Buffer.concat(stdout).toString("utf8")
      const err = Buffer.concat(stderr).toString("utf8").trim()
      if (err !== "" && code === 0) warn(err)
      // exit 2 blocks, as for a command hook (the reason on stderr)
      if (code === 2) return done({ kind: "answer", json: { decision: "block", reason: err === "" ? "blocked by agent-hooks" : err } })
      if (code !== 0)
        return done({
          kind: "failed",
          reason: `agent-hooks failed (${signal === null ? `exit ${code}` : `killed by ${signal}`})${err === "" ? "" : `: ${err}`}`
        })
      if (out.trim() === "") return done({ kind: "answer", json: {} })
      try {
        const json = JSON.parse(out)
        if (isObject(json)) return done({ kind: "answer", json })
      } catch {}
      done({ kind: "failed", reason: `agent-hooks answered something that is not a JSON object: ${out.trim().slice(0, 200)}` })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })

/**
 * Host mode's answer to one event, as what the plugin does: `{ block }` (the reason), `{ input }`
 * (the rewritten input), `context`, or nothing. A failure blocks a guarding event and is a warning
 * on the others.
 */
const judge = async (payload, cwd) => {
  const event = payload.hook_event_name
  // `events` in the config (written by hand) leaves the others out; install writes none: every event
  if (Array.isArray(CONFIG.events) && !CONFIG.events.includes(event)) return {}
  const result = await runHostMode(payload, cwd)
  if (result.kind === "failed") {
    const reason = `${PLUGIN}: ${result.reason}; ${doctorHint()}`
    if (GUARDS.has(event)) return { block: reason }
    warn(`${event}: ${reason}`)
    return {}
  }
  const json = result.json
  if (typeof json.systemMessage === "string" && json.systemMessage !== "") warn(json.systemMessage)
  if (json.continue === false) warn(`agent-hooks asks to stop${typeof json.stopReason === "string" ? `: ${json.stopReason}` : ""}`)
  const context = typeof json.additionalContext === "string" && json.additionalContext !== "" ? json.additionalContext : undefined
  if (json.decision === "block" || json.decision === "deny") {
    const reason = typeof json.reason === "string" && json.reason !== "" ? json.reason : "blocked by agent-hooks"
    return { block: reason, context }
  }
  if (isObject(json.updatedInput)) return { input: json.updatedInput, context }
  return { context }
}

/** Replaces the fields of `target` (the agent's own argument object, which it runs) with `input`'s. */
const rewrite = (target, input) => {
  for (const key of Object.keys(target)) if (!Object.hasOwn(input, key)) delete target[key]
  Object.assign(target, input)
}

const blockedText = (reason) => `Blocked by agent-hooks: ${reason}`

// ---- pi (`export default function (pi)`: `pi.on(event, handler)`) ----

const piExtension = (pi) => {
  let pendingContext = []
  let stopActive = false
  const common = (ctx, event) => ({
    session_id: ctx?.sessionManager?.getSessionId?.() ?? "pi",
    cwd: ctx?.cwd ?? process.cwd(),
    hook_event_name: event
  })
  pi.on("session_start", async (event, ctx) => {
    const answer = await judge({ ...common(ctx, "SessionStart"), source: event?.reason ?? "startup" }, ctx?.cwd)
    if (answer.context !== undefined) pendingContext.push(answer.context)
  })
  pi.on("input", async (event, ctx) => {
    stopActive = false
    const answer = await judge({ ...common(ctx, "UserPromptSubmit"), prompt: event?.text ?? "" }, ctx?.cwd)
    if (answer.block !== undefined) {
      warn(`prompt blocked: ${answer.block}`)
      if (ctx?.hasUI) ctx.ui?.notify?.(blockedText(answer.block), "error")
      return { action: "handled" }
    }
    const context = [...pendingContext, ...(answer.context === undefined ? [] : [answer.context])]
    pendingContext = []
    if (context.length === 0) return { action: "continue" }
    return { action: "transform", text: `${event?.text ?? ""}\n\n${context.join("\n\n")}`, images: event?.images }
  })
  pi.on("tool_call", async (event, ctx) => {
    const answer = await judge(
      {
        ...common(ctx, "PreToolUse"),
        tool_name: event.toolName,
        tool_input: isObject(event.input) ? event.input : {},
        tool_use_id: event.toolCallId
      },
      ctx?.cwd
    )
    if (answer.block !== undefined) return { block: true, reason: blockedText(answer.block) }
    if (answer.input !== undefined && isObject(event.input)) rewrite(event.input, answer.input)
    return undefined
  })
  pi.on("tool_result", async (event, ctx) => {
    const text = Array.isArray(event.content)
      ? event.content
          .filter((part) => part?.type === "text")
          .map((part) => part.text)
          .join("\n")
      : ""
    const answer = await judge(
      {
        ...common(ctx, "PostToolUse"),
        tool_name: event.toolName,
        tool_input: isObject(event.input) ? event.input : {},
        tool_use_id: event.toolCallId,
        tool_response: { output: text, is_error: event.isError === true }
      },
      ctx?.cwd
    )
    const added = [answer.block, answer.context].filter((line) => line !== undefined)
    if (added.length === 0) return undefined
    return { content: [...(Array.isArray(event.content) ? event.content : []), { type: "text", text: added.join("\n\n") }] }
  })
  pi.on("agent_end", async (_event, ctx) => {
    const answer = await judge({ ...common(ctx, "Stop"), stop_hook_active: stopActive }, ctx?.cwd)
    if (answer.block === undefined) return
    // Stop's block keeps the agent going, once, with the reason as the next message
    if (stopActive) return warn(`Stop: ${answer.block} (not continued: the agent already continued once)`)
    stopActive = true
    try {
      pi.sendUserMessage(answer.block, { deliverAs: "followUp" })
    } catch (error) {
      // print mode (`pi -p`) has ended the run by the time the answer comes
      warn(`Stop: ${answer.block} (not continued: pi ended the run: ${error?.message ?? error})`)
    }
  })
  pi.on("session_shutdown", async (event, ctx) => {
    await judge({ ...common(ctx, "SessionEnd"), reason: event?.reason ?? "quit" }, ctx?.cwd)
  })
}

// ---- opencode and Kilo (`async ({ directory, ... }) => hooks`) ----

/** The text of a user message's parts. */
const promptOf = (parts) =>
  Array.isArray(parts)
    ? parts
        .filter((part) => part?.type === "text" && part.synthetic !== true)
        .map((part) => part.text)
        .join("\n")
    : ""

const opencodePlugin = async (input) => {
  const cwd = input?.directory ?? input?.worktree ?? process.cwd()
  const common = (sessionID, event) => ({ session_id: sessionID ?? "opencode", cwd, hook_event_name: event })
  const pre = async (sessionID, callID, tool, args) => {
    const answer = await judge(
      { ...common(sessionID, "PreToolUse"), tool_name: tool, tool_input: isObject(args) ? args : {}, tool_use_id: callID },
      cwd
    )
    if (answer.block !== undefined) return answer.block
    if (answer.input !== undefined && isObject(args)) rewrite(args, answer.input)
    return undefined
  }
  return {
    "tool.execute.before": async (call, output) => {
      const args = output?.args
      // the batch tool runs its calls without this hook (anomalyco/opencode#5894): each one is judged
      // here, and the batch runs only when none is blocked
      if (call.tool === "batch" && isObject(args) && Array.isArray(args.tool_calls)) {
        for (const [at, inner] of args.tool_calls.entries()) {
          if (!isObject(inner)) continue
          const name = typeof inner.tool === "string" ? inner.tool : "(unnamed)"
          if (!isObject(inner.parameters)) inner.parameters = {}
          const reason = await pre(call.sessionID, `${call.callID}#${at}`, name, inner.parameters)
          if (reason !== undefined) throw new Error(blockedText(`${name} (call ${at + 1} of the batch): ${reason}`))
        }
        return
      }
      const reason = await pre(call.sessionID, call.callID, call.tool, args)
      if (reason !== undefined) throw new Error(blockedText(reason))
    },
    "tool.execute.after": async (call, output) => {
      const answer = await judge(
        {
          ...common(call.sessionID, "PostToolUse"),
          tool_name: call.tool,
          tool_input: isObject(call.args) ? call.args : {},
          tool_use_id: call.callID,
          tool_response: { output: typeof output?.output === "string" ? output.output : "" }
        },
        cwd
      )
      const added = [answer.block, answer.context].filter((line) => line !== undefined)
      if (added.length > 0 && isObject(output)) output.output = `${output.output ?? ""}\n\n${added.join("\n\n")}`
    },
    "chat.message": async (message, output) => {
      const answer = await judge({ ...common(message?.sessionID, "UserPromptSubmit"), prompt: promptOf(output?.parts) }, cwd)
      if (answer.block !== undefined) {
        // opencode shows a plugin's error here as "Unexpected server error": the reason goes to stderr too
        warn(`prompt blocked: ${answer.block}`)
        throw new Error(blockedText(answer.block))
      }
      if (answer.context === undefined || !Array.isArray(output?.parts)) return
      const last = output.parts.findLast((part) => part?.type === "text")
      if (last !== undefined) last.text = `${last.text}\n\n${answer.context}`
    },
    event: async ({ event }) => {
      const sessionID = event?.properties?.sessionID ?? event?.properties?.info?.id
      if (event?.type === "session.created") await judge({ ...common(sessionID, "SessionStart"), source: "startup" }, cwd)
      else if (event?.type === "session.idle") {
        const answer = await judge({ ...common(sessionID, "Stop"), stop_hook_active: false }, cwd)
        if (answer.block !== undefined) warn(`Stop: ${answer.block} (not continued: the plugin cannot keep ${CONFIG.host} going)`)
      }
    }
  }
}

/** pi calls the default export with its API (`on`); opencode and Kilo call it with their plugin input. */
export default function agentHooks(api) {
  if (typeof api?.on === "function") return piExtension(api)
  return opencodePlugin(api)
}
