/**
 * `migrate` through the BUILT CLI with real hook processes: one sample per family of dialect pairs.
 * The properties over every dialect and every pair are in-process (packages/node/test/Migrate.test.ts
 * for the canonical round trip, MigrateMatrix.test.ts for `--to`); here the CLI itself is run:
 * - to the canonical format (a seed dialect, Gemini CLI): `run --preset X --settings <original>` and
 *   `run --settings <migrated>` give the same exit status and outcome;
 * - to another agent through host mode (Claude Code → Cursor, → Cline): the written command, fed
 *   the agent's own payload, answers in the agent's format, and the hook sees Claude Code's payload;
 * - refused (Gemini CLI → Cursor), and `--lossy`; a seed dialect as a target; never over an existing
 *   file without `--force`, never through a folder that leads out of the project.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { cliEnv, runCli, scratchFolder } from "./cliHarness.ts"

const behave = fileURLToPath(new URL("./fixtures/behave.sh", import.meta.url))
const scratch = scratchFolder("agent-hooks-cli-migrate-")
let count = 0
/** A fresh project folder with its own HOME. */
const project = (files: Record<string, string>): string => {
  const dir = join(scratch(), `p${count++}`)
  mkdirSync(join(dir, "home"), { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}
const envOf = (dir: string, extra: Record<string, string> = {}) => cliEnv({ HOME: join(dir, "home"), ...extra })
const cli = (dir: string, args: ReadonlyArray<string>, stdin = "") => runCli(args, { cwd: dir, env: envOf(dir), stdin })

const comparable = (stdout: string) => {
  const outcome = JSON.parse(stdout)
  return {
    ...outcome,
    hooks: outcome.hooks.map(({ source: _s, durationMs: _d, ...hook }: Record<string, unknown>) => hook),
    warnings: outcome.warnings.length
  }
}
const handler = (exit: number, out: number, err: number) => ({ type: "command", command: `sh ${behave} ${exit} ${out} ${err}` })

/** The original under its preset and the migrated canonical file give the same outcome for each dispatch. */
const sameOutcomes = (
  preset: string,
  config: unknown,
  dispatches: ReadonlyArray<{ readonly event: string; readonly name?: string; readonly payload: unknown }>
) => {
  const dir = project({ "original.json": JSON.stringify(config) })
  const migration = cli(dir, ["migrate", "--from", preset, "--settings", "original.json", "--write", "migrated.json"])
  expect(migration.status, migration.stderr).toBe(0)
  for (const { event, name, payload } of dispatches) {
    const before = cli(dir, ["run", event, "--preset", preset, "--settings", "original.json"], JSON.stringify(payload))
    const after = cli(dir, ["run", name ?? event, "--settings", "migrated.json"], JSON.stringify(payload))
    expect(after.status, `${event} ${JSON.stringify(payload)}`).toBe(before.status)
    expect({ ...comparable(after.stdout), event }).toEqual(comparable(before.stdout))
  }
}

const tool = (tool_name: string, command: string) => ({ tool_name, tool_input: { command }, transcript_path: "/t.json" })

describe("migrate to the canonical format, through the CLI (real processes)", () => {
  it("Wingman: PostToolUse and Stop exit 2 does not block; the migrated file agrees", () => {
    sameOutcomes(
      "wingman",
      {
        hooks: {
          PreToolUse: [
            { matcher: "write_file", hooks: [handler(2, 0, 1)] },
            { matcher: "*", hooks: [handler(0, 5, 0)] }
          ],
          PostToolUse: [{ hooks: [handler(2, 0, 1)] }],
          Stop: [{ hooks: [handler(2, 2, 0)] }]
        }
      },
      [
        { event: "PreToolUse", payload: tool("write_file", "ls") },
        { event: "PreToolUse", payload: tool("Bash", "ls") },
        { event: "PostToolUse", payload: tool("Bash", "ls") },
        { event: "Stop", payload: { transcript_path: "/t.json" } }
      ]
    )
  })

  it("Gemini CLI: exit 2 blocks with stderr, other exits warn; the migrated file keeps BeforeTool and its rules", () => {
    sameOutcomes(
      "gemini",
      {
        hooks: {
          BeforeTool: [{ matcher: "write_.*|Bash", hooks: [{ ...handler(2, 0, 1), name: "lint" }, handler(3, 1, 1)] }],
          AfterAgent: [{ hooks: [handler(0, 2, 0)] }]
        }
      },
      [
        { event: "BeforeTool", payload: { ...tool("write_file", "ls"), timestamp: "2026-01-01T00:00:00.000Z" } },
        { event: "BeforeTool", payload: { ...tool("Edit", "ls"), timestamp: "2026-01-01T00:00:00.000Z" } },
        { event: "AfterAgent", payload: { transcript_path: "/t.json", timestamp: "2026-01-01T00:00:00.000Z" } }
      ]
    )
  })
})

/** A hook that writes the payload it got beside itself, and blocks `git push` (exit 2, reason on stderr). */
const GUARD = `#!/bin/sh
cat > "$(dirname "$0")/seen.json"
grep -q 'git push' "$(dirname "$0")/seen.json" && { echo "no push" >&2; exit 2; }
exit 0
`

/** A Claude Code project guarding Bash with GUARD, migrated --to `agent` (written). */
const guarded = (agent: string) => {
  const dir = project({
    ".claude/settings.json": JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh ./guard.sh", timeout: 10 }] }] }
    }),
    "guard.sh": GUARD
  })
  const migration = cli(dir, ["migrate", "--from", "claude", "--to", agent, "--write", ".agent-hooks/settings.json"])
  expect(migration.status, migration.stderr).toBe(0)
  return { dir, migration }
}

