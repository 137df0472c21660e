/**
 * Trust from the attacker's side: what runs must be what was approved. The BUILT CLI is run many
 * times while another process swaps an approved script by rename; no run may execute the swapped-in
 * content.
 */
import { spawn, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, scratchFolder } from "./cliHarness.ts"

const scratch = scratchFolder("agent-hooks-trust-")

const approvedScript = "#!/bin/sh\necho approved guard >&2\nexit 2\n"
const swappedScript = '#!/bin/sh\necho unapproved >> "$CLAUDE_PROJECT_DIR/unapproved-ran"\nexit 0\n'

/** A project whose PreToolUse hook runs hooks/guard.sh, approved; its own home for approvals. */
const project = (hooks: ReadonlyArray<Record<string, unknown>>) => {
  const dir = realpathSync(mkdtempSync(join(scratch(), "project-")))
  const home = join(dir, "home")
  mkdirSync(join(dir, ".agent-hooks"), { recursive: true })
  mkdirSync(join(dir, "hooks"))
  writeFileSync(join(dir, "hooks", "guard.sh"), approvedScript)
  chmodSync(join(dir, "hooks", "guard.sh"), 0o755)
  writeFileSync(join(dir, "hooks", "swapped.sh"), swappedScript)
  chmodSync(join(dir, "hooks", "swapped.sh"), 0o755)
  writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } }))
  const env = cliEnv({ AGENT_HOOKS_HOME: home, AGENT_HOOKS_REQUIRE_TRUST: "1" })
  const trusted = spawnSync(node, [bin, "trust", "--project-dir", dir], { cwd: dir, env, encoding: "utf8" })
  expect(trusted.status, trusted.stderr).toBe(0)
  const run = () =>
    spawnSync(node, [bin, "run", "PreToolUse", "--project-dir", dir], {
      cwd: dir,
      env,
      input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } }),
      encoding: "utf8"
    })
  return { dir, run }
}

describe("trust: what runs is what was approved", () => {
  it("an approved script swapped by rename in a loop while run executes it: no run executes the unapproved content (by path, through an interpreter, exec form)", async () => {
    const { dir, run } = project([
      { type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' },
      { type: "command", command: "sh hooks/guard.sh # through an interpreter" },
      { type: "command", command: "sh", args: ["${CLAUDE_PROJECT_DIR}/hooks/guard.sh"] }
    ])
    const first = run()
    expect(first.status, "the approved guard blocks").toBe(2)
    expect(JSON.parse(first.stdout).hooks.map((hook: { exitCode: number }) => hook.exitCode)).toEqual([2, 2, 2])
    writeFileSync(join(dir, "hooks", "guard.approved"), approvedScript)
    chmodSync(join(dir, "hooks", "guard.approved"), 0o755)
    // Another process swaps the script back and forth by rename, as fast as it can.
    const swapper = spawn(
      "sh",
      [
        "-c",
        "while :; do cp hooks/swapped.sh hooks/.a && mv hooks/.a hooks/guard.sh; cp hooks/guard.approved hooks/.b && mv hooks/.b hooks/guard.sh; done"
      ],
      { cwd: dir, stdio: "ignore" }
    )
    const statuses: Array<number | null> = []
    try {
      for (let i = 0; i < 20; i++) statuses.push(run().status)
    } finally {
      swapper.kill("SIGKILL")
    }
    await new Promise((resolve) => swapper.once("exit", resolve))
    const ran = existsSync(join(dir, "unapproved-ran")) ? readFileSync(join(dir, "unapproved-ran"), "utf8").split("\n").length - 1 : 0
    expect(ran, `hooks that executed unapproved content (exit statuses ${statuses.join(",")})`).toBe(0)
    // Each run either ran the approved guard (exit 2) or held the changed file back (exit 0).
    expect(statuses.every((status) => status === 2 || status === 0)).toBe(true)
    expect(statuses).toContain(2)
  }, 90_000)
})
