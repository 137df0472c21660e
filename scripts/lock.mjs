// A lock between commands started at once in the same checkout (two `npm test`, say), so that they
// never install into the same folder together: a directory created with mkdir (atomic), holding the
// owner's pid. A lock whose owner is gone (or older than `staleMs`) is taken over. Plain JavaScript
// for the machine's own Node, no dependencies (scripts/dev.mjs and agents/lib/install.mjs use it).
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * Runs `fn` holding the lock `dir`.
 * @template T
 * @param {string} dir
 * @param {{ onWait?: (pid: number) => void, staleMs?: number }} options
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withLock(dir, { onWait = () => {}, staleMs = 30 * 60_000 }, fn) {
  mkdirSync(dirname(dir), { recursive: true })
  let waited = false
  for (;;) {
    try {
      mkdirSync(dir)
      writeFileSync(join(dir, "pid"), String(process.pid))
      break
    } catch (e) {
      if (e.code !== "EEXIST") throw e
      let pid = 0
      try {
        pid = Number(readFileSync(join(dir, "pid"), "utf8"))
      } catch {}
      let alive = pid > 0
      if (alive) {
        try {
          process.kill(pid, 0)
        } catch (err) {
          alive = err.code === "EPERM"
        }
      }
      let age = 0
      try {
        age = Date.now() - statSync(dir).mtimeMs
      } catch {}
      if ((!alive && age > 2000) || age > staleMs) {
        rmSync(dir, { recursive: true, force: true })
        continue
      }
      if (!waited) onWait(pid)
      waited = true
      await new Promise((r) => setTimeout(r, 500))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
