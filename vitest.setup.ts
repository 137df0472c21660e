/**
 * Loaded before every test file in every lane (see vitest.config.ts).
 *
 * `addEqualityTesters` teaches `expect(...).toEqual` Effect's structural equality (`Equal`), so
 * Options, Exits, Data classes and Schema values compare by value.
 *
 * `agent-hooks hook` in a test starts the per-user daemon of its HOME (docs/cli/hook.md): the
 * CLIs the tests spawn with this environment give theirs a minute without a call, not a quarter
 * of an hour, so a test run leaves none behind for long.
 */
import { addEqualityTesters } from "@effect/vitest"

addEqualityTesters()
process.env["AGENT_HOOKS_DAEMON_IDLE"] ??= "60"

// The lanes run Node with `--conditions source` (the workspace packages' TypeScript). A dependency
// that publishes a "source" export of its own TypeScript (eventsource and eventsource-parser, under
// the MCP client of the OpenAI Agents SDK) would then load `src/*.ts` from node_modules, which Node
// refuses to strip: such a resolution takes the package's build (its "import" export) instead.
import { readFileSync } from "node:fs"
import * as nodeModule from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

type ExportTarget = string | { readonly [condition: string]: ExportTarget } | null
const built = (target: ExportTarget | undefined): string | undefined => {
  if (typeof target === "string") return target
  if (target === null || target === undefined) return undefined
  for (const condition of ["import", "node", "default"]) {
    const found = built(target[condition])
    if (found !== undefined) return found
  }
  return undefined
}
/** The build a package's exports give `specifier` without the "source" condition. */
const withoutSource = (specifier: string, url: string): string | undefined => {
  const parts = specifier.split("/")
  const nameLength = specifier.startsWith("@") ? 2 : 1
  const name = parts.slice(0, nameLength).join("/")
  const subpath = ["."].concat(parts.slice(nameLength)).join("/")
  let dir = dirname(fileURLToPath(url))
  while (!dir.endsWith(`/node_modules/${name}`) && dir !== dirname(dir)) dir = dirname(dir)
  try {
    const exports = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { exports?: Record<string, ExportTarget> }).exports
    const target = built(exports?.[subpath])
    return target === undefined ? undefined : pathToFileURL(join(dir, target)).href
  } catch {
    return undefined
  }
}
const registerHooks = (nodeModule as { registerHooks?: (hooks: unknown) => void }).registerHooks
if (typeof registerHooks === "function" && typeof process.versions.bun !== "string") {
  type Next = (specifier: string, context: unknown) => { readonly url: string }
  registerHooks({
    resolve: (specifier: string, context: unknown, next: Next) => {
      const resolved = next(specifier, context)
      if (!resolved.url.includes("/node_modules/") || !/\.[mc]?ts$/.test(resolved.url) || specifier.startsWith(".")) return resolved
      const url = withoutSource(specifier, resolved.url)
      return url === undefined ? resolved : { ...resolved, url, format: undefined, shortCircuit: true }
    }
  })
}
