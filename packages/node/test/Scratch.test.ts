import { it } from "vitest"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createHookEngine } from "@agent-hooks/node"
import { Presets } from "@agent-hooks/core"

it("scratch", async () => {
  const root = mkdtempSync(join(tmpdir(), "scratch-"))
  mkdirSync(join(root, "home", ".pigo"), { recursive: true })
  writeFileSync(join(root, "home", ".pigo", "config.json"), JSON.stringify({ plugins: [{ name: "safety", hooks: { tool_start: [{ command: "check-safety.sh", match: { tool: "bash" } }] } }] }))
  const heard: Array<string> = []
  const engine = await createHookEngine({ preset: Presets.byName("pigo")!, projectDir: root, env: { PATH: process.env["PATH"], HOME: join(root, "home") }, onWarning: (w) => heard.push(w) })
  for (let i = 0; i < 3; i++) {
    const o = await engine.dispatch("tool_start", { tool_name: "bash", tool_input: { command: "ls" } })
    console.log("OUTCOME", i, JSON.stringify(o.warnings), o.blocked)
  }
  console.log("HEARD", JSON.stringify(heard, null, 1))
  await engine.close()
})
