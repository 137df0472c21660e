/**
 * Auggie's hooks (`--preset auggie`): `hooks` in `/etc/augment/settings.json`,
 * `~/.augment/settings.json` and `<project>/.augment/settings.json`. Claude Code's shape, its seven
 * events (PromptSubmit for UserPromptSubmit), its tool names (`launch-process`...), a hook's
 * `timeout` in milliseconds (60 000 by default), `AUGMENT_PROJECT_DIR`.
 */
import type { Preset } from "../../../PresetModel.ts"
import { cloneDialect } from "../claudeClone.ts"
import { join, nonEmpty } from "../../presets/common.ts"
import { AUGGIE_EVENTS, auggie as host } from "./host.ts"

/** @internal */
export const auggie: Preset = cloneDialect({
  name: "auggie",
  description:
    "Auggie: /etc/augment/settings.json, ~/.augment/settings.json, .augment/settings.json; " +
    "Claude Code's shape, its tool names (launch-process), timeouts in ms, 60 s",
  events: Object.keys(AUGGIE_EVENTS),
  defaultTimeout: host.hookTimeout,
  timeoutMs: true,
  files: (home, projectDir) => [
    { path: "/etc/augment/settings.json", scope: "managed" as const, required: false },
    ...(nonEmpty(home) ? [{ path: join(home, ".augment", "settings.json"), scope: "user" as const, required: false }] : []),
    { path: join(projectDir, ".augment", "settings.json"), scope: "project" as const, required: false }
  ],
  projectDirEnv: ["AUGMENT_PROJECT_DIR"],
  toolNames: host.toolNames
})
