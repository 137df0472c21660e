import type { Agent } from "../../HostModel.ts"
import { claude } from "./claude.ts"
import { codex } from "./codex.ts"
import { copilotHost } from "./copilot.ts"
import { cursorHost } from "./cursor.ts"
import { gemini } from "./gemini.ts"
import { qwen } from "./qwen.ts"
import { antigravity, antigravity10 } from "./antigravity.ts"
import { cline } from "./cline.ts"
import { kiro } from "./kiro.ts"
import { vscodeHost } from "./vscode.ts"
import { windsurf } from "./windsurf.ts"

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
