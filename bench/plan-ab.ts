/**
 * Plan.make and Plan.compile of two builds of @agent-hooks/core in one Node process, rounds
 * interleaved (before, after, before, after...), on the config of bench/plan.ts (100 hooks in 3
 * files, one in five with an `if` rule). For a before/after figure of a change to the compile path:
 *
 *   git stash; npm run build; cp -r packages/core/dist packages/core/node_modules/.dist-before; git stash pop; npm run build
 *   cd bench && PLAN_BEFORE=../packages/core/node_modules/.dist-before/index.js node plan-ab.ts
 *
 * Prints the medians of 10 rounds (µs per call) and the ratios after/before.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Effect, Layer } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
const after = (await import("@agent-hooks/core")).Plan
const beforeEntry = process.env["PLAN_BEFORE"]
if (beforeEntry === undefined) throw new Error("set PLAN_BEFORE to the index.js of another build of @agent-hooks/core (see the header)")
const before = ((await import(pathToFileURL(resolve(beforeEntry)).href)) as { readonly Plan: typeof after }).Plan
const dir = mkdtempSync(join(tmpdir(), "ab-"))
const files = [0, 1, 2].map((f) => {
  const file = join(dir, `load-${f}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      hooks: {
        PreToolUse: Array.from({ length: 34 }, (_, i) => f * 34 + i)
          .filter((i) => i < 100)
          .map((i) => ({
            matcher: i % 2 === 0 ? `tool_${i}` : `^mcp__server_${i}__.*`,
            hooks: [{ type: "command", command: `./hooks/check-${i}.sh`, timeout: 30, ...(i % 5 === 0 ? { if: `Bash(git push:*)` } : {}) }]
          }))
      }
    })
  )
  return file
})
const layer = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)
const setup = (Plan: typeof after) => {
  const load = Plan.make({ settings: files, projectDir: dir, managedDir: join(dir, "no-managed") }).pipe(Effect.provide(layer))
  return load
}
const lb = setup(before),
  la = setup(after)
const sb = (await Effect.runPromise(lb)).settings,
  sa = (await Effect.runPromise(la)).settings
const cb = () => before.compile({ settings: sb, options: { settings: files, projectDir: dir }, projectDir: dir, cwd: dir })
const ca = () => after.compile({ settings: sa, options: { settings: files, projectDir: dir }, projectDir: dir, cwd: dir })
const K = 200
const time = async (f: () => unknown) => {
  const t = performance.now()
  for (let i = 0; i < K; i++) await f()
  return ((performance.now() - t) * 1000) / K
}
for (let i = 0; i < 3; i++) {
  await time(() => Effect.runPromise(lb))
  await time(() => Effect.runPromise(la))
  await time(cb)
  await time(ca)
}
const r: Record<string, Array<number>> = { makeB: [], makeA: [], compB: [], compA: [] }
for (let round = 0; round < 10; round++) {
  r.makeB!.push(await time(() => Effect.runPromise(lb)))
  r.makeA!.push(await time(() => Effect.runPromise(la)))
  r.compB!.push(await time(cb))
  r.compA!.push(await time(ca))
}
const med = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`load ${(await import("node:fs")).readFileSync("/proc/loadavg", "utf8").trim()}`)
console.log(
  JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(med(v))]))),
  "make ratio",
  (med(r.makeA!) / med(r.makeB!)).toFixed(3),
  "compile ratio",
  (med(r.compA!) / med(r.compB!)).toFixed(3)
)
