/**
 * Policy across settings files: the allowlists and log paths that several files may set, merged so
 * that a file that travels with a project (project, local) can only tighten what the managed
 * settings and the user's own files (user, `--settings`) set. Hook arrays are not policy: they
 * concatenate (load.ts).
 */
import type { DecodedSettings } from "../SettingsModel.ts"
import { covers } from "./urlAllowlist.ts"

/** A project or local file: it may come from a cloned repository. @internal */
export const restricted = (scope: string): boolean => scope === "project" || scope === "local"

/**
 * Precedence of a scope where two files meet (a duplicate hook, a value several files set): managed
 * settings, then the user's own files (user, \`--settings\`), then project, then local. A lower scope
 * never weakens, replaces or shadows what a higher one set; plugins and programmatic hooks rank last
 * (they are never merged away). @internal
 */
export const rank = (scope: string): number =>
  scope === "managed" ? 4 : scope === "user" || scope === "explicit" ? 3 : scope === "project" ? 2 : scope === "local" ? 1 : 0

type Level = "managed" | "user" | "project"
const levelOf = (scope: string): Level => (scope === "managed" ? "managed" : restricted(scope) ? "project" : "user")

const LIST_KEYS = ["allowedHttpHookUrls", "httpHookAllowedEnvVars", "allowedCommands"] as const
type ListKey = (typeof LIST_KEYS)[number]
type LogKey = "executionLog" | "auditLog"

/** Where a warning goes: the file, the JSON path in it, the message. */
type Warn = (file: string, path: string, message: string) => void

interface Setting<A> {
  readonly scope: string
  readonly file: string
  readonly value: A
}

/** Whether the bound admits an entry, and how to say that it does not. */
const RULES: Record<ListKey, { readonly admits: (bound: ReadonlyArray<string>, entry: string) => boolean; readonly not: string }> = {
  // a URL pattern counts only if every URL it admits is admitted by a pattern of the bound
  allowedHttpHookUrls: { admits: covers, not: "admits URLs that are not admitted by" },
  httpHookAllowedEnvVars: { admits: (bound, entry) => bound.includes(entry), not: "is not listed in" },
  allowedCommands: { admits: (bound, entry) => bound.includes(entry), not: "is not listed in" }
}

/** The merged policy. @internal */
export interface Merged {
  readonly allowedHttpHookUrls: ReadonlyArray<string> | undefined
  readonly httpHookAllowedEnvVars: ReadonlyArray<string> | undefined
  readonly allowedCommands: ReadonlyArray<string> | undefined
  readonly executionLog: string | undefined
  readonly auditLog: string | undefined
}

/** @internal */
export const make = () => {
  const lists: Record<ListKey, Array<Setting<ReadonlyArray<string>>>> = {
    allowedHttpHookUrls: [],
    httpHookAllowedEnvVars: [],
    allowedCommands: []
  }
  const logs: Record<LogKey, Array<Setting<string>>> = { executionLog: [], auditLog: [] }

  /**
   * An allowlist: within the managed level and within the user's level, the last file wins (they are
   * the administrator's and the user's own); each level then narrows the one above it, and each
   * project or local file narrows what is set so far. An entry the bound does not admit is dropped
   * with a warning naming the file, the JSON path and the file that sets the bound.
   */
  const mergeList = (key: ListKey, warn: Warn): ReadonlyArray<string> | undefined => {
    const settings = lists[key]
    const last = (level: Level) => settings.filter((s) => levelOf(s.scope) === level).at(-1)
    const steps = [last("managed"), last("user"), ...settings.filter((s) => levelOf(s.scope) === "project")]
    let bound: Setting<ReadonlyArray<string>> | undefined
    for (const step of steps) {
      if (step === undefined) continue
      if (bound === undefined) {
        bound = step
        continue
      }
      const outer = bound
      const kept = step.value.filter((entry, index) => {
        if (RULES[key].admits(outer.value, entry)) return true
        const why =
          levelOf(step.scope) === "project"
            ? `a ${step.scope} settings file may only narrow this list (it may come from a cloned repository)`
            : "your settings may only narrow the managed list"
        const where = levelOf(outer.scope) === "managed" ? "the managed settings (ask your administrator)" : outer.file
        warn(
          step.file,
          `${key}[${index}]`,
          `${JSON.stringify(entry)} ${RULES[key].not} the ${key} of ${outer.file}; ${why}, so the ` +
            `entry is dropped. To allow it, add it to ${where}`
        )
        return false
      })
      bound = { ...step, value: kept }
    }
    return bound?.value
  }

  /** A log path: managed settings win, then the user's own files; a project or local file's log counts only when neither names one. */
  const mergeLog = (key: LogKey, warn: Warn): string | undefined => {
    const settings = logs[key]
    const last = (level: Level) => settings.filter((s) => levelOf(s.scope) === level).at(-1)
    const chosen = last("managed") ?? last("user") ?? last("project")
    if (chosen !== undefined && levelOf(chosen.scope) !== "project") {
      for (const ignored of settings.filter((s) => levelOf(s.scope) === "project")) {
        warn(
          ignored.file,
          key,
          `${chosen.file} already names this log (${chosen.value}); a ${ignored.scope} settings file cannot move it; ignored`
        )
      }
    }
    return chosen?.value
  }

  return {
    /** The allowlists of one decoded file (managed, user, explicit, project or local). */
    add: (scope: string, file: string, decoded: DecodedSettings): void => {
      for (const key of LIST_KEYS) {
        const value = decoded[key]
        if (value !== undefined) lists[key].push({ scope, file, value })
      }
    },
    /** A log path that passed the log-path rule. */
    log: (key: LogKey, scope: string, file: string, path: string): void => {
      logs[key].push({ scope, file, value: path })
    },
    merge: (warn: Warn): Merged => ({
      allowedHttpHookUrls: mergeList("allowedHttpHookUrls", warn),
      httpHookAllowedEnvVars: mergeList("httpHookAllowedEnvVars", warn),
      allowedCommands: mergeList("allowedCommands", warn),
      executionLog: mergeLog("executionLog", warn),
      auditLog: mergeLog("auditLog", warn)
    })
  }
}
