import type { Agent } from "../../HostModel.ts"
import { claude } from "./claude/host.ts"
import { codex } from "./codex/host.ts"
import { copilotHost } from "./copilot/host.ts"
import { cursorHost } from "./cursor/host.ts"
import { gemini } from "./gemini/host.ts"
import { qwen } from "./qwen/host.ts"
import { antigravity, antigravity10 } from "./antigravity/host.ts"
import { cline } from "./cline/host.ts"
import { kiro } from "./kiro/host.ts"
import { vscodeHost } from "./vscode/host.ts"
import { windsurf } from "./windsurf/host.ts"

/** @internal */
export const agents: ReadonlyArray<Agent> = [
  claude,
  codex,
  gemini,
  qwen,
  kiro,
  windsurf,
  cline,
  antigravity,
  antigravity10,
  cursorHost,
  copilotHost,
  vscodeHost
]

/** @internal */
export const byName = (name: string): Agent | undefined => agents.find((agent) => agent.name === name)
