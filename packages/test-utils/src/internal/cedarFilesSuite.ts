import { spawnSync } from "node:child_process"
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { CreateEngine } from "../CedarFilesSuite.ts"

type Role = "policies" | "entities" | "schema"
const FILES: Record<Role, string> = { policies: "policies.cedar", entities: "entities.json", schema: "schema.cedarschema" }

/**
 * Ends any read still waiting on the FIFO (a regression): a writer that opens and closes it gives
 * the reader its end of file, so that the test's process is not held for good.
 */
const release = (fifo: string): void => {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
  } catch {
    // no reader waits on it (ENXIO): the fix holds
  }
}

const SHAPES: ReadonlyArray<readonly [string, (path: string, fifos: Array<string>) => void, RegExp]> = [
  [
    "a FIFO",
    (path, fifos) => {
      expect(spawnSync("mkfifo", [path]).status).toBe(0)
      fifos.push(path)
    },
    /FIFO/
  ],
  ["a link to /dev/zero", (path) => symlinkSync("/dev/zero", path), /character device/],
  ["a folder", (path) => mkdirSync(path), /folder/]
]

/** @internal */
export const suite = (name: string, create: CreateEngine): void => {
  describe(`${name}: a cedar hook whose file is not a regular file`, () => {
    const cleanups: Array<() => void> = []
    afterEach(() => {
      for (const cleanup of cleanups.splice(0).reverse()) cleanup()
    })

    /** An engine whose one cedar hook (on Bash, 10 s) names `role` as a file made by `make`. */
    const engineWith = async (role: Role, make: (path: string, fifos: Array<string>) => void, onFailure?: "block" | "continue") => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cedar-files-")))
      const fifos: Array<string> = []
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      cleanups.push(() => fifos.forEach(release))
      if (role !== "policies") writeFileSync(join(dir, FILES.policies), "permit (principal, action, resource);\n")
      make(join(dir, FILES[role]), fifos)
      const hook = { type: "cedar", policies: FILES.policies, timeout: 10, ...(role === "policies" ? {} : { [role]: FILES[role] }) }
      const settings = join(dir, "settings.json")
      writeFileSync(
        settings,
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ ...hook, ...(onFailure ? { onFailure } : {}) }] }] } })
      )
      const warnings: Array<string> = []
      const engine = await create({ settings: [settings], projectDir: dir, onWarning: (warning) => warnings.push(warning) })
      cleanups.push(() => void engine.close())
      return { engine, warnings, settings, file: join(dir, FILES[role]) }
    }

    const cases = (["policies", "entities", "schema"] as const).flatMap((role) =>
      SHAPES.map(([shape, make, kind]) => [role, shape, make, kind] as const)
    )
    it.each(cases)(
      "its %s is %s: said when the engine loads; at the call, a failed hook that blocks under onFailure block, at once",
      async (role, _, make, kind) => {
        const started = Date.now()
        const { engine, warnings, settings, file } = await engineWith(role, make, "block")
        expect(warnings.join("\n")).toContain(`${settings} at hooks.PreToolUse[0].hooks[0].${role}: `)
        expect(warnings.join("\n")).toContain(file)
        expect(warnings.join("\n")).toMatch(kind)
        const outcome = await engine.dispatch("PreToolUse", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } })
        expect(outcome.blocked).toBe(true)
        expect(outcome.hooks[0]).toMatchObject({ exitCode: 1, timedOut: false })
        expect(outcome.hooks[0]!.stderr).toContain(`cannot read its ${role} file: ${file}`)
        expect(outcome.hooks[0]!.stderr).toMatch(kind)
        // far under the hook's 10 s: the read was refused, not waited on
        expect(Date.now() - started).toBeLessThan(8_000)
      },
      30_000
    )

    it("its policies is a FIFO, onFailure left as it is: a cedar hook is a guard, the call is blocked, with the failure said", async () => {
      const { engine, file } = await engineWith("policies", SHAPES[0]![1])
      const outcome = await engine.dispatch("PreToolUse", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } })
      expect(outcome.blocked).toBe(true)
      expect(outcome.hooks[0]).toMatchObject({ exitCode: 1, timedOut: false })
      expect(outcome.hooks[0]!.stderr).toContain(file)
    }, 30_000)

    it("its policies is a FIFO, onFailure: continue: the call goes on, with the failure said", async () => {
      const { engine, file } = await engineWith("policies", SHAPES[0]![1], "continue")
      const outcome = await engine.dispatch("PreToolUse", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } })
      expect(outcome.blocked).toBe(false)
      expect(outcome.hooks[0]).toMatchObject({ exitCode: 1, timedOut: false, status: "non-blocking-error" })
      expect(outcome.hooks[0]!.stderr).toContain(file)
    }, 30_000)
  })
}
