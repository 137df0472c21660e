// Files a bundled module finds beside itself at run time (`new URL("./x.js", import.meta.url)`),
// for the bundlers of the CLI (scripts/bundle-cli.mjs, scripts/bundle-cli-bun.ts). A bundle moves
// a module's code into an output file of its own choosing, so such a file is not where the module
// looks for it unless the bundler puts it there: the spawn helper's entry was missing from the
// CLI bundle, and every hook of a CLI over 256 MB "could not start".
//
// So every workspace module a bundle takes in is read for `import.meta` lookups of files: a module
// listed in RUN_TIME_FILES gets each of its files built beside every output file that holds it; a
// module listed in NOT_REACHED says why its lookup never runs in a bundle; any other module fails
// the build, with this file named in the error.

import { relative, sep } from "node:path"

/** module (from the repository root) -> the files it starts or reads beside itself, each built from a source. */
export const RUN_TIME_FILES = {
  // The spawn helper's entry, started with `node <file>` (or bun, deno) once the host is over 256 MB.
  "packages/node/src/internal/spawnHelper.ts": [{ file: "spawnHelperMain.js", source: "packages/node/src/internal/spawnHelperMain.ts" }],
  // The plugin `install --host pi|opencode|kilo` writes into the agent's plugin folder (one line filled in).
  "packages/cli/src/internal/pluginFile.ts": [
    { file: "agentHooksPlugin.js", source: "packages/cli/src/internal/plugins/agentHooksPlugin.js" }
  ]
}

/** module -> why its `import.meta` file lookup never runs in a bundle. */
export const NOT_REACHED = {
  "packages/cli/src/internal/version.ts": "reads package.json only when AGENT_HOOKS_VERSION is not defined, and every bundle defines it"
}

// `new URL(…, import.meta.url)`, import.meta.dirname / filename: a file found beside the module.
// createRequire(import.meta.url) resolves packages (optional ones, each failing with its own message).
const FILE_LOOKUP = /new URL\([^;]*?import\.meta\.url|import\.meta\.(?:dirname|filename)\b/

/** The module's path from the repository root, with forward slashes. */
export const moduleId = (root, path) => relative(root, path).split(sep).join("/")

/**
 * Why this module cannot be bundled as it is (a string), or undefined. `id` is its path from the
 * repository root, `source` its text.
 */
export const runTimeFileProblem = (id, source) => {
  if (!FILE_LOOKUP.test(source) || id in RUN_TIME_FILES || id in NOT_REACHED) return undefined
  return (
    `${id} finds a file beside itself at run time (import.meta.url), which a bundle does not ship where it looks: ` +
    "list the file in RUN_TIME_FILES of scripts/run-time-files.mjs (the bundlers then build it beside the module's code), " +
    "or the module in NOT_REACHED with the reason its lookup never runs in a bundle"
  )
}
