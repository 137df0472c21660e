/**
 * CodeBuddy Code's hooks (`--preset codebuddy`): `hooks` in `~/.codebuddy/settings.json` and
 * `<project>/.codebuddy/settings.json` (it does not read `.claude/settings.json`). Claude Code's
 * shape, names and tools, 60 s by default, `CODEBUDDY_PROJECT_DIR`.
 */
import type { Preset } from "../../../PresetModel.ts"
import { cloneDialect } from "../claudeClone.ts"
import { join, nonEmpty } from "../../presets/common.ts"
import { CODEBUDDY_EVENTS, codebuddy as host } from "./host.ts"

/** @internal */
export const codebuddy: Preset = cloneDialect({
  name: "codebuddy",
  description: "CodeBuddy Code: ~/.codebuddy/settings.json, .codebuddy/settings.json; Claude Code's shape and names, 60 s",
  events: CODEBUDDY_EVENTS,
  defaultTimeout: host.hookTimeout,
  files: (home, projectDir) => [
    ...(nonEmpty(home) ? [{ path: join(home, ".codebuddy", "settings.json"), scope: "user" as const, required: false }] : []),
    { path: join(projectDir, ".codebuddy", "settings.json"), scope: "project" as const, required: false }
  ],
  projectDirEnv: ["CODEBUDDY_PROJECT_DIR"],
  toolNames: host.toolNames
})
