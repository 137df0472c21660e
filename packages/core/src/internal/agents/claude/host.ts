/**
 * Claude Code as a host (`agent-hooks hook --host claude`). Its names are the policy's own: events,
 * tools and fields pass unchanged. What it reads back:
 * - a block: exit 2 with the reason on stderr (a block even when Claude Code refuses the JSON), and
 *   the same reason in the JSON Claude Code prefers (`permissionDecision: "deny"` on PreToolUse,
 *   `decision: "block"` where the event has one), so the model is told the reason, not "hook error";
 * - exit 0 with JSON otherwise: `ask`, `defer`, `allow` with `updatedInput`, `additionalContext`,
 *   `systemMessage`, `continue: false`; only fields of the right type (a `null` anywhere makes Claude
 *   Code drop the whole answer).
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { catalog } from "../../hookEvent.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"

const specificOf = new Map(catalog.map((spec) => [spec.name, spec.specificOutput]))

const render = (answer: Answer): HostReply => {
  const stdout = jsonLine(
    claudeJson(answer, {
      specificFields: specificOf.get(answer.event) ?? [],
      universal: ["continue", "systemMessage", "decision"],
      allowWithoutRewrite: true
    })
  )
  return answer.block !== undefined
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
