/**
 * `agent-hooks serve` under overlapping requests and CPU load, from the attacker's side: the BUILT
 * CLI gets many requests at once on stdin (a JSON-deny guard that reads stdin beside an unrelated
 * `async: true` hook, an exit-2 guard beside a sync sibling, and tools no guard watches), while
 * busy loops take the CPU. Every request a guard must block comes back blocked, no answer carries
 * a warning, and no hook failed (stderr).
 */
import * as fc from "fast-check"
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, cliEnv, node } from "./cliHarness.ts"
import { loadUp, writeHooks } from "@agent-hooks/test-utils/ConcurrencySuite"

const RUNS = Number(process.env["AGENT_HOOKS_STRESS_RUNS"] ?? "") || 3
const BATCH = 150

let dir = ""
let settings = ""
let load: Array<ChildProcess> = []
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-serve-concurrency-")))
  const { guardJson, guardExit2, sibling, async } = writeHooks(dir)
  settings = join(dir, "settings.json")
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [guardJson, async] },
          { matcher: "Write", hooks: [guardExit2, sibling] },
          { matcher: "Read", hooks: [async] }
        ]
      }
    })
  )
  // Busy loops, one per core and one more.
  load = loadUp(3)
})
afterAll(() => {
  for (const child of load) child.kill("SIGKILL")
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

/** A server on stdin/stdout: its answers by id, its stderr. */
const startServer = (extra: ReadonlyArray<string> = []) => {
  const child = spawn(node, [bin, "serve", "--settings", settings, "--project-dir", dir, ...extra], {
    cwd: dir,
    env: cliEnv(),
    stdio: ["pipe", "pipe", "pipe"]
  })
  const answers = new Map<string, Record<string, any>>()
  const waiting = new Map<string, (answer: Record<string, any>) => void>()
  let buffer = ""
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8")
    let newline = buffer.indexOf("\n")
    while (newline >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as Record<string, any>
      buffer = buffer.slice(newline + 1)
      newline = buffer.indexOf("\n")
      if (typeof line["id"] !== "string") continue
      const resolve = waiting.get(line["id"])
      if (resolve !== undefined) resolve(line)
      else answers.set(line["id"], line)
    }
  })
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return {
    ask: (id: string, payload: object): Promise<Record<string, any>> => {
      child.stdin.write(`${JSON.stringify({ id, event: "PreToolUse", payload })}\n`)
      const known = answers.get(id)
      if (known !== undefined) return Promise.resolve(known)
      return new Promise((resolve) => waiting.set(id, resolve))
    },
    stderr: () => stderr,
    close: () => {
      child.stdin.end()
      return exit
    }
  }
}

const request = fc.record({
  tool: fc.constantFrom("Bash", "Write", "Read"),
  forbidden: fc.boolean(),
  noise: fc.string({ maxLength: 40 }),
  // Requests keep arriving while earlier ones spawn, exit and wait to be read.
  delay: fc.integer({ min: 0, max: 1_500 })
})

describe("agent-hooks serve: overlapping requests under CPU load", () => {
  it(
    `every guard's deny (JSON on stdout, or exit 2) comes back: ${RUNS} runs of ${BATCH} overlapping requests`,
    async () => {
      const server = startServer()
      let next = 0
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (requests) => {
            const answers = await Promise.all(
              requests.map(({ tool, forbidden, noise, delay }) => {
                const id = `r${next++}`
                return new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
                  server.ask(id, { tool_name: tool, tool_input: { command: `${forbidden ? "FORBIDDEN " : ""}${noise}` } })
                )
              })
            )
            const wrong = answers.flatMap((answer, i) => {
              const { tool, forbidden } = requests[i]!
              const expected = forbidden && tool !== "Read"
              return answer["outcome"]?.blocked === expected && answer["outcome"]?.warnings.length === 0
                ? []
                : [{ tool, forbidden, answer }]
            })
            expect(wrong.slice(0, 3), `${wrong.length} of ${requests.length} requests`).toEqual([])
          }),
          { numRuns: RUNS, endOnFailure: true }
        )
      } finally {
        expect(await server.close()).toBe(0)
      }
      // A hook that failed or whose answer was dropped is said on stderr: none was.
      expect(server.stderr()).not.toMatch(/hook "/)
    },
    Math.max(120_000, RUNS * 30_000)
  )
})
