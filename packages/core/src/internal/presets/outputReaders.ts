/**
 * The output readers the presets supply, by output dialect: how Gemini CLI, Kiro, Windsurf,
 * Cline, Antigravity, Cursor, Copilot CLI, Codex and VS Code hooks answer, and how Gemini CLI's
 * `hookSpecificOutput` combine. `HookOutput.interpret` and `Outcome.aggregate` read an event
 * through the reader of its `outputDialect`; the core's own reading knows Claude Code's rules only.
 *
 * @internal
 */
import { aggregateWith, assembleWith } from "../outcome.ts"
import { interpretWith, type OutputReader, shallowMerge } from "../output.ts"
import * as AgentJson from "./agentJsonOutput.ts"
import * as Gemini from "../agents/gemini/output.ts"
import * as Peer from "./peerOutput.ts"

/** @internal */
export const readers: Readonly<Record<string, OutputReader>> = { ...Gemini.readers, ...Peer.readers, ...AgentJson.readers }

/** @internal */
export const interpret = interpretWith(readers)

/** @internal */
export const mergeSpecific = (dialect: string) =>
  (Object.hasOwn(readers, dialect) ? readers[dialect]?.mergeSpecific : undefined) ?? shallowMerge

/** `Outcome.aggregate`, each dialect's hooks merging as the preset says. @internal */
export const aggregate = aggregateWith(mergeSpecific)

/** The outcome assembled from its hooks' decision, each dialect's hooks merging as the preset says. @internal */
export const assemble = assembleWith(mergeSpecific)
