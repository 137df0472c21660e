/**
 * Claude Code as a host (`agent-hooks hook --host claude`). Its names are the policy's own: events,
 * tools and fields pass unchanged. What it reads back:
 * - a block: exit 2 with the reason on stderr (a block even when Claude Code refuses the JSON), and
 *   the same reason in the JSON Claude Code prefers (`permissionDecision: "deny"` on PreToolUse,
 *   `decision: "block"` where the event has one), so the model is told the reason, not "hook error";
 *   but exit 0 with that JSON when Copilot CLI runs Claude Code's settings file (its payload has a
 *   `timestamp` and no `transcript_path`, which Claude Code always sends): on exit 2 Copilot CLI
 *   tells the model only "hook exited with code 2", while it reads the JSON deny with its reason.
 *   VS Code, which runs those files too, sends its own payload and is answered as VS Code;
 * - exit 0 with JSON otherwise: `ask`, `defer`, `allow` with `updatedInput`, `additionalContext`,
 *   `systemMessage`, `continue: false`; only fields of the right type (a `null` anywhere makes Claude
 *   Code drop the whole answer).
 */
import type { Agent, Answer, HostCall, HostReply } from "../../../HostModel.ts"
import { catalog } from "../../hookEvent.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"

const specificOf = new Map(catalog.map((spec) => [spec.name, spec.specificOutput]))

/** Copilot CLI running Claude Code's settings file: its payload names a `timestamp` and no `transcript_path` (Claude Code always sends one). @internal */
export const copilotCaller = (payload: Readonly<Record<string, unknown>> | undefined): boolean =>
  payload !== undefined && !Object.hasOwn(payload, "transcript_path") && typeof payload["timestamp"] === "string"

const render = (answer: Answer, _hostEvent: string, call?: HostCall): HostReply => {
  const json = claudeJson(answer, {
    specificFields: specificOf.get(answer.event) ?? [],
    universal: ["continue", "systemMessage", "decision"],
    allowWithoutRewrite: true
  })
  const stdout = jsonLine(json)
  // Copilot CLI reads a PreToolUse JSON deny with its reason (measured), and drops the reason of an exit 2
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined
  const jsonBlocks =
    answer.block !== undefined &&
    answer.event === "PreToolUse" &&
    specific?.["permissionDecision"] === "deny" &&
    copilotCaller(call?.payload)
  return answer.block !== undefined && !jsonBlocks
    ? { exitCode: 2, stdout, stderr: stderrOf(answer, true) }
    : { exitCode: 0, stdout, stderr: stderrOf(answer, false) }
}

/** @internal */
export const claude: Agent = {
  name: "claude",
  displayName: "Claude Code",
  projectDirEnv: ["CLAUDE_PROJECT_DIR"],
  hookTimeout: 600,
  events: Object.fromEntries(catalog.map((spec) => [spec.name, spec.name])),
  ownEvents: [],
  toolNames: [],
  tools: [],
  askDefault: "host",
  canAsk: true,
  canRewrite: true,
  render
}
