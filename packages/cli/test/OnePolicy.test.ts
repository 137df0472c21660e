/**
 * One policy in Claude Code's names (a `Bash` guard on `rm -rf`, a `Read|Edit|Write` guard on
 * `secret`, a `WebFetch` guard on `evil.example`: fixtures/one-policy, real processes judging
 * `tool_input` only) blocks the same action in every host mode, through the BUILT CLI's
 * `hook --host <agent>`: each agent's own shapes of a shell command, a read, a write, an edit and a
 * fetch (its tools table, `HostMode.present`), and the shapes that do more than one thing or carry
 * their target in another form (argv arrays, file lists, patches, task definitions, decoy fields,
 * duplicate keys). 0 allowed, 0 silent: each is blocked as the agent reads a block, with the reason.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Agents from "@agent-hooks/core/Agents"
import * as HostMode from "@agent-hooks/core/HostMode"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verdict } from "../src/internal/doctor.ts"
import { bin, cliEnv, node } from "./cliHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/one-policy/", import.meta.url)))

let scratch = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-one-policy-")))
})
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

const hook = (
  host: string,
  stdin: string,
  options: { readonly event?: string; readonly settings?: string; readonly env?: Record<string, string> } = {}
) => {
  const env = cliEnv({
    ONE_POLICY_HOOKS: fixtures,
    ONE_POLICY_NODE: node === "node" ? "node" : process.execPath,
    AGENT_HOOKS_HOME: join(scratch, "home"),
    ...options.env
  })
  // a variable that loads code as Node starts is refused by host mode (a runner may set it)
  delete env["NODE_PATH"]
  const args = ["hook", "--host", host, ...(options.event === undefined ? [] : ["--event", options.event])]
  const result = spawnSync(node, [bin, ...args, "--settings", join(fixtures, options.settings ?? "policy.json")], {
    input: stdin,
    cwd: scratch,
    env,
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The agent's reading of the answer: blocked, with a reason that says what was blocked. */
const expectBlocked = (host: string, result: ReturnType<typeof hook>, names: RegExp) => {
  const agent = HostMode.byName(host)!
  const read = verdict(agent, result.status, result.stdout, result.stderr)
  expect({ kind: read.kind, stderr: result.stderr }).toMatchObject({ kind: "block" })
  expect(`${read.reason}\n${result.stdout}\n${result.stderr}`).toMatch(names)
}

const WORK = "/work/p"
const common = { session_id: "one-policy", transcript_path: null, cwd: WORK }

/** Claude Code's calls of the policy, each as every agent sends it (its own tool and field names). */
const CLAUDE_CALLS: ReadonlyArray<{
  readonly what: string
  readonly tool_name: string
  readonly tool_input: Record<string, unknown>
  readonly names: RegExp
}> = [
  { what: "shell", tool_name: "Bash", tool_input: { command: "rm -rf /" }, names: /rm -rf/ },
  { what: "read", tool_name: "Read", tool_input: { file_path: `${WORK}/secret.txt` }, names: /secret/ },
  { what: "write", tool_name: "Write", tool_input: { file_path: `${WORK}/secret.txt`, content: "x" }, names: /secret/ },
  { what: "edit", tool_name: "Edit", tool_input: { file_path: `${WORK}/secret.txt`, old_string: "a", new_string: "b" }, names: /secret/ },
  { what: "fetch", tool_name: "WebFetch", tool_input: { url: "https://evil.example/x", prompt: "read it" }, names: /evil\.example/ }
]

describe("each agent's own shapes, against one policy in Claude Code's names", () => {
  for (const profile of Agents.profiles) {
    for (const call of CLAUDE_CALLS) {
      const shown = HostMode.present(profile.host, "PreToolUse", {
        ...common,
        hook_event_name: "PreToolUse",
        tool_name: call.tool_name,
        tool_input: call.tool_input
      })
      for (const one of shown) {
        it(`${profile.name} ${one.hostEvent}: ${call.what} is blocked`, () => {
          const event = profile.payloadNamesNoEvent === true ? one.hostEvent : undefined
          expectBlocked(profile.name, hook(profile.name, JSON.stringify(one.payload), event === undefined ? {} : { event }), call.names)
        })
      }
    }
  }
})

const codex = (tool_name: string, tool_input: unknown) =>
  JSON.stringify({ ...common, hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id: "c1" })
