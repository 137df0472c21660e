import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TempFiles } from "@agent-hooks/core/ProcessSpawner"

/** Why a spawn's cwd cannot work, or `undefined` when it is a directory. */
export const cwdProblem = (cwd: string): string | undefined => {
  try {
    return statSync(cwd).isDirectory() ? undefined : `cwd ${cwd} is not a directory`
  } catch {
    return `cwd ${cwd} does not exist`
  }
}

/** The payload files: a fresh 0700 folder (mkdtemp), one 0600 file per text, removed with the folder. */
export const tempFiles: TempFiles = {
  write: (contents) => {
    const dir = mkdtempSync(join(tmpdir(), "agent-hooks-payload-"))
    const remove = () => rmSync(dir, { recursive: true, force: true })
    try {
      const paths = contents.map((content, i) => {
        const path = join(dir, String(i))
        writeFileSync(path, content, { mode: 0o600, flag: "wx" })
        return path
      })
      return { paths, remove }
    } catch (cause) {
      remove()
      throw cause
    }
  }
}
