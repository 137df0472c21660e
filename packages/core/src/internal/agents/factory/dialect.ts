/**
 * Factory Droid's hooks (`--preset factory`): `hooks` in `<project>/.factory/settings.json` and
 * `~/.factory/settings.json`, and `hooks.json` beside them (the event keys at its top, the file
 * Droid's /hooks writes). Claude Code's shape, its nine events, Droid's tool names (`Execute`...),
 * 60 s by default, `FACTORY_PROJECT_DIR`.
 */
import type { Preset } from "../../../PresetModel.ts"
import { cloneDialect } from "../claudeClone.ts"
import { join, nonEmpty } from "../../presets/common.ts"
import { FACTORY_EVENTS, factory as host } from "./host.ts"

/** @internal */
export const factory: Preset = cloneDialect({
  name: "factory",
  description:
    "Factory Droid: ~/.factory/settings.json, ~/.factory/hooks.json, .factory/settings.json, .factory/hooks.json; " +
    "Claude Code's shape, Droid's tool names (Execute), 60 s",
  events: FACTORY_EVENTS,
  defaultTimeout: host.hookTimeout,
  files: (home, projectDir) => [
    ...(nonEmpty(home)
      ? [
          { path: join(home, ".factory", "settings.json"), scope: "user" as const, required: false },
          { path: join(home, ".factory", "hooks.json"), scope: "user" as const, required: false, bare: true }
        ]
      : []),
    { path: join(projectDir, ".factory", "settings.json"), scope: "project" as const, required: false },
    { path: join(projectDir, ".factory", "hooks.json"), scope: "project" as const, required: false, bare: true }
  ],
  projectDirEnv: ["FACTORY_PROJECT_DIR"],
  toolNames: host.toolNames
})
