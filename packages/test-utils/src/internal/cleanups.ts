import { mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach } from "vitest"
import type { Cleanups } from "../Cleanups.ts"

/** @internal */
export const register = (prefix = "agent-hooks-test-"): Cleanups => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup()
  })
  const add = (cleanup: () => void): void => {
    cleanups.push(cleanup)
  }
  return {
    add,
    tempDir: () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
      add(() => rmSync(dir, { recursive: true, force: true }))
      return dir
    },
    killAfter: (pids) =>
      add(() => {
        for (const pid of pids) {
          try {
            process.kill(pid, "SIGKILL")
          } catch {
            // already gone
          }
        }
      })
  }
}
