// The core's floors: a public module imports the modules below it and its own internal files;
// internal code imports public types downward only. A cycle through two public modules (Settings,
// Preset, Plan and the engine importing each other) is a knot a reader cannot enter anywhere; a
// cycle of value imports runs code in a loop at load time. Both are refused here, with the cycle.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve, dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../src/", import.meta.url))

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : []
  })

// `import … from "./x.ts"` and `export … from "./x.ts"`, over several lines too.
const IMPORT = /^(?:import|export)\s+((?:type\s+)?(?:\{[^}]*\}|[^\n"]*?))\s*from\s+"(\.{1,2}\/[^"]+)"/gm

/** `import type`, `export type` and `import { type A, type B }` carry no value. */
const typeOnly = (clause: string): boolean => {
  if (/^type\s/.test(clause)) return true
  const named = /^\{([^}]*)\}$/.exec(clause)
  if (named === null) return false
  const names = named[1]!
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  return names.length > 0 && names.every((name) => name.startsWith("type "))
}

interface Graph {
  readonly all: ReadonlyMap<string, ReadonlySet<string>>
  readonly values: ReadonlyMap<string, ReadonlySet<string>>
}

const graphOf = (files: ReadonlyArray<string>): Graph => {
  const all = new Map<string, Set<string>>()
  const values = new Map<string, Set<string>>()
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    const from = relative(root, file)
    all.set(from, new Set())
    values.set(from, new Set())
    for (const match of text.matchAll(IMPORT)) {
      const target = relative(root, resolve(dirname(file), match[2]!))
      all.get(from)!.add(target)
      if (!typeOnly(match[1]!)) values.get(from)!.add(target)
    }
  }
  return { all, values }
}

/** Strongly connected components with more than one file (Tarjan). */
const knotsOf = (graph: ReadonlyMap<string, ReadonlySet<string>>): ReadonlyArray<ReadonlyArray<string>> => {
  let index = 0
  const stack: Array<string> = []
  const info = new Map<string, { index: number; low: number; onStack: boolean }>()
  const knots: Array<Array<string>> = []
  const strong = (v: string) => {
    const own = { index, low: index, onStack: true }
    info.set(v, own)
    index += 1
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      const seen = info.get(w)
      if (seen === undefined) {
        strong(w)
        own.low = Math.min(own.low, info.get(w)!.low)
      } else if (seen.onStack) own.low = Math.min(own.low, seen.index)
    }
    if (own.low === own.index) {
      const component: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        info.get(w)!.onStack = false
        component.push(w)
      } while (w !== v)
      if (component.length > 1) knots.push(component.sort())
    }
  }
  for (const file of graph.keys()) if (!info.has(file)) strong(file)
  return knots
}

const isPublic = (file: string) => !file.includes("/")

describe("the core's import floors", () => {
  const graph = graphOf(walk(root))

  it("reads the whole core", () => {
    expect(graph.all.size).toBeGreaterThan(50)
    expect(graph.all.get("Settings.ts")?.has("SettingsModel.ts")).toBe(true)
  })

  it("has no import cycle through two public modules: each knot is one public module with its own internal files", () => {
    const shared = knotsOf(graph.all).filter((knot) => knot.filter(isPublic).length > 1)
    expect(shared).toEqual([])
  })

  it("has no cycle of value imports", () => {
    expect(knotsOf(graph.values)).toEqual([])
  })

  it("keeps the bottom-floor modules out of every cycle", () => {
    const knotted = new Set(knotsOf(graph.all).flat())
    const bottom = ["Capabilities.ts", "Verdict.ts", "SettingsModel.ts", "PresetModel.ts", "HostModel.ts", "HookError.ts"]
    expect(bottom.filter((file) => knotted.has(file))).toEqual([])
  })
})
