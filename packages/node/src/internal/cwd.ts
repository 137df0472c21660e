import { statSync } from "node:fs"

/** Why a spawn's cwd cannot work, or `undefined` when it is a directory. */
export const cwdProblem = (cwd: string): string | undefined => {
  try {
    return statSync(cwd).isDirectory() ? undefined : `cwd ${cwd} is not a directory`
  } catch {
    return `cwd ${cwd} does not exist`
  }
}
