/**
 * The single-file executable, built by scripts/release-binaries.mjs (`compile`), runs `run` and
 * `serve` on a machine path with no Node on it, and reads nothing of a cloned project it is started
 * in before its own checks (no bunfig.toml preload, no .env). Built for linux-x64 only, and only in
 * the Node lane: one 100 MB build per test run is enough.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const bundle = fileURLToPath(new URL("../dist/agent-hooks.mjs", import.meta.url))
const releaseBinaries = fileURLToPath(new URL("../../../scripts/release-binaries.mjs", import.meta.url))
const linuxX64 = process.platform === "linux" && process.arch === "x64"

let scratch = ""
let binary = ""
let emptyPath = ""
beforeAll(async () => {
  if (!linuxX64) return
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-binary-")))
  binary = join(scratch, "agent-hooks")
  // The release script's own build (its bundle goes to the scratch folder, not release/).
  const { compile } = (await import(pathToFileURL(releaseBinaries).href)) as {
    readonly compile: (target: string, outfile: string, bundle: string) => Promise<string>
  }
  await compile("linux-x64", binary, join(scratch, "bundle", "agent-hooks.mjs"))
  // A PATH with nothing on it: no node, no bun, no deno.
  emptyPath = join(scratch, "empty-path")
  mkdirSync(emptyPath)
  writeFileSync(
    join(scratch, "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: "if command -v node >/dev/null; then echo node-found >&2; exit 1; fi; echo no node here >&2; exit 2"
              }
            ]
          }
        ]
      }
    })
  )
}, 120_000)
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

const runBinary = (args: ReadonlyArray<string>, input: string) =>
  spawnSync(binary, args, { input, cwd: scratch, env: { PATH: emptyPath, HOME: scratch }, encoding: "utf8", timeout: 30_000 })

describe.skipIf(!linuxX64)("single-file executable (linux-x64, no Node on PATH)", () => {
  it("run: blocks with the hook's reason, exit 2", () => {
    const result = runBinary(
      ["run", "PreToolUse", "--settings", join(scratch, "settings.json")],
      JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
    )
    expect(result.status, result.stderr).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "no node here" })
  })

  it("run over 256 MB of memory (a 15 MB payload of small objects): still blocks, nothing to find outside the executable", () => {
    const items = Array.from({ length: 700_000 }, (_, i) => ({ i, s: "xx" }))
    const result = runBinary(
      ["run", "PreToolUse", "--settings", join(scratch, "settings.json")],
      JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls", items } })
    )
    expect(result.status, result.stderr).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "no node here" })
  })

  it("serve: hello, an answer, exit 0 on stdin EOF", () => {
    const result = runBinary(
      ["serve", "--settings", join(scratch, "settings.json")],
      `${JSON.stringify({ id: 1, event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "ls" } } })}\n`
    )
    expect(result.status, result.stderr).toBe(0)
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(lines[0]).toMatchObject({ type: "hello", protocol: 1 })
    expect(lines[1]).toMatchObject({ id: 1, outcome: { blocked: true, reason: "no node here" } })
  })
})

describe.skipIf(!linuxX64)("single-file executable: Cedar is inside it", () => {
  /** A cedar policy that forbids `rm -rf`, and settings that run it on Bash. */
  const cedarSettings = (policy: string) => {
    const dir = mkdtempSync(join(scratch, "cedar-"))
    writeFileSync(join(dir, "policies.cedar"), policy)
    writeFileSync(
      join(dir, "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "cedar", policies: "policies.cedar" }] }] } })
    )
    return join(dir, "settings.json")
  }
  const noRm = `@id("no-rm-rf") @reason("rm -rf is not allowed")
forbid (principal, action == Action::"PreToolUse", resource) when { resource.path like "*rm -rf*" };
permit (principal, action, resource);
`

  it("hook --host claude: a cedar policy decides (no Cedar package on disk), a lone surrogate included", () => {
    // the bundle's folder (where the build found Cedar) is gone: what runs is what the executable holds
    rmSync(join(scratch, "bundle"), { recursive: true, force: true })
    const settings = cedarSettings(noRm)
    const call = (command: string) =>
      runBinary(
        ["hook", "--host", "claude", "--settings", settings],
        JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", cwd: scratch, tool_name: "Bash", tool_input: { command } })
      )
    for (const command of ["rm -rf /", "rm -rf / #\ud800"]) {
      const blocked = call(command)
      expect(blocked.status, blocked.stdout + blocked.stderr).toBe(2)
      expect(blocked.stderr).toContain("rm -rf is not allowed")
    }
    const allowed = call("ls")
    expect(allowed.status, allowed.stdout + allowed.stderr).toBe(0)
    expect(allowed.stderr).not.toContain("cedar-wasm")
  })

  it("validate: a cedar policy that does not parse is an error naming the file (Cedar checked it)", () => {
    const settings = cedarSettings("forbid (principal, action, resource")
    const result = runBinary(["validate", "--settings", settings], "")
    expect(result.status, result.stdout + result.stderr).toBe(1)
    expect(result.stderr).toContain(join(dirname(settings), "policies.cedar"))
    expect(result.stderr).not.toContain("Cannot find package")
    expect(runBinary(["validate", "--settings", cedarSettings(noRm)], "").status).toBe(0)
  })
})

