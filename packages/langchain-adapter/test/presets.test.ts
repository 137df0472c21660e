/**
 * A preset's own matchers fire under the adapter: the built-in tool-name mapping (`write_file` →
 * `Write`) applies only where the preset uses Claude Code's names, and a preset's own events
 * (pigo's `tool_start`, Gemini CLI's `BeforeTool`) run where the adapter raises the catalog event.
 * Real engines of each seed preset (and the peers' presets the adapter can load), real shell hooks.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { createDeepAgent } from "deepagents"
import { createAgent, fakeModel, tool } from "langchain"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { withHooks } from "@agent-hooks/langchain-adapter/DeepAgents"
import { fixtureCommand, lastText, tempDir } from "./helpers.ts"

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const put = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2))
}

/** The payloads `log-event.sh` appended to `file`, one JSON object each. */
const logged = (file: string): Array<Record<string, unknown>> =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split(/\n(?=\{)/)
        .map((text) => text.trim())
        .filter((text) => text !== "")
        .map((text) => JSON.parse(text) as Record<string, unknown>)
    : []

/** A project and a home of its own, and the real engine of `preset` over them. */
const project = () => {
  const root = tempDir()
  const dir = join(root, "project")
  const home = join(root, "home")
  mkdirSync(dir, { recursive: true })
  mkdirSync(home, { recursive: true })
  return {
    root,
    dir,
    home,
    engine: async (preset: string, env: Record<string, string> = {}) => {
      const engine = await createHookEngine({
        preset,
        projectDir: dir,
        env: { PATH: process.env["PATH"], HOME: home, TMPDIR: root, AGENT_HOOKS_MANAGED_DIR: join(root, "managed"), ...env },
        onWarning: () => {}
      })
      closers.push(() => engine.close())
      return engine
    }
  }
}

/** A tool called `name` that records its arguments; `write_file` and friends take `{ file_path, content }`. */
const recordingTool = (name: string, schema: z.ZodObject<z.ZodRawShape>) => {
  const ran: Array<Record<string, unknown>> = []
  const made = tool(
    async (args: Record<string, unknown>) => {
      ran.push(args)
      return `${name} done`
    },
    { name, description: `The ${name} tool`, schema }
  )
  return { tool: made, ran }
}
const shellTool = (name: string) => recordingTool(name, z.object({ command: z.string() }))
const writeTool = (name: string) => recordingTool(name, z.object({ file_path: z.string(), content: z.string() }))

describe("a preset's own tool names under the adapter", () => {
  it("wingman: write_file|edit_file and .*_file match deepagents' own tools (no rename to Write / Edit)", async () => {
    const p = project()
    const pre = join(p.root, "pre.log")
    const post = join(p.root, "post.log")
    put(join(p.dir, ".wingman", "wingman.config.json"), {
      hooks: {
        PreToolUse: [{ matcher: ".*_file", hooks: [{ type: "command", command: fixtureCommand("log-event.sh", pre) }] }],
        PostToolUse: [{ matcher: "write_file|edit_file", hooks: [{ type: "command", command: fixtureCommand("log-event.sh", post) }] }]
      }
    })
    const engine = await p.engine("wingman")
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { file_path: "/notes.md", content: "draft" }, id: "w1" }])
      .respondWithTools([{ name: "edit_file", args: { file_path: "/notes.md", old_string: "draft", new_string: "final" }, id: "e1" }])
      .respond(new AIMessage("written"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createDeepAgent(withHooks({ model }, hooks))

    const result = await agent.invoke({ messages: [new HumanMessage("write the notes")] })

    expect(lastText(result.messages)).toBe("written")
    expect(hooks.toolName("write_file")).toBe("write_file")
    expect(logged(pre).map((payload) => payload["tool_name"])).toEqual(["write_file", "edit_file"])
    expect(logged(post).map((payload) => payload["tool_name"])).toEqual(["write_file", "edit_file"])
    expect(logged(pre)[0]!["tool_input"]).toEqual({ file_path: "/notes.md", content: "draft" })
  })

  it("wingman: a PreToolUse hook on .*_file blocks the call (exit 2), the model reads why", async () => {
    const p = project()
    put(join(p.dir, ".wingman", "wingman.config.json"), {
      hooks: { PreToolUse: [{ matcher: ".*_file", hooks: [{ type: "command", command: "echo 'no files today' >&2; exit 2" }] }] }
    })
    const engine = await p.engine("wingman")
    const write = writeTool("write_file")
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { file_path: "/etc/passwd", content: "x" }, id: "w1" }])
      .respond(new AIMessage("could not write"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [write.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("write")] })

    expect(write.ran).toEqual([])
    expect(JSON.stringify(model.calls[1]!.messages.map((m) => m.content))).toContain("no files today")
  })

  it("pigo: tool_start with match bash|write runs for the tools named bash and write, and any non-zero exit cancels the call", async () => {
    const p = project()
    const seen = join(p.root, "seen.log")
    put(join(p.home, ".pigo", "config.json"), {
      model: "gpt-4o",
      plugins: [
        {
          name: "safety-gate",
          enabled: true,
          hooks: {
            tool_start: [
              {
                command: `echo "$PIGO_TOOL_NAME" >> '${seen}'; case "$PIGO_TOOL_INPUT" in *"rm -rf"*) echo "refused: $PIGO_TOOL_INPUT" >&2; exit 1;; esac`,
                match: { tool: "bash|write" },
                timeout: 5
              }
            ]
          }
        },
        { name: "logging", hooks: { tool_end: [{ command: `echo "end $PIGO_TOOL_NAME" >> '${seen}'`, match: { tool: "write" } }] } }
      ]
    })
    const engine = await p.engine("pigo")
    const bash = shellTool("bash")
    const write = writeTool("write")
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "b1" }])
      .respondWithTools([{ name: "write", args: { file_path: "/a.txt", content: "a" }, id: "w1" }])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [bash.tool, write.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("clean")] })

    expect(bash.ran).toEqual([])
    expect(JSON.stringify(model.calls[1]!.messages.map((m) => m.content))).toContain("refused: rm -rf /")
    expect(write.ran).toEqual([{ file_path: "/a.txt", content: "a" }])
    expect(readFileSync(seen, "utf8").trim().split("\n")).toEqual(["bash", "write", "end write"])
  })

  it("wave: Claude Code's names (Edit|Write, Bash) match the mapped deepagents-style tools", async () => {
    const p = project()
    const post = join(p.root, "post.log")
    put(join(p.dir, ".wave", "settings.json"), {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: fixtureCommand("block-rm.sh") }] }],
        PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: fixtureCommand("log-event.sh", post) }] }]
      }
    })
    const engine = await p.engine("wave")
    const bash = shellTool("bash")
    const write = writeTool("write_file")
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "rm -rf /" }, id: "b1" },
        { name: "write_file", args: { file_path: "/src/a.ts", content: "a" }, id: "w1" }
      ])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [bash.tool, write.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("go")] })

    expect(bash.ran).toEqual([])
    expect(write.ran).toHaveLength(1)
    expect(logged(post).map((payload) => payload["tool_name"])).toEqual(["Write"])
  })

  it("orchestration: Bash(git push:*) gates the mapped bash tool; Edit|Write sees write_file as Write", async () => {
    const p = project()
    const post = join(p.root, "post.log")
    const marker = join(p.root, "functional-tests-passing")
    put(join(p.dir, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash(git push:*)",
            hooks: [{ type: "command", command: "test", args: ["-f", marker], timeout: 5000, continueOnError: false }]
          }
        ],
        PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "sh", args: [fixturePath("log-event.sh"), post] }] }]
      }
    })
    const engine = await p.engine("orchestration")
    const bash = shellTool("bash")
    const write = writeTool("write_file")
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "git push origin main" }, id: "b1" },
        { name: "bash", args: { command: "git status" }, id: "b2" },
        { name: "write_file", args: { file_path: "/src/a.ts", content: "a" }, id: "w1" }
      ])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [bash.tool, write.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("ship")] })

    expect(bash.ran).toEqual([{ command: "git status" }])
    expect(logged(post).map((payload) => payload["tool_name"])).toEqual(["Write"])
  })

  it("gemini (a peer): BeforeTool with Gemini CLI's write_file|replace runs for deepagents' write_file, unrenamed", async () => {
    const p = project()
    const pre = join(p.root, "pre.log")
    put(join(p.dir, ".gemini", "settings.json"), {
      hooks: {
        BeforeTool: [{ matcher: "write_file|replace", hooks: [{ type: "command", command: fixtureCommand("log-event.sh", pre) }] }]
      }
    })
    const engine = await p.engine("gemini")
    const write = writeTool("write_file")
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { file_path: "/a.txt", content: "a" }, id: "w1" }])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [write.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("go")] })

    expect(write.ran).toHaveLength(1)
    expect(logged(pre).map((payload) => [payload["hook_event_name"], payload["tool_name"]])).toEqual([["BeforeTool", "write_file"]])
  })

  it("qwen (a peer): a matcher in Qwen Code's run_shell_command matches a tool of that name; bash is not renamed to Bash", async () => {
    const p = project()
    put(join(p.dir, ".qwen", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: fixtureCommand("block-rm.sh") }] }] }
    })
    const engine = await p.engine("qwen")
    const shell = shellTool("run_shell_command")
    const model = fakeModel()
      .respondWithTools([{ name: "run_shell_command", args: { command: "rm -rf /" }, id: "s1" }])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [shell.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("go")] })

    expect(shell.ran).toEqual([])
    expect(hooks.toolName("bash")).toBe("bash")
  })

  it("codex (a peer): Codex names its shell tool Bash, so bash is mapped and gated; write_file is not renamed to Write", async () => {
    const p = project()
    put(join(p.home, ".codex", "hooks.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: fixtureCommand("block-rm.sh") }] }] }
    })
    const engine = await p.engine("codex")
    const bash = shellTool("bash")
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "rm -rf /" }, id: "b1" },
        { name: "bash", args: { command: "ls" }, id: "b2" }
      ])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, cwd: p.dir, transcriptDir: join(p.root, "transcripts") })
    const agent = createAgent({ model, tools: [bash.tool], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("go")] })

    expect(bash.ran).toEqual([{ command: "ls" }])
    expect(hooks.toolName("bash")).toBe("Bash")
    expect(hooks.toolName("write_file")).toBe("write_file")
  })

  it("Claude Code's settings keep every default (bash is Bash); defaultToolNames true / false override the preset", async () => {
    const p = project()
    put(join(p.dir, ".claude", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] }
    })
    const claude = await p.engine("claude")
    expect(hooksMiddleware({ engine: claude }).toolName("write_file")).toBe("Write")
    put(join(p.dir, ".wingman", "wingman.config.json"), {
      hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }] }
    })
    const wingman = await p.engine("wingman")
    expect(hooksMiddleware({ engine: wingman }).toolName("write_file")).toBe("write_file")
    expect(hooksMiddleware({ engine: wingman, defaultToolNames: true }).toolName("write_file")).toBe("Write")
    expect(hooksMiddleware({ engine: claude, defaultToolNames: false }).toolName("write_file")).toBe("write_file")
    // The host's own mapping always applies.
    expect(hooksMiddleware({ engine: wingman, toolNames: { shell: "bash" } }).toolName("shell")).toBe("bash")
  })
})

const fixturePath = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname
