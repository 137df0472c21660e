/**
 * `agent-hooks run` is read without the full command-line parser when its command line is plain
 * (`internal/runArgs.ts`), so that hosts calling it per event do not load effect/cli. Property:
 * whatever that reader accepts, effect/cli's parser (the `run` command of `Cli.ts`, the reference)
 * accepts too and reads the same options and log level; what it declines goes to the full parser.
 */
import * as NodeServices from "@effect/platform-node-shared/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as NodeTerminal from "@effect/platform-node-shared/NodeTerminal"
import { Effect, Exit, Layer, Option, References } from "effect"
import { Command } from "effect/cli"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Cli } from "@agent-hooks/cli"
import { parseRunArgs } from "../src/internal/runArgs.ts"
import { runFlags } from "../src/internal/runFlags.ts"

const Services = Layer.provideMerge(
  NodeServices.layer,
  Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeStdio.layer, NodeTerminal.layer)
)

/** What effect/cli's parser makes of `run <argv>`: the handler's options and the log level, or undefined when it refuses. */
const reference = async (argv: ReadonlyArray<string>) => {
  let seen: { options: Record<string, unknown>; logLevel: string } | undefined
  const capture = Cli.cli.pipe(
    Command.withSubcommands([
      Cli.run.pipe(
        Command.withHandler((options) =>
          Effect.map(Effect.service(References.MinimumLogLevel), (logLevel) => {
            seen = { options: options as Record<string, unknown>, logLevel }
          })
        )
      )
    ])
  )
  const exit = await Effect.runPromiseExit(
    Command.runWith(capture, { version: "test", renderErrors: false })(argv).pipe(Effect.provide(Services))
  )
  return Exit.isSuccess(exit) ? seen : undefined
}

const normal = (options: Record<string, unknown>) => ({
  event: options["event"],
  settings: options["settings"],
  projectDir: options["projectDir"],
  plugin: options["plugin"],
  managedDir: options["managedDir"],
  preset: options["preset"],
  agent: options["agent"],
  failClosed: options["failClosed"],
  strict: options["strict"],
  quiet: options["quiet"]
})

describe("run's own reader agrees with the full parser", () => {
  it("reads the plain forms", () => {
    expect(parseRunArgs(["run", "PreToolUse", "--settings", "a.json", "--settings=b.json", "--quiet", "--log-level", "debug"])).toEqual({
      options: {
        event: "PreToolUse",
        settings: ["a.json", "b.json"],
        projectDir: Option.none(),
        plugin: [],
        managedDir: Option.none(),
        preset: "agent-hooks",
        agent: Option.none(),
        failClosed: false,
        strict: false,
        quiet: true
      },
      logLevel: "Debug"
    })
  })

  it("leaves to the full parser: help, version, unknown or repeated flags, flag-like values, no event or two", () => {
    for (const argv of [
      ["run", "--help"],
      ["run", "PreToolUse", "-h"],
      ["--version"],
      ["run"],
      ["run", "A", "B"],
      ["run", "PreToolUse", "--setting", "x"],
      ["run", "PreToolUse", "--preset", "claude", "--preset", "pigo"],
      ["run", "PreToolUse", "--settings", "--quiet"],
      ["run", "PreToolUse", "--settings"],
      ["run", "PreToolUse", "--quiet=true"],
      ["run", "PreToolUse", "--log-level", "loud"],
      ["run", "--", "PreToolUse"],
      ["--log-level", "debug", "run", "PreToolUse"],
      ["validate"]
    ])
      expect(parseRunArgs(argv), argv.join(" ")).toBeUndefined()
  })

  it("one grammar: every flag of run's table is read by both readers, the same way", async () => {
    for (const flag of Object.values(runFlags)) {
      const argv = flag.kind === "boolean" ? ["run", "PreToolUse", `--${flag.name}`] : ["run", "PreToolUse", `--${flag.name}`, "claude"]
      const fast = parseRunArgs(argv)
      expect(fast, argv.join(" ")).toBeDefined()
      const full = await reference(argv)
      expect(full, argv.join(" ")).toBeDefined()
      expect(normal(fast!.options as unknown as Record<string, unknown>)).toEqual(normal(full!.options))
    }
    // a flag the full parser's run does not take, the fast path does not read either
    expect(parseRunArgs(["run", "PreToolUse", "--host", "claude"])).toBeUndefined()
  })

  it("property: what it reads, the full parser reads the same", async () => {
    const value = fc.constantFrom("a.json", "dir/b.json", "x y", "claude", "pigo", "ünï", "=eq", "debug", "./-x")
    const valued = Object.values(runFlags)
      .filter((flag) => flag.kind !== "boolean")
      .map((flag) => `--${flag.name}`)
    const booleans = Object.values(runFlags)
      .filter((flag) => flag.kind === "boolean")
      .map((flag) => `--${flag.name}`)
    const flag = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.constantFrom(...valued), value, fc.boolean())
          .map(([name, v, joined]) => (joined ? [`${name}=${v}`] : [name, v]))
      },
      { weight: 3, arbitrary: fc.constantFrom(...booleans).map((name) => [name]) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom("debug", "error", "warning", "none", "all", "Debug"), fc.boolean())
          .map(([v, joined]) => (joined ? [`--log-level=${v}`] : ["--log-level", v]))
      },
      { weight: 1, arbitrary: fc.constantFrom(["--"], ["-q"], ["--help"], ["--bogus", "x"], ["Extra"]) }
    )
    const argvs = fc
      .tuple(fc.constantFrom("PreToolUse", "Stop", "tool_start", "x y"), fc.array(flag, { maxLength: 5 }), fc.nat())
      .map(([event, flags, at]) => {
        const tokens = flags.flat()
        const i = at % (tokens.length + 1)
        return ["run", ...tokens.slice(0, i), event, ...tokens.slice(i)]
      })
    let compared = 0
    await fc.assert(
      fc.asyncProperty(argvs, async (argv) => {
        const fast = parseRunArgs(argv)
        if (fast === undefined) return
        compared++
        const full = await reference(argv)
        expect(full, `the full parser refused ${JSON.stringify(argv)}`).toBeDefined()
        expect(normal(fast.options as unknown as Record<string, unknown>)).toEqual(normal(full!.options))
        expect(fast.logLevel ?? "Info").toBe(full!.logLevel)
      }),
      { numRuns: 300 }
    )
    // The generator must reach the comparison often, or the property says nothing.
    expect(compared).toBeGreaterThan(100)
  }, 120_000)
})
