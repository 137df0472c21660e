/**
 * `NodeProcessSpawner` (every lane: node:child_process under Node, Bun and Deno): the shared
 * conformance suite, with the release host on the runtime that runs the tests, and what is
 * specific to it.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import { Cleanups, Processes, ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as NodeProcessSpawner from "@agent-hooks/node/NodeProcessSpawner"
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import { createHookEngine } from "@agent-hooks/node"
import { bunExecutable, layer as bunHelperLayer } from "./fixtures/bunHelper.ts"

ProcessSpawnerSuite.suite(
  "NodeProcessSpawner",
  NodeProcessSpawner.layer,
  { processGroups: true },
  {
    releaseHost: {
      command: process.execPath,
      args: "Deno" in globalThis ? ["run", "-A", "--no-lock", "--conditions=source"] : ["--conditions=source"],
      spawner: new URL("../src/NodeProcessSpawner.ts#layer", import.meta.url).href
    }
  }
)

ProcessSpawnerSuite.suite(
  "NodeProcessSpawner.helperLayer",
  NodeProcessSpawner.helperLayer,
  { processGroups: true },
  {
    releaseHost: {
      command: process.execPath,
      args: "Deno" in globalThis ? ["run", "-A", "--no-lock", "--conditions=source"] : ["--conditions=source"],
      spawner: new URL("../src/NodeProcessSpawner.ts#helperLayer", import.meta.url).href
    }
  }
)

// The same contract with the helper run by Bun (`HelperRuntime` { runtime: "bun" }).
ProcessSpawnerSuite.suite(
  'NodeProcessSpawner.helperLayerWith({ runtime: "bun" })',
  bunHelperLayer,
  { processGroups: true },
  {
    releaseHost: {
      command: process.execPath,
      args: "Deno" in globalThis ? ["run", "-A", "--no-lock", "--conditions=source"] : ["--conditions=source"],
      spawner: new URL("./fixtures/bunHelper.ts#layer", import.meta.url).href
    }
  }
)

describe("NodeProcessSpawner", () => {
  it("declares process groups on POSIX", () => {
    expect(NodeProcessSpawner.capabilities).toEqual({ runtime: "node", processGroups: true })
    expect(NodeProcessSpawner.make.capabilities).toEqual(NodeProcessSpawner.capabilities)
  })
})

const cleanups = Cleanups.register("agent-hooks-spawn-helper-")
const runtimeArgs = "Deno" in globalThis ? ["run", "-A", "--no-lock", "--conditions=source"] : ["--conditions=source"]

describe("NodeProcessSpawner.helperLayer: the spawn helper", () => {
  it("declares process groups, under its own runtime name", async () => {
    const capabilities = await Effect.runPromise(
      Effect.map(Effect.scoped(Effect.service(ProcessSpawner)), (spawner) => spawner.capabilities).pipe(
        Effect.provide(NodeProcessSpawner.helperLayer)
      )
    )
    expect(capabilities).toEqual({ runtime: "node-helper", processGroups: true })
  })

  it("dies with its host: after the host's SIGKILL, no helper and no hook of it is left", async () => {
    const pidFile = join(cleanups.tempDir(), "pids")
    const host = spawn(process.execPath, [...runtimeArgs, fileURLToPath(new URL("./fixtures/helper-host.ts", import.meta.url)), pidFile], {
      stdio: "ignore"
    })
    const deadline = Date.now() + 15_000
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number)
    cleanups.killAfter(pids)
    expect(pids).toHaveLength(3)
    expect(pids.every(Processes.isAlive)).toBe(true)
    host.kill("SIGKILL")
    // hook, its background grandchild, and the helper (the hook's parent)
    expect(await Processes.waitUntilDead(pids, 3_000)).toEqual([])
  }, 20_000)

  it("is started again when it dies: the hook in flight ends killed, the next one runs", async () => {
    const hook = (script: string) =>
      HookRunner.run(ProcessSpawnerSuite.request({ args: ["-c", script] }), "10 seconds", {
        killGrace: "300 millis",
        drainWindow: "100 millis"
      })
    const [killed, next] = await Effect.runPromise(
      Effect.all([hook("sleep 0.3; kill -KILL $PPID; sleep 5"), hook("echo fine")]).pipe(Effect.provide(NodeProcessSpawner.helperLayer))
    )
    expect(killed).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: false })
    expect(next).toMatchObject({ exitCode: 0, stdout: "fine\n" })
  }, 20_000)

  it("a hook that ends its helper as it starts runs once: it fails visibly and is not started again; the next hook runs", async () => {
    const runs = join(cleanups.tempDir(), "runs")
    const hook = (script: string) =>
      HookRunner.run(ProcessSpawnerSuite.request({ args: ["-c", script] }), "10 seconds", {
        killGrace: "300 millis",
        drainWindow: "100 millis"
      })
    for (let i = 0; i < 5; i++) {
      const [ended, next] = await Effect.runPromise(
        Effect.all([hook(`echo run >> '${runs}'; kill -KILL $PPID`), hook("echo fine")]).pipe(
          Effect.provide(NodeProcessSpawner.helperLayer)
        )
      )
      // Heard to start (SIGKILL with its helper) or not (a start failure that names the helper): never a success, never twice.
      expect(ended.exitCode).toBeNull()
      if (ended.signal !== "SIGKILL") expect(ended.stderr).toContain("the spawn helper exited while it was starting the hook")
      expect(next).toMatchObject({ exitCode: 0, stdout: "fine\n" })
    }
    expect(readFileSync(runs, "utf8")).toBe("run\n".repeat(5))
  }, 30_000)

  it.skipIf(!existsSync("/proc/self/cmdline"))(
    "runs with a small young generation, so its heap (and every fork's cost) does not grow over a session",
    async () => {
      // The hook's parent is the helper: its command line, as the kernel has it.
      const run = await Effect.runPromise(
        HookRunner.run(ProcessSpawnerSuite.request({ args: ["-c", "tr '\\000' ' ' < /proc/$PPID/cmdline"] }), "10 seconds").pipe(
          Effect.provide(NodeProcessSpawner.helperLayer)
        )
      )
      expect(run.exitCode).toBe(0)
      expect(run.stdout).toContain("spawnHelperMain")
      expect(run.stdout).toContain("--max-semi-space-size=1")
    },
    20_000
  )

  it("gives each hook its own environment: the spawns of one tick, one environment shared by several, and a different one in between", async () => {
    const shared = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", WHO: "shared" }
    const other = { PATH: shared.PATH, WHO: "other" }
    const hook = (env: Record<string, string>) =>
      HookRunner.run(ProcessSpawnerSuite.request({ args: ["-c", 'printf %s "$WHO"'], env }), "10 seconds")
    const runs = await Effect.runPromise(
      Effect.all([hook(shared), hook(shared), hook(other), hook(shared)], { concurrency: "unbounded" }).pipe(
        Effect.andThen((first) => Effect.map(hook(shared), (last) => [...first, last])),
        Effect.provide(NodeProcessSpawner.helperLayer)
      )
    )
    expect(runs.map((run) => run.stdout)).toEqual(["shared", "shared", "other", "shared", "shared"])
  }, 20_000)
})

describe('the spawn helper run by Bun (spawnHelper: { runtime: "bun" })', () => {
  const settings = (command: string) => {
    const dir = cleanups.tempDir()
    const file = join(dir, "hooks.json")
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }))
    return { settings: [file], projectDir: dir, onWarning: () => {} }
  }
  const payload = { tool_name: "Bash", tool_input: { command: "ls" } }

  it("the test lanes have Bun on PATH (the toolchain's)", () => {
    expect(bunExecutable).toBeDefined()
  })

  it.skipIf(!existsSync("/proc/self/exe"))(
    "runs every hook from a Bun process, also below the auto threshold with use: true",
    async () => {
      // The hook's parent is the helper: the executable the kernel started it from.
      const engine = await createHookEngine({
        ...settings("readlink /proc/$PPID/exe"),
        spawnHelper: { use: true, runtime: "bun", executable: bunExecutable! }
      })
      try {
        const outcome = await engine.dispatch("PreToolUse", payload)
        expect(outcome.hooks.map((hook) => [hook.status, hook.stdout.trim()])).toEqual([["success", bunExecutable]])
      } finally {
        await engine.close()
      }
    },
    20_000
  )

  it("starts in its own folder, not the host's working directory (a cloned project): a bunfig.toml there runs no preload in it", async () => {
    // What a hostile project can hold for a Bun started in it.
    const project = cleanups.tempDir()
    const marker = join(project, "preload-ran")
    writeFileSync(join(project, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "helper")\n`)
    writeFileSync(join(project, "bunfig.toml"), `preload = ["./evil.ts"]\n`)
    // Started from a neutral folder: the host moves into the project itself, before its helpers start.
    const host = spawn(
      process.execPath,
      [...runtimeArgs, fileURLToPath(new URL("./fixtures/hostile-cwd-host.ts", import.meta.url)), project, bunExecutable!],
      {
        cwd: cleanups.tempDir(),
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let out = ""
    let err = ""
    host.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    host.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => host.on("exit", resolve))
    expect({ code, out, err }).toEqual({ code: 0, out: "ok ok\n", err: "" })
    expect(existsSync(marker)).toBe(false)
  }, 30_000)

  it("fails the engine's creation, saying what to do, when its executable is not one", async () => {
    const missing = join(cleanups.tempDir(), "no-such-bun")
    await expect(
      createHookEngine({ ...settings("true"), spawnHelper: { use: true, runtime: "bun", executable: missing } })
    ).rejects.toThrow(`spawnHelper.executable: ${missing} is not an executable file`)
  })

  it("a helper that cannot be started says why in each hook's error", async () => {
    // A bare name is looked up on PATH when the helper starts, not checked at the engine's creation.
    const engine = await createHookEngine({
      ...settings("true"),
      spawnHelper: { use: true, runtime: "bun", executable: "agent-hooks-no-such-runtime" }
    })
    try {
      const outcome = await engine.dispatch("PreToolUse", payload)
      expect(outcome.hooks).toHaveLength(1)
      expect(outcome.hooks[0]!.exitCode).toBeNull()
      expect(outcome.hooks[0]!.stderr).toContain("the spawn helper could not be started (agent-hooks-no-such-runtime: ")
    } finally {
      await engine.close()
    }
  }, 20_000)

  it("a helper that cannot be started never lets a call through in silence: a warning by default, a block under failClosed", async () => {
    const spawnHelper = { use: true, runtime: "bun", executable: "agent-hooks-no-such-runtime" } as const
    for (const failClosed of [false, true]) {
      const engine = await createHookEngine({ ...settings("exit 2"), spawnHelper, failClosed })
      try {
        const outcome = await engine.dispatch("PreToolUse", payload)
        expect(outcome.hooks[0]!.status).toBe(failClosed ? "blocking-error" : "non-blocking-error")
        expect(outcome.blocked).toBe(failClosed)
        expect(outcome.warnings.join("\n")).toContain("the spawn helper could not be started")
      } finally {
        await engine.close()
      }
    }
  }, 20_000)

  it("never takes a bun from PATH: without the `bun` package beside @agent-hooks/node, the engine's creation fails and says what to install", async () => {
    // Bun is on PATH here (above), and the workspace does not install the `bun` package.
    await expect(createHookEngine({ ...settings("true"), spawnHelper: { runtime: "bun" } })).rejects.toThrow(
      "the npm package `bun` is not installed beside @agent-hooks/node"
    )
  })

  it("rejects a runtime or a use it does not know, at the engine's creation", async () => {
    await expect(createHookEngine({ ...settings("true"), spawnHelper: { runtime: "deno" as "bun" } })).rejects.toThrow(
      'spawnHelper runtime: expected "node" or "bun", got "deno"'
    )
    await expect(createHookEngine({ ...settings("true"), spawnHelper: { use: "always" as "auto" } })).rejects.toThrow(
      'spawnHelper.use: expected true or "auto", got "always"'
    )
  })
})
