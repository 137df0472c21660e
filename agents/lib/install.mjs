// Installs the pinned agents (agents/package.json + agents/package-lock.json) into
// agents/node_modules with `npm install --no-save`, once: a stamp (the hash of both files) makes a second run skip
// it. Install scripts must run (Claude Code's postinstall links its native binary). The agents need
// Node >= 22, so the toolchain's Node 24 (.tools) comes first on PATH for npm and its scripts.
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { withLock } from "../../scripts/lock.mjs"

const read = (file) => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return null
  }
}

/**
 * @param {{ dir: string, pathPrefix: string, agents: { name: string, pkg: string, bin: string }[], log: (s: string) => void }} o
 * @returns {Promise<{ installed: boolean, ms: number, broken: Record<string, string> }>}
 *   broken: agent name -> why it cannot be driven
 */
export async function ensureAgents({ dir, pathPrefix, agents, log }) {
  const started = Date.now()
  const manifest = read(join(dir, "package.json"))
  const lock = read(join(dir, "package-lock.json"))
  const broken = {}
  if (manifest === null || lock === null) {
    for (const a of agents) broken[a.name] = `${join(dir, lock === null ? "package-lock.json" : "package.json")} is missing`
    return { installed: false, ms: 0, broken }
  }
  const hash = createHash("sha256").update(manifest).update("\0").update(lock).digest("hex")
  const stamp = join(dir, "node_modules", ".agent-hooks-stamp")
  const pins = JSON.parse(manifest).dependencies ?? {}
  const binsPresent = () => agents.every((a) => existsSync(join(dir, "node_modules", ".bin", a.bin)))
  const ready = () => read(stamp)?.trim() === hash && binsPresent()
  let installed = false
  if (!ready()) {
    await withLock(
      join(dir, ".install.lock"),
      { onWait: (pid) => log(`waiting for another install of the agents (pid ${pid}) ...`), staleMs: 20 * 60_000 },
      async () => {
        if (ready()) return
        log(
          `installing the agents (${Object.entries(pins)
            .map(([n, v]) => `${n}@${v}`)
            .join(", ")}) into ${join(dir, "node_modules")} with npm install ...`
        )
        rmSync(stamp, { force: true })
        const env = { ...process.env, PATH: [pathPrefix, process.env.PATH ?? ""].join(":") }
        delete env.npm_config_loglevel
        delete env.NPM_CONFIG_LOGLEVEL
        // Install scripts must run: Claude Code's postinstall links its native binary.
        delete env.npm_config_ignore_scripts
        delete env.NPM_CONFIG_IGNORE_SCRIPTS
        // `npm install --no-save`, not `npm ci`: npm ci refuses this lockfile because some packages
        // (@teddyzhu/clipboard) list platform packages the registry does not have. With a lockfile,
        // npm install takes the locked versions; --no-save leaves the committed lockfile as it is.
        const r = await exec("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "--ignore-scripts=false"], {
          cwd: dir,
          env
        })
        if (r.code !== 0) {
          const why = `npm install failed (${r.error ? r.error.message : `exit code ${r.code}`}): ${r.out.trim().split("\n").slice(-5).join(" | ")}`
          for (const a of agents) broken[a.name] = why
          return
        }
        installed = true
        if (binsPresent()) writeFileSync(stamp, hash + "\n")
      }
    )
    if (Object.keys(broken).length > 0) return { installed, ms: Date.now() - started, broken }
  }
  // Each agent: its binary answers --version with the pinned version.
  await Promise.all(
    agents.map(async (a) => {
      const bin = join(dir, "node_modules", ".bin", a.bin)
      if (!existsSync(bin)) {
        broken[a.name] = `no binary at ${bin} (is ${a.pkg} in agents/package.json? did its install script run?)`
        return
      }
      const r = await exec(bin, ["--version"], {
        cwd: dir,
        env: { ...process.env, PATH: [pathPrefix, process.env.PATH ?? ""].join(":"), HOME: join(dir, "node_modules", ".version-home") },
        timeoutMs: 60_000
      })
      // an agent whose binary reports another version than its package's pin (Droid's platform package) names it
      const want = a.version ?? pins[a.pkg]
      if (r.code !== 0 || (want && !r.out.includes(want))) {
        broken[a.name] =
          `\`${a.bin} --version\` ${r.code !== 0 ? `failed (${r.error ? r.error.message : r.timedOut ? "timed out" : `exit code ${r.code}`})` : `did not report ${want}`}: ${r.out.trim().split("\n").slice(-3).join(" | ") || "no output"}`
      }
    })
  )
  return { installed, ms: Date.now() - started, broken }
}

/** @returns {Promise<{ code: number | null, out: string, error: Error | null, timedOut: boolean }>} */
export function exec(cmd, args, { cwd, env, timeoutMs = 0 }) {
  return new Promise((resolve) => {
    let out = ""
    let child
    try {
      child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    } catch (error) {
      resolve({ code: null, out: "", error, timedOut: false })
      return
    }
    let timedOut = false
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), child.kill("SIGKILL")), timeoutMs) : undefined
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    let error = null
    child.on("error", (e) => (error = e))
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, out, error, timedOut })
    })
  })
}
