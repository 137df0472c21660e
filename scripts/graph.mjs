#!/usr/bin/env node
// The import graph of a package's sources: cycles, arrows inside cycles, the longest functions.
//
//   node scripts/graph.mjs [packages/core/src] [--top=10] [--cycles]
//
// Reads every `.ts` file under the folder with the TypeScript compiler API (type-only imports
// and `export … from` count: a type cycle is a knot for a reader too). Prints:
// - files and lines per folder (a folder is a stage: executors/, presets/, …);
// - strongly connected components with more than one file, and the cycles (back edges) in them;
// - the same for value imports only (a type-only back edge to a public module is Effect's habit);
// - "upward arrows": imports from a file to one that (directly or not) imports it back, that is
//   the edges inside a strongly connected component; a layered package has none;
// - the longest functions (lines from the first to the last line of their body).
// A measuring tool for people, not part of any build or test.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative, resolve } from "node:path"

const require = createRequire(import.meta.url)
const ts = require("typescript")

const args = process.argv.slice(2)
const root = resolve(args.find((a) => !a.startsWith("--")) ?? "packages/core/src")
const top = Number((args.find((a) => a.startsWith("--top=")) ?? "--top=10").slice(6))
const listCycles = args.includes("--cycles") // also list the twin cycles

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : []
  })
const files = walk(root).sort()
const known = new Set(files)
const rel = (f) => relative(root, f)

const edges = new Map(files.map((f) => [f, new Set()]))
// The imports that carry a value (not `import type`, not only type specifiers): a cycle of these
// runs code in a loop at load time, where a type-only back edge is only a reader's detour.
const valueEdges = new Map(files.map((f) => [f, new Set()]))
const functions = []
const linesPerFolder = new Map()
for (const file of files) {
  const text = readFileSync(file, "utf8")
  const folder = dirname(rel(file))
  const entry = linesPerFolder.get(folder) ?? { files: 0, lines: 0 }
  entry.files += 1
  entry.lines += text.split("\n").length
  linesPerFolder.set(folder, entry)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const spec = node.moduleSpecifier.text
      if (spec.startsWith(".")) {
        const target = resolve(dirname(file), spec)
        if (known.has(target)) {
          edges.get(file).add(target)
          const clause = ts.isImportDeclaration(node) ? node.importClause : undefined
          const typeOnly = ts.isImportDeclaration(node)
            ? clause !== undefined &&
              (clause.isTypeOnly ||
                (clause.name === undefined &&
                  clause.namedBindings !== undefined &&
                  ts.isNamedImports(clause.namedBindings) &&
                  clause.namedBindings.elements.length > 0 &&
                  clause.namedBindings.elements.every((e) => e.isTypeOnly)))
            : node.isTypeOnly
          if (!typeOnly) valueEdges.get(file).add(target)
        }
      }
    }
    if (ts.isFunctionLike(node) && node.body) {
      const lines = lineOf(node.body.getEnd()) - lineOf(node.body.getStart(source)) + 1
      let name = node.name?.getText(source)
      if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(source)
      if (!name && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText(source)
      functions.push({ file: rel(file), line: lineOf(node.getStart(source)) + 1, name: name ?? "(anonymous)", lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}

// Tarjan's strongly connected components.
const componentsOf = (graph) => {
  let index = 0
  const stack = []
  const info = new Map()
  const components = []
  const strong = (v) => {
    info.set(v, { index, low: index, onStack: true })
    index += 1
    stack.push(v)
    for (const w of graph.get(v)) {
      if (!info.has(w)) {
        strong(w)
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low)
      } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index)
    }
    if (info.get(v).low === info.get(v).index) {
      const component = []
      let w
      do {
        w = stack.pop()
        info.get(w).onStack = false
        component.push(w)
      } while (w !== v)
      components.push(component)
    }
  }
  for (const f of files) if (!info.has(f)) strong(f)
  return components
}
const components = componentsOf(edges)
const valueKnots = componentsOf(valueEdges).filter((c) => c.length > 1)
const componentOf = new Map()
components.forEach((c, i) => c.forEach((f) => componentOf.set(f, i)))
const knots = components.filter((c) => c.length > 1)

// Cycles as madge and dpdm count them: one per back edge of a depth-first walk from each file in
// name order, shown as the path that closes it. A "twin" cycle is an internal file importing its
// own public module's types back (Effect's convention, harmless); the others are knots.
const cycles = []
const state = new Map()
const path = []
const dfs = (v) => {
  state.set(v, "open")
  path.push(v)
  for (const w of [...edges.get(v)].sort()) {
    if (state.get(w) === "open") cycles.push(path.slice(path.indexOf(w)).concat(w))
    else if (!state.has(w)) dfs(w)
  }
  path.pop()
  state.set(v, "done")
}
for (const f of files) if (!state.has(f)) dfs(f)
const isTwin = (cycle) => {
  if (cycle.length !== 3) return false
  const names = cycle.slice(0, 2).map((f) => rel(f))
  const pub = names.find((n) => !n.includes("/"))
  const int = names.find((n) => n.startsWith("internal/"))
  return pub !== undefined && int !== undefined && int.split("/").pop().toLowerCase() === pub.toLowerCase()
}
const twins = cycles.filter(isTwin)
const realCycles = cycles.filter((c) => !isTwin(c))

let edgeCount = 0
const upward = []
for (const [from, tos] of edges) {
  for (const to of tos) {
    edgeCount += 1
    if (componentOf.get(from) === componentOf.get(to)) upward.push(`${rel(from)} -> ${rel(to)}`)
  }
}

console.log(`${rel(root) || root}: ${files.length} files, ${edgeCount} imports`)
console.log("files and lines per folder:")
for (const [folder, { files: n, lines }] of [...linesPerFolder].sort())
  console.log(`  ${folder.padEnd(12)} ${String(n).padStart(3)} files ${String(lines).padStart(6)} lines`)
console.log(`knots (strongly connected, >1 file): ${knots.length}; the largest has ${Math.max(0, ...knots.map((c) => c.length))} files`)
for (const c of knots) console.log(`  {${c.map(rel).sort().join(", ")}}`)
console.log(`knots of value imports only (type-only imports left out): ${valueKnots.length}`)
for (const c of valueKnots) console.log(`  {${c.map(rel).sort().join(", ")}}`)
console.log(`cycles (back edges): ${cycles.length}, of which ${twins.length} internal-to-public twins, ${realCycles.length} others`)
for (const c of listCycles ? cycles : realCycles) console.log(`  ${c.map(rel).join(" -> ")}`)
console.log(`upward arrows (imports inside a knot): ${upward.length}`)
for (const u of upward.sort()) console.log(`  ${u}`)
console.log(`longest functions:`)
for (const f of functions.sort((a, b) => b.lines - a.lines).slice(0, top))
  console.log(`  ${String(f.lines).padStart(4)} ${f.file}:${f.line} ${f.name}`)
