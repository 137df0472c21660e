/**
 * `hook --host factory|codebuddy|auggie` through the BUILT CLI, with the payloads the real agents
 * sent (recorded: packages/core/test/fixtures/hosts/<agent>.json) and a policy in Claude Code's names
 * run by real hook processes: each answer is read as the agent reads it. Droid, CodeBuddy Code and
 * Auggie run a call answered `ask` headless, so an ask must come back as a deny that says approval
 * is needed; a rewrite is the whole input; each block is in the form its agent honours.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const recorded = (agent: string): ReadonlyArray<Record<string, any>> =>
  JSON.parse(readFileSync(new URL(`../../core/test/fixtures/hosts/${agent}.json`, import.meta.url), "utf8"))

/** The agent's recorded payload of `event`, its shell command set to `command`. */
const payload = (agent: string, event: string, command?: string): Record<string, any> => {
  const found = recorded(agent).find((p) => p["hook_event_name"] === event)
  if (found === undefined) throw new Error(`no ${event} payload recorded for ${agent}`)
  return command === undefined ? found : { ...found, tool_input: { ...found["tool_input"], command } }
}

const box = projectsWithHome("agent-hooks-host-clones-")

/** A policy in Claude Code's names: what each PreToolUse Bash call is answered, by its command. */
const POLICY = [
  "c=$(cat)",
  `case "$c" in`,
  `  *"rm -rf"*) echo "no rm -rf here" >&2; exit 2 ;;`,
  `  *"git push"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"pushing needs a human"}}' ;;`,
  `  *"touch MARKER"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch REWRITTEN"}}}' ;;`,
  "esac",
  "exit 0"
].join("\n")

const setup = () => {
  const b = box()
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: POLICY }] }],
      Stop: [{ hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"run the tests first"}'` }] }]
    }
  })
  const hook = (host: string, stdin: Record<string, unknown>, ...extra: Array<string>) =>
    runCli(["hook", "--host", host, ...extra], { cwd: b.dir, stdin: JSON.stringify(stdin), env: cliEnv({ HOME: b.home }), timeout: 30_000 })
  return { ...b, hook }
}

const json = (text: string): any => JSON.parse(text)

describe.each(["factory", "codebuddy", "auggie"])("hook --host %s, with the payloads the real agent sent", (host) => {
  it("a deny blocks: exit 2 with the reason where the agent reads it (CodeBuddy: stdout first)", () => {
    const t = setup()
    const reply = t.hook(host, payload(host, "PreToolUse", "rm -rf /"))
    expect(reply.status, reply.stderr).toBe(2)
    expect(reply.stderr).toContain("no rm -rf here")
    // CodeBuddy gives the model stdout's message on exit 2, stderr only when stdout is empty
    expect(reply.stdout).toBe(host === "codebuddy" ? "no rm -rf here\n" : "")
  })

  it("an ask is a deny that says approval is needed (the agent runs an asked call headless); --ask host passes the ask on", () => {
    const t = setup()
    const reply = t.hook(host, payload(host, "PreToolUse", "git push"))
    expect(reply.status, reply.stderr).toBe(2)
    expect(reply.stderr).toContain("approval needed: pushing needs a human")
    const passed = t.hook(host, payload(host, "PreToolUse", "git push"), "--ask", "host")
    expect(passed.status, passed.stderr).toBe(0)
    expect(json(passed.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "ask",
      permissionDecisionReason: "pushing needs a human"
    })
  })

  it("a rewrite is applied: the whole input, the agent's own fields kept, in its tool's names", () => {
    const t = setup()
    const original = payload(host, "PreToolUse", "touch MARKER")
    const reply = t.hook(host, original)
    expect(reply.status, reply.stderr).toBe(0)
    const specific = json(reply.stdout).hookSpecificOutput
    expect(specific).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "allow" })
    expect(specific.updatedInput).toEqual({ ...original["tool_input"], command: "touch REWRITTEN" })
  })

  it("an allowed call passes with nothing to read", () => {
    const t = setup()
    const reply = t.hook(host, payload(host, "PreToolUse", "ls"))
    expect(reply.status, reply.stderr).toBe(0)
    expect(reply.stdout).toBe("")
  })

  it("a policy that cannot be read blocks the call, naming the file", () => {
    const t = setup()
    t.put(join(t.home, ".agent-hooks", "settings.json"), "{ not json")
    const reply = t.hook(host, payload(host, "PreToolUse", "ls"))
    expect(reply.status).toBe(2)
    expect(reply.stderr).toContain(join(t.home, ".agent-hooks", "settings.json"))
  })
})

describe("each agent's Stop block, in the form it reads", () => {
  it("Droid: exit 2 with the reason on stderr, never the decision field it ignores", () => {
    const reply = setup().hook("factory", payload("factory", "Stop"))
    expect(reply.status).toBe(2)
    expect(reply.stdout).not.toContain("decision")
    expect(reply.stderr).toContain("run the tests first")
  })

  it("CodeBuddy Code: exit 2 with the reason on stdout", () => {
    const reply = setup().hook("codebuddy", payload("codebuddy", "Stop"))
    expect(reply).toMatchObject({ status: 2, stdout: "run the tests first\n" })
  })

  it("Auggie: hookSpecificOutput with decision block (exit 2 does not block there)", () => {
    const reply = setup().hook("auggie", payload("auggie", "Stop"))
    expect(reply.status, reply.stderr).toBe(0)
    expect(json(reply.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: "run the tests first" } })
  })
})
