import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"

const errorCode = (error: unknown): unknown => (typeof error === "object" && error !== null && "code" in error ? error.code : undefined)

/** @internal */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return errorCode(error) === "EPERM"
  }
  // It exists, but a zombie (dead, not reaped yet) still answers kill(0): read its state.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch (error) {
    if (errorCode(error) === "ENOENT") {
      try {
        readFileSync("/proc/self/stat")
        return false // /proc works: the process went away meanwhile
      } catch {
        // no /proc (macOS): ask ps
      }
    }
    const state = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).stdout?.trim() ?? ""
    return state !== "" && !state.startsWith("Z")
  }
}

/** @internal */
export const waitUntilDead = async (pids: ReadonlyArray<number>, timeoutMs: number): Promise<Array<number>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() >= deadline) return alive
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