describe.skipIf(!linuxX64)("single-file executable started in a cloned project", () => {
  /**
   * A project as an attacker leaves it: a bunfig.toml whose preload writes a marker (code run before
   * any trust check), a .env that moves AGENT_HOOKS_MANAGED_DIR into the project, and there a
   * managed-settings.json whose hook would answer every call.
   */
  const hostileProject = () => {
    const project = mkdtempSync(join(scratch, "cloned-"))
    writeFileSync(join(project, "bunfig.toml"), `preload = ["./preload.js"]\n`)
    writeFileSync(join(project, "preload.js"), `require("node:fs").writeFileSync(${JSON.stringify(join(project, "PRELOAD-RAN"))}, "ran")\n`)
    writeFileSync(join(project, ".env"), `AGENT_HOOKS_MANAGED_DIR=${join(project, "managed")}\n`)
    mkdirSync(join(project, "managed"))
    writeFileSync(
      join(project, "managed", "managed-settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo managed dir moved into the project >&2; exit 2" }] }]
        }
      })
    )
    return project
  }

  it("neither runs its bunfig.toml preload nor reads its .env (the managed folder stays where it was)", () => {
    const project = hostileProject()
    const result = spawnSync(binary, ["run", "PreToolUse"], {
      input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } }),
      cwd: project,
      env: { PATH: emptyPath, HOME: scratch },
      encoding: "utf8",
      timeout: 30_000
    })
    expect({
      preloadRan: existsSync(join(project, "PRELOAD-RAN")),
      managedDirMoved: (result.stdout + result.stderr).includes("managed dir moved")
    }).toEqual({ preloadRan: false, managedDirMoved: false })
    expect(result.status, result.stderr).toBe(0)
  })
})

describe.skipIf(!linuxX64)("Binary: the CLI package finds its platform package's executable", () => {
  /** A node_modules as a package manager leaves it: @agent-hooks/cli (its resolver) beside @agent-hooks/cli-linux-x64. */
  const installed = (withPlatformPackage: boolean) => {
    const root = join(scratch, `app-${withPlatformPackage}`, "node_modules", "@agent-hooks")
    const resolver = join(root, "cli", "dist", "internal", "binary.js")
    mkdirSync(dirname(resolver), { recursive: true })
    writeFileSync(join(root, "cli", "package.json"), JSON.stringify({ name: "@agent-hooks/cli", type: "module" }))
    copyFileSync(fileURLToPath(new URL("../dist/internal/binary.js", import.meta.url)), resolver)
    if (withPlatformPackage) {
      mkdirSync(join(root, "cli-linux-x64", "bin"), { recursive: true })
      writeFileSync(
        join(root, "cli-linux-x64", "package.json"),
        JSON.stringify({ name: "@agent-hooks/cli-linux-x64", os: ["linux"], cpu: ["x64"] })
      )
      copyFileSync(binary, join(root, "cli-linux-x64", "bin", "agent-hooks"))
      chmodSync(join(root, "cli-linux-x64", "bin", "agent-hooks"), 0o755)
    }
    return import(pathToFileURL(resolver).href) as Promise<typeof import("../src/internal/binary.ts")>
  }

  it("binaryPath() is the installed executable, and it runs the hooks with no Node on PATH", async () => {
    const { binaryPath, platformPackage } = await installed(true)
    expect(platformPackage()).toBe("@agent-hooks/cli-linux-x64")
    const path = binaryPath()
    expect(path).toBe(join(scratch, "app-true", "node_modules", "@agent-hooks", "cli-linux-x64", "bin", "agent-hooks"))
    const result = spawnSync(path!, ["run", "PreToolUse", "--settings", join(scratch, "settings.json")], {
      input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } }),
      env: { PATH: emptyPath, HOME: scratch },
      encoding: "utf8",
      timeout: 30_000
    })
    expect(result.status, result.stderr).toBe(2)
  })

  it("binaryPath() is undefined without the platform package, and names other platforms' packages", async () => {
    const { binaryPath, platformPackage } = await installed(false)
    expect(binaryPath()).toBeUndefined()
    expect(platformPackage("win32", "x64")).toBe("@agent-hooks/cli-windows-x64")
    expect(platformPackage("darwin", "arm64")).toBe("@agent-hooks/cli-darwin-arm64")
  })
})