describe("migrate --to an agent, through the CLI (host mode, real processes)", () => {
  it("Claude Code → Cursor: Cursor's hooks.json calls host mode; a Cursor payload is denied in Cursor's format, and the hook saw Claude Code's payload", () => {
    const { dir, migration } = guarded("cursor")
    expect(migration.stderr).toContain(`wrote ${join(dir, ".cursor", "hooks.json")}`)
    const cursor = JSON.parse(readFileSync(join(dir, ".cursor", "hooks.json"), "utf8"))
    expect(Object.keys(cursor.hooks)).toEqual(["preToolUse"])
    const entry = cursor.hooks.preToolUse[0]
    expect(entry).toMatchObject({ failClosed: true })
    expect(entry.timeout).toBeGreaterThan(10)
    expect(entry.command).toMatch(/ hook --host cursor --timeout \d+$/)
    // Cursor runs the command from its hooks.json folder, with the project in CURSOR_PROJECT_DIR
    const call = (command: string) =>
      spawnSync("sh", ["-c", entry.command], {
        cwd: join(dir, ".cursor"),
        env: envOf(dir, { CURSOR_PROJECT_DIR: dir }),
        input: JSON.stringify({
          hook_event_name: "preToolUse",
          conversation_id: "c1",
          generation_id: "g1",
          tool_name: "Shell",
          tool_input: { command },
          workspace_roots: [dir]
        }),
        encoding: "utf8"
      })
    const denied = call("git push origin main")
    expect(denied.status, denied.stderr).toBe(2)
    expect(JSON.parse(denied.stdout)).toMatchObject({ permission: "deny", agent_message: expect.stringContaining("no push") })
    const seen = JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"))
    expect(seen).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push origin main" } })
    const allowed = call("ls")
    expect(allowed.status, allowed.stderr).toBe(0)
  })

  it("Claude Code → Cline: one executable per event; a Cline payload is cancelled with Cline's answer (exit 0)", () => {
    const { dir } = guarded("cline")
    const script = join(dir, ".clinerules", "hooks", "PreToolUse")
    expect(statSync(script).mode & 0o111).not.toBe(0)
    const run = spawnSync(script, [], {
      cwd: dir,
      env: envOf(dir),
      input: JSON.stringify({
        clineVersion: "3.36.0",
        hookName: "PreToolUse",
        timestamp: "1",
        taskId: "t1",
        workspaceRoots: [dir],
        userId: "u",
        preToolUse: { toolName: "execute_command", parameters: { command: "git push" } }
      }),
      encoding: "utf8"
    })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ cancel: true, errorMessage: expect.stringContaining("no push") })
  })

  /** A hook that reads only `fields` of its own agent's payload (grep on stdin) and answers in that agent's format. */
  const agentHook = (dir: string, name: string, fields: ReadonlyArray<string>, deny: string) => {
    const path = join(dir, name)
    writeFileSync(
      path,
      `#!/bin/sh\ninput=$(cat)\nfor f in ${fields.map((field) => `'${field}'`).join(" ")}; do case "$input" in *"$f"*) ;; *) echo '{"decision":"allow"}'; exit 0;; esac; done\n${deny}\n`
    )
    chmodSync(path, 0o755)
    return path
  }
  /** Runs a command the agent's config holds, as the agent does: `sh -c`, the payload on stdin. */
  const runEntry = (dir: string, command: string, payload: unknown, env: Record<string, string> = {}) =>
    spawnSync("sh", ["-c", command], { cwd: dir, env: envOf(dir, env), input: JSON.stringify(payload), encoding: "utf8" })

  it("Gemini CLI → Cursor: the Gemini hook keeps Gemini CLI's payload (BeforeTool, run_shell_command, timestamp) and its answer; it blocks and allows as under Gemini CLI", () => {
    const dir = project({})
    const guard = agentHook(
      dir,
      "guard.sh",
      ['"hook_event_name":"BeforeTool"', '"tool_name":"run_shell_command"', '"timestamp":"', "git push"],
      `echo '{"decision":"deny","reason":"gemini guard: no push"}'`
    )
    mkdirSync(join(dir, ".gemini"))
    writeFileSync(
      join(dir, ".gemini", "settings.json"),
      JSON.stringify({
        hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: guard, timeout: 5000 }] }] }
      })
    )
    const migration = cli(dir, ["migrate", "--from", "gemini", "--to", "cursor", "--write", ".agent-hooks/settings.json"])
    expect(migration.status, migration.stderr).toBe(0)
    expect(migration.stderr).toContain("the hooks keep Gemini CLI's payload")
    const entry = JSON.parse(readFileSync(join(dir, ".cursor", "hooks.json"), "utf8")).hooks.preToolUse[0]
    expect(entry.command).toMatch(/ hook --host cursor --payload gemini --timeout \d+$/)
    const cursor = (command: string) => ({
      hook_event_name: "preToolUse",
      conversation_id: "c1",
      generation_id: "g1",
      tool_name: "Shell",
      tool_input: { command },
      workspace_roots: [dir]
    })
    const denied = runEntry(join(dir, ".cursor"), entry.command, cursor("git push origin main"), { CURSOR_PROJECT_DIR: dir })
    expect(denied.status, denied.stderr).toBe(2)
    expect(JSON.parse(denied.stdout)).toMatchObject({ permission: "deny", agent_message: expect.stringContaining("gemini guard: no push") })
    expect(runEntry(join(dir, ".cursor"), entry.command, cursor("ls"), { CURSOR_PROJECT_DIR: dir }).status).toBe(0)
    // the same hook under Gemini CLI (its own config, its own payload) decides the same
    const gemini = (command: string) =>
      cli(
        dir,
        ["hook", "--host", "gemini", "--preset", "gemini"],
        JSON.stringify({
          hook_event_name: "BeforeTool",
          session_id: "s",
          cwd: dir,
          tool_name: "run_shell_command",
          tool_input: { command },
          timestamp: "2026-01-01T00:00:00.000Z"
        })
      )
    expect(gemini("git push origin main").stdout).toContain('"decision":"deny"')
    expect(gemini("ls").stdout).not.toContain('"decision":"deny"')
  })

  it("Windsurf → Claude Code: the Windsurf hook (exit 2 on pre_run_command, tool_info.command_line) blocks Claude Code's Bash call; other tools do not reach it", () => {
    const dir = project({})
    const guard = agentHook(
      dir,
      "guard.sh",
      ['"agent_action_name":"pre_run_command"', '"command_line":"git push'],
      `echo "windsurf guard: no push" >&2; exit 2`
    )
    mkdirSync(join(dir, ".windsurf"))
    writeFileSync(
      join(dir, ".windsurf", "hooks.json"),
      JSON.stringify({ hooks: { pre_run_command: [{ command: guard }], pre_read_code: [{ command: guard }] } })
    )
    const migration = cli(dir, ["migrate", "--from", "windsurf", "--to", "claude", "--write", ".agent-hooks/settings.json"])
    expect(migration.status, migration.stderr).toBe(0)
    const entry = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).hooks.PreToolUse[0].hooks[0]
    expect(entry.command).toContain("hook --host claude --payload windsurf")
    const claude = (tool_name: string, tool_input: unknown) =>
      runEntry(
        dir,
        entry.command,
        { hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name, tool_input },
        { CLAUDE_PROJECT_DIR: dir }
      )
    const denied = claude("Bash", { command: "git push origin main" })
    expect(denied.status, denied.stderr).toBe(2)
    expect(denied.stdout + denied.stderr).toContain("windsurf guard: no push")
    expect(claude("Bash", { command: "ls" }).status).toBe(0)
    expect(claude("Read", { file_path: join(dir, "a") }).status).toBe(0)
  })

  it("Gemini CLI → Claude Code refuses per hook (file, JSON path, why) what has no counterpart (BeforeModel); --lossy writes the bare command with a note; nothing is written without --write", () => {
    const dir = project({
      ".gemini/settings.json": JSON.stringify({
        hooks: { BeforeModel: [{ hooks: [{ type: "command", command: "./guard.sh", timeout: 5000 }] }] }
      })
    })
    const refused = cli(dir, ["migrate", "--from", "gemini", "--to", "claude", "--write", ".agent-hooks/settings.json"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      `cannot migrate: ${join(dir, ".gemini", "settings.json")} at hooks.BeforeModel[0].hooks[0] (BeforeModel): BeforeModel is gemini's own event with no counterpart`
    )
    expect(refused.stderr).toContain("pass --lossy")
    expect(existsSync(join(dir, ".claude"))).toBe(false)
    const lossy = cli(dir, ["migrate", "--from", "gemini", "--to", "claude", "--lossy"])
    expect(lossy.status, lossy.stderr).toBe(0)
    expect(lossy.stderr).toMatch(/note: .*BeforeModel\[0\]\.hooks\[0\] \(BeforeModel\): Claude Code has no event for it; left out/)
    expect(existsSync(join(dir, ".claude"))).toBe(false)
  })

  it("a seed dialect is read, never written; --from and --to the same agent is refused", () => {
    const dir = project({ ".claude/settings.json": JSON.stringify({ hooks: {} }) })
    const seed = cli(dir, ["migrate", "--from", "claude", "--to", "wingman"])
    expect(seed.status).toBe(1)
    expect(seed.stderr).toContain("--to wingman: agent-hooks reads wingman's config (--from wingman) but has no host mode for it")
    const same = cli(dir, ["migrate", "--from", "claude", "--to", "claude"])
    expect(same.status).toBe(1)
    expect(same.stderr).toContain("--from and --to are both claude")
  })

  it("never over an existing file without --force, never through a folder that leads out of the project", () => {
    const dir = project({
      ".claude/settings.json": JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
      ".codex/hooks.json": "{}\n"
    })
    const kept = cli(dir, ["migrate", "--from", "claude", "--to", "codex", "--write", ".agent-hooks/settings.json"])
    expect(kept.status).toBe(1)
    expect(kept.stderr).toContain(`${join(dir, ".codex", "hooks.json")} already exists; pass --force`)
    // checked before anything is written
    expect(existsSync(join(dir, ".agent-hooks", "settings.json"))).toBe(false)
    expect(readFileSync(join(dir, ".codex", "hooks.json"), "utf8")).toBe("{}\n")
    const forced = cli(dir, ["migrate", "--from", "claude", "--to", "codex", "--write", ".agent-hooks/settings.json", "--force"])
    expect(forced.status, forced.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, ".codex", "hooks.json"), "utf8")).hooks.Stop[0].hooks[0].command).toMatch(
      / hook --host codex --timeout \d+$/
    )
    // a cloned repo's .gemini -> elsewhere: nothing written there
    const outside = project({})
    symlinkSync(outside, join(dir, ".gemini"))
    const linked = cli(dir, ["migrate", "--from", "claude", "--to", "gemini", "--write", "policy.json"])
    expect(linked.status).toBe(1)
    expect(linked.stderr).toContain("leads out of")
    expect(existsSync(join(outside, "settings.json"))).toBe(false)
    expect(existsSync(join(dir, "policy.json"))).toBe(false)
    // the canonical file too: a symlink to a file of another folder is not written through, --force or not
    writeFileSync(join(outside, "victim"), "kept\n")
    symlinkSync(join(outside, "victim"), join(dir, "canonical.json"))
    const through = cli(dir, ["migrate", "--from", "claude", "--write", "canonical.json", "--force"])
    expect(through.status).toBe(1)
    expect(through.stderr).toContain("not written through it")
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("kept\n")
  })
})