const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`

/** The shapes that carry their action in another form, each as its agent sends it. */
const SHAPES: ReadonlyArray<{
  readonly name: string
  readonly host: string
  readonly event?: string
  readonly stdin: string
  readonly names: RegExp
}> = [
  {
    name: "Codex shell, bash -lc argv",
    host: "codex",
    stdin: codex("shell", { command: ["bash", "-lc", "rm -rf /"], workdir: WORK }),
    names: /rm -rf/
  },
  { name: "Codex shell, bare argv", host: "codex", stdin: codex("shell", { command: ["rm", "-rf", "/"] }), names: /rm -rf/ },
  {
    name: "Codex local_shell, exec action",
    host: "codex",
    stdin: codex("local_shell", { action: { type: "exec", command: ["rm", "-rf", "/"], working_directory: WORK } }),
    names: /rm -rf/
  },
  { name: "Codex exec_command", host: "codex", stdin: codex("exec_command", { cmd: "rm -rf /" }), names: /rm -rf/ },
  { name: "Codex Bash as argv", host: "codex", stdin: codex("Bash", { command: ["rm", "-rf", "/"] }), names: /rm -rf/ },
  {
    name: "Codex apply_patch, Update File",
    host: "codex",
    stdin: codex("apply_patch", {
      command: patch("*** Update File: README.md\n@@\n-a\n+b\n*** Update File: config/secret.env\n@@\n-a\n+b")
    }),
    names: /secret\.env/
  },
  {
    name: "Codex apply_patch, Add File",
    host: "codex",
    stdin: codex("apply_patch", { command: patch("*** Add File: secret.txt\n+hi") }),
    names: /secret/
  },
  {
    name: "Codex apply_patch, Delete File",
    host: "codex",
    stdin: codex("apply_patch", { command: patch("*** Delete File: secret.txt") }),
    names: /secret/
  },
  {
    name: "Codex apply_patch, Move to",
    host: "codex",
    stdin: codex("apply_patch", { command: patch("*** Update File: notes.txt\n*** Move to: secret.txt\n@@\n-a\n+b") }),
    names: /secret/
  },
  {
    name: "Codex shell running apply_patch",
    host: "codex",
    stdin: codex("shell", { command: ["apply_patch", patch("*** Add File: secret.txt\n+hi")] }),
    names: /secret/
  },
  {
    name: "Gemini CLI read_many_files",
    host: "gemini",
    stdin: JSON.stringify({
      ...common,
      hook_event_name: "BeforeTool",
      tool_name: "read_many_files",
      tool_input: { paths: ["README.md", "secret.txt"] }
    }),
    names: /secret/
  },
  {
    name: "Gemini CLI web_fetch, URL in the prompt",
    host: "gemini",
    stdin: JSON.stringify({
      ...common,
      hook_event_name: "BeforeTool",
      tool_name: "web_fetch",
      tool_input: { prompt: "summarise https://evil.example/x please" }
    }),
    names: /evil\.example/
  },
  {
    name: "Qwen Code read_many_files",
    host: "qwen",
    stdin: JSON.stringify({
      ...common,
      hook_event_name: "PreToolUse",
      tool_name: "read_many_files",
      tool_input: { paths: ["README.md", "secret.txt"] }
    }),
    names: /secret/
  },
  {
    name: "VS Code editFiles",
    host: "vscode",
    stdin: JSON.stringify({
      ...common,
      hookEventName: "PreToolUse",
      tool_name: "editFiles",
      tool_input: { files: [`${WORK}/a.ts`, `${WORK}/secret.ts`] }
    }),
    names: /secret/
  },
  {
    name: "VS Code multi_replace_string_in_file",
    host: "vscode",
    stdin: JSON.stringify({
      ...common,
      hookEventName: "PreToolUse",
      tool_name: "multi_replace_string_in_file",
      tool_input: {
        explanation: "two edits",
        replacements: [
          { filePath: `${WORK}/a.ts`, oldString: "a", newString: "b" },
          { filePath: `${WORK}/secret.ts`, oldString: "a", newString: "b" }
        ]
      }
    }),
    names: /secret/
  },
  {
    name: "VS Code create_and_run_task",
    host: "vscode",
    stdin: JSON.stringify({
      ...common,
      hookEventName: "PreToolUse",
      tool_name: "create_and_run_task",
      tool_input: { workspaceFolder: WORK, task: { label: "clean", type: "shell", command: "rm", args: ["-rf", "/"] } }
    }),
    names: /rm -rf/
  },
  {
    name: "VS Code fetch_webpage, urls[]",
    host: "vscode",
    stdin: JSON.stringify({
      ...common,
      hookEventName: "PreToolUse",
      tool_name: "fetch_webpage",
      tool_input: { urls: ["https://ok.example", "https://evil.example/x"], query: "q" }
    }),
    names: /evil\.example/
  },
  {
    name: "Cursor Delete",
    host: "cursor",
    stdin: JSON.stringify({
      conversation_id: "c",
      generation_id: "g",
      hook_event_name: "preToolUse",
      workspace_roots: [WORK],
      tool_name: "Delete",
      tool_input: { file_path: `${WORK}/secret.txt` }
    }),
    names: /secret/
  },
  {
    name: "Kiro fs_read operations[]",
    host: "kiro",
    stdin: JSON.stringify({
      hook_event_name: "PreToolUse",
      cwd: WORK,
      tool_name: "fs_read",
      tool_input: {
        operations: [
          { mode: "Line", path: `${WORK}/README.md` },
          { mode: "Line", path: `${WORK}/secret.txt` }
        ]
      }
    }),
    names: /secret/
  },
  {
    name: "Kiro fs_write str_replace",
    host: "kiro",
    stdin: JSON.stringify({
      hook_event_name: "PreToolUse",
      cwd: WORK,
      tool_name: "fs_write",
      tool_input: { command: "str_replace", path: `${WORK}/secret.txt`, old_str: "a", new_str: "b" }
    }),
    names: /secret/
  },
  {
    name: "Cline run_commands",
    host: "cline",
    stdin: JSON.stringify({
      clineVersion: "3",
      hookName: "PreToolUse",
      timestamp: "1",
      taskId: "t",
      workspaceRoots: [WORK],
      preToolUse: { toolName: "run_commands", parameters: { commands: ["ls", "rm -rf /"] } }
    }),
    names: /rm -rf/
  },
  {
    name: "Copilot CLI view, decoy file_path",
    host: "copilot",
    event: "preToolUse",
    stdin: JSON.stringify({
      timestamp: 1,
      cwd: WORK,
      toolName: "view",
      toolArgs: JSON.stringify({ path: `${WORK}/secret.txt`, file_path: `${WORK}/README.md` })
    }),
    names: /secret/
  },
  {
    name: "Copilot CLI edit, decoy file_path",
    host: "copilot",
    event: "preToolUse",
    stdin: JSON.stringify({
      timestamp: 1,
      cwd: WORK,
      toolName: "edit",
      toolArgs: JSON.stringify({ file_path: `${WORK}/README.md`, path: `${WORK}/secret.txt`, old_str: "a", new_str: "b" })
    }),
    names: /secret/
  },
  {
    name: "Copilot CLI duplicate key inside toolArgs",
    host: "copilot",
    event: "preToolUse",
    stdin: JSON.stringify({
      timestamp: 1,
      cwd: WORK,
      toolName: "view",
      toolArgs: `{"path":"${WORK}/secret.txt","path":"${WORK}/README.md"}`
    }),
    names: /duplicate.*"path"/
  },
  {
    name: "a duplicate key in the payload",
    host: "claude",
    stdin: `{"session_id":"s","cwd":"${WORK}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","command":"ls"}}`,
    names: /duplicate.*"command"/
  }
]

describe("the shapes that carry their action in another form", () => {
  for (const shape of SHAPES) {
    it(`${shape.name} is blocked`, () => {
      expectBlocked(shape.host, hook(shape.host, shape.stdin, shape.event === undefined ? {} : { event: shape.event }), shape.names)
    })
  }
  it("the harmless actions of a multi-action call go ahead", () => {
    const result = hook(
      "gemini",
      JSON.stringify({
        ...common,
        hook_event_name: "BeforeTool",
        tool_name: "read_many_files",
        tool_input: { paths: ["README.md", "src/a.ts"] }
      })
    )
    expect(verdict(HostMode.byName("gemini")!, result.status, result.stdout, result.stderr).kind).toBe("allow")
    const codexResult = hook("codex", codex("shell", { command: ["bash", "-lc", "ls -la"] }))
    expect(codexResult).toMatchObject({ status: 0 })
  })
})

describe("unknown tools", () => {
  const unknown = JSON.stringify({ ...common, hook_event_name: "BeforeTool", tool_name: "brand_new_tool", tool_input: { x: 1 } })
  it("are judged by a * matcher and said on stderr, with how to match them", () => {
    const seen = join(scratch, "seen.log")
    const result = hook("gemini", unknown, { settings: "seen.json", env: { ONE_POLICY_SEEN: seen } })
    expect(result.status).toBe(0)
    expect(readFileSync(seen, "utf8")).toContain("brand_new_tool")
    expect(result.stderr).toMatch(/brand_new_tool.*"\*"/)
  })
  it('unknownTools: "ask" asks where the agent can, else denies saying approval is needed', () => {
    const result = hook("gemini", unknown, { settings: "ask.json" })
    expectBlocked("gemini", result, /approval needed.*brand_new_tool/)
    const vscode = hook("vscode", JSON.stringify({ ...common, hookEventName: "PreToolUse", tool_name: "brand_new_tool", tool_input: {} }), {
      settings: "ask.json"
    })
    expect(verdict(HostMode.byName("vscode")!, vscode.status, vscode.stdout, vscode.stderr).kind).toBe("ask")
  })
  it('unknownTools: "deny" blocks them, naming the tool', () => {
    expectBlocked("gemini", hook("gemini", unknown, { settings: "strict.json" }), /brand_new_tool.*unknownTools/)
  })
})
