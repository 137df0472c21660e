import { readFileSync } from "node:fs"

/**
 * The CLI's version: from `package.json` next to `src/` or `dist/`. A bundle defines
 * `AGENT_HOOKS_VERSION` at build time instead, since it has no package.json beside it.
 *
 * @internal
 */
export const version: string =
  typeof AGENT_HOOKS_VERSION === "string"
    ? AGENT_HOOKS_VERSION
    : (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

declare const AGENT_HOOKS_VERSION: string | undefined
