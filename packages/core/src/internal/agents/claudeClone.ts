/**
 * What the agents that took Claude Code's hooks over (Factory Droid, CodeBuddy Code, Auggie) share:
 * Claude Code's settings shape (`hooks.<Event>: [{ matcher, hooks: [{ type, command, timeout }] }]`)
 * read from the agent's own files, with the agent's events, tool names and timeout unit. Each
 * agent's folder declares its files and its answer rules; this module reads the files.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetFile } from "../../PresetModel.ts"
import { decode as decodeCanonical } from "../settings.ts"
import { isRecord, millisToSeconds } from "../presets/common.ts"

/** One settings file of a Claude Code clone: `bare` files hold the event keys at the top (Droid's `hooks.json`). */
export interface CloneFile extends PresetFile {
  readonly bare?: boolean | undefined
}

/** A Claude Code clone's preset: its files, events, default timeout and timeout unit. */
export interface CloneDialect {
  readonly name: string
  readonly description: string
  readonly events: ReadonlyArray<string>
  /** The agent's default hook timeout, in seconds. */
  readonly defaultTimeout: number
  /** A hook's `timeout` is in milliseconds (Auggie). */
  readonly timeoutMs?: boolean | undefined
  readonly files: (home: string | undefined, projectDir: string) => ReadonlyArray<CloneFile>
  readonly projectDirEnv: ReadonlyArray<string>
  readonly toolNames: ReadonlyArray<string>
}

/** The clone's file as the canonical decoder reads it: the `hooks` object, timeouts in seconds. */
const canonical = (document: unknown, file: string, bare: boolean, timeoutMs: boolean, warnings: Array<string>): unknown => {
  const root = bare ? (isRecord(document) ? { hooks: document } : document) : document
  if (!timeoutMs || !isRecord(root) || !isRecord(root["hooks"])) return root
  const hooks = Object.fromEntries(
    Object.entries(root["hooks"]).map(([event, groups]) => [
      event,
      !Array.isArray(groups)
        ? groups
        : groups.map((group: unknown, g) =>
            !isRecord(group) || !Array.isArray(group["hooks"])
              ? group
              : {
                  ...group,
                  hooks: group["hooks"].map((handler: unknown, h) =>
                    !isRecord(handler) || handler["timeout"] === undefined
                      ? handler
                      : {
                          ...handler,
                          timeout: millisToSeconds(handler["timeout"], ["hooks", event, g, "hooks", h, "timeout"], file, warnings)
                        }
                  )
                }
          )
    ])
  )
  return { ...root, hooks }
}

/** @internal */
export const cloneDialect = (options: CloneDialect): Preset => {
  const events: ReadonlyArray<CustomEvent> = options.events.map((name) => ({ name, defaultTimeout: options.defaultTimeout }))
  const filesOf = (home: string | undefined, projectDir: string) => {
    const files = options.files(home, projectDir)
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  }
  return {
    name: options.name,
    description: options.description,
    discover: (context) => filesOf(context.env["HOME"], context.projectDir).map(({ bare: _bare, ...file }) => file),
    decode: (document, file, context) => {
      const warnings: Array<string> = []
      const bare = filesOf(context.env["HOME"], context.projectDir).some((one) => one.path === file.path && one.bare === true)
      const converted = canonical(document, file.path, bare, options.timeoutMs === true, warnings)
      return Effect.map(decodeCanonical(converted, file.path, file.scope, undefined, context.events ?? events), (decoded) => ({
        ...decoded,
        warnings: [...warnings, ...decoded.warnings]
      }))
    },
    events,
    projectDirEnv: options.projectDirEnv,
    toolNames: options.toolNames
  }
}
