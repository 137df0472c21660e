import type { Preset, PresetContext, PresetFile } from "../PresetModel.ts"
import { decode } from "./settings.ts"

import { join } from "./posixPath.ts"
import { nonEmpty } from "./text.ts"

/** @internal */
export const canonical = (
  options: Pick<Preset, "name" | "description" | "discover" | "managedDir"> & Partial<Pick<Preset, "events" | "projectDirEnv">>
): Preset => ({
  events: [],
  projectDirEnv: [],
  ...options,
  decode: (document, file, context) => decode(document, file.path, file.scope, undefined, context.events ?? options.events ?? [])
})

const userProjectLocal = (userDir: string | undefined, projectDir: string, folder: string): ReadonlyArray<PresetFile> => {
  const files: Array<PresetFile> = []
  if (userDir !== undefined) files.push({ path: join(userDir, "settings.json"), scope: "user", required: false })
  files.push({ path: join(projectDir, folder, "settings.json"), scope: "project", required: false })
  files.push({ path: join(projectDir, folder, "settings.local.json"), scope: "local", required: false })
  // The same file reached twice (a home folder inside the project) is read once.
  return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
}

const homeDir = (context: PresetContext, override: string, folder: string): string | undefined => {
  const explicit = context.env[override]
  if (nonEmpty(explicit)) return explicit.startsWith("/") ? explicit : join(context.cwd, explicit)
  const home = context.env["HOME"]
  return nonEmpty(home) ? join(home, folder) : undefined
}

/** @internal */
export const agentHooks: Preset = canonical({
  name: "agent-hooks",
  description: "the canonical format: .agent-hooks/settings.json (user, project, local)",
  discover: (context) => userProjectLocal(homeDir(context, "AGENT_HOOKS_HOME", ".agent-hooks"), context.projectDir, ".agent-hooks"),
  managedDir: (context) => context.env["AGENT_HOOKS_MANAGED_DIR"] ?? "/etc/agent-hooks"
})

/** @internal */
export const claude: Preset = canonical({
  name: "claude",
  description: "Claude Code's files: .claude/settings.json (user, project, local), managed policy in /etc/claude-code",
  discover: (context) => userProjectLocal(homeDir(context, "CLAUDE_CONFIG_DIR", ".claude"), context.projectDir, ".claude"),
  managedDir: (context) => context.env["AGENT_HOOKS_MANAGED_DIR"] ?? "/etc/claude-code"
})