describe("host mode under a dialect's preset (the other way to keep a dialect's hooks)", () => {
  const gemini = () =>
    project({
      ".gemini/settings.json": JSON.stringify({
        hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "echo 'no shell' >&2; exit 2" }] }] }
      })
    })

  it("--host gemini --preset gemini runs Gemini CLI's BeforeTool hooks on Gemini CLI's own payload (they used to be skipped, silently)", () => {
    const dir = gemini()
    const run = cli(
      dir,
      ["hook", "--host", "gemini", "--preset", "gemini"],
      JSON.stringify({
        hook_event_name: "BeforeTool",
        session_id: "s",
        cwd: dir,
        tool_name: "run_shell_command",
        tool_input: { command: "ls" },
        timestamp: "2026-01-01T00:00:00.000Z"
      })
    )
    // Gemini CLI's own block: exit 0 with its decision deny (exit 2 is a failed hook to it)
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: "deny" })
    expect(run.stderr).toContain("no shell")
  })

  it("a policy migrated from Gemini CLI (BeforeTool declared in the file) under host mode without --payload blocks, naming the hooks, instead of never running them", () => {
    const dir = project({
      "gemini.json": JSON.stringify({
        hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "/usr/bin/true", timeout: 5000 }] }] }
      })
    })
    expect(cli(dir, ["migrate", "--from", "gemini", "--settings", "gemini.json", "--write", "policy.json"]).status).toBe(0)
    const payload = JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: "s",
      cwd: dir,
      tool_name: "Bash",
      tool_input: { command: "ls" }
    })
    const run = cli(dir, ["hook", "--host", "claude", "--settings", "policy.json"], payload)
    expect(run.status).toBe(2)
    expect(run.stdout + run.stderr).toContain("hooks on BeforeTool are declared for another agent's own events")
    expect(run.stdout + run.stderr).toContain("--payload <agent>")
    // with --payload gemini they run (and allow here)
    expect(cli(dir, ["hook", "--host", "claude", "--settings", "policy.json", "--payload", "gemini"], payload).status).toBe(0)
  })

  it("--payload of an agent host mode does not know blocks, naming the agents it knows (a policy is never run on another shape)", () => {
    const dir = project({ ".agent-hooks/settings.json": JSON.stringify({ hooks: {} }) })
    const run = cli(
      dir,
      ["hook", "--host", "claude", "--payload", "pigo"],
      JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name: "Bash", tool_input: { command: "ls" } })
    )
    expect(run.status).toBe(2)
    expect(run.stdout + run.stderr).toContain("unknown --payload pigo (one of claude, codex, gemini")
  })

  it("--host claude --preset gemini refuses visibly: Gemini CLI's hooks would never run on Claude Code's events", () => {
    const dir = gemini()
    const run = cli(
      dir,
      ["hook", "--host", "claude", "--preset", "gemini"],
      JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name: "Bash", tool_input: { command: "ls" } })
    )
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("whose hooks on BeforeTool are written for gemini's own events and payload")
  })
})
