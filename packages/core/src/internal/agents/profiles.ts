/**
 * The agents: one folder each (`./<name>/profile.ts`), and this list is the only place that names
 * them. Host mode's `agents`, the presets' registry, and the CLI's install, doctor, migrate and help
 * read it. Adding an agent: its folder, one line here, one docs page.
 */
import type { AgentProfile } from "../../AgentProfile.ts"
import { profile as auggie } from "./auggie/profile.ts"
import { profile as antigravity, profile10 as antigravity10 } from "./antigravity/profile.ts"
import { profile as claude } from "./claude/profile.ts"
import { profile as cline } from "./cline/profile.ts"
import { profile as codebuddy } from "./codebuddy/profile.ts"
import { profile as codex } from "./codex/profile.ts"
import { profile as copilot } from "./copilot/profile.ts"
import { profile as cursor } from "./cursor/profile.ts"
import { profile as factory } from "./factory/profile.ts"
import { profile as gemini } from "./gemini/profile.ts"
import { profile as kilo } from "./kilo/profile.ts"
import { profile as kiro } from "./kiro/profile.ts"
import { profile as opencode } from "./opencode/profile.ts"
import { profile as pi } from "./pi/profile.ts"
import { profile as qwen } from "./qwen/profile.ts"
import { profile as vscode } from "./vscode/profile.ts"
import { profile as windsurf } from "./windsurf/profile.ts"

/** @internal */
export const profiles: ReadonlyArray<AgentProfile> = [
  claude,
  codex,
  gemini,
  qwen,
  kiro,
  windsurf,
  cline,
  antigravity,
  antigravity10,
  cursor,
  copilot,
  vscode,
  factory,
  codebuddy,
  auggie,
  pi,
  opencode,
  kilo
]
