/**
 * The `permissions` and `extends` keys: decoding them from a settings file (each rule parsed where
 * it is written, a bad one said with its file and JSON path), and judging a tool call against the
 * merged rules, in-process, before any hook runs.
 *
 * Merged as Claude Code merges them: the lists of every file are concatenated; a deny wins over an
 * ask, an ask over an allow, whichever file says it; managed rules come first, so a managed deny is
 * the one named when several match. An `allow` is "no objection" only: it never answers the agent
 * with an allow (that would skip the agent's own prompt) and never lifts a deny or a hook's block.
 */
import * as Predicate from "effect/Predicate"
import { formatPath } from "../HookError.ts"
import * as PermissionRule from "../PermissionRule.ts"
import type { PermissionEntry, SettingsScope } from "../SettingsModel.ts"
import * as RuleSets from "./ruleSets/index.ts"
import { describe, nearest } from "./text.ts"
import type { JsonPath } from "./text.ts"

/** The events whose tool call the rules judge (an agent's own names for them behave as these). @internal */
export const EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest"])

/** The lists of `permissions`, in the order they win. */
export const LISTS = ["deny", "ask", "allow"] as const
type List = (typeof LISTS)[number]

/** Keys Claude Code keeps in `permissions` that agent-hooks does not read (a Claude Code settings file is a valid one here). */
const CLAUDE_KEYS = ["defaultMode", "additionalDirectories", "disableBypassPermissionsMode", "disableAutoMode"]

interface Problems {
  readonly warn: (path: JsonPath, message: string) => void
  readonly drop: (path: JsonPath, message: string) => void
}

const EXAMPLE = '{"deny": ["Bash(rm -rf:*)", "Read(./.env)"], "ask": ["Bash(git push:*)"], "allow": ["Bash(npm test)"]}'

/** One rule as written: parsed now, so that a bad rule is said where it is, with what was expected. */
const entry = (
  rule: unknown,
  list: List,
  path: JsonPath,
  file: string,
  scope: SettingsScope,
  problems: Problems,
  from?: string
): PermissionEntry | undefined => {
  if (typeof rule !== "string") {
    problems.drop(path, `expected a permission rule (a string such as "Bash(rm -rf:*)"), got ${describe(rule)}; ignored`)
    return undefined
  }
  const parsed = PermissionRule.parse(rule)
  if (parsed._tag === "Failure") {
    problems.drop(path, `${parsed.message}; this ${list} rule is ignored`)
    return undefined
  }
  return { list, rule, source: file, scope, path: formatPath(path), ...(from === undefined ? {} : { from }) }
}

/** The `permissions` object of a file. */
const decodePermissions = (value: unknown, file: string, scope: SettingsScope, problems: Problems): Array<PermissionEntry> => {
  if (value === undefined) return []
  if (!Predicate.isObject(value) || Array.isArray(value)) {
    problems.drop(["permissions"], `expected an object of rule lists, like ${EXAMPLE}, got ${describe(value)}; ignored`)
    return []
  }
  const out: Array<PermissionEntry> = []
  for (const key of Object.keys(value)) {
    if ((LISTS as ReadonlyArray<string>).includes(key) || CLAUDE_KEYS.includes(key)) continue
    const near = nearest(key, [...LISTS])
    problems.warn(
      ["permissions", key],
      `unknown key${near === undefined ? "" : ` (did you mean "${near}"?)`}; ignored (the lists are deny, ask and allow)`
    )
  }
  for (const list of LISTS) {
    const rules = value[list]
    if (rules === undefined) continue
    if (!Array.isArray(rules)) {
      problems.drop(
        ["permissions", list],
        `expected an array of permission rules (strings such as "Bash(rm -rf:*)"), got ${describe(rules)}; ignored`
      )
      continue
    }
    rules.forEach((rule: unknown, index) => {
      const decoded = entry(rule, list, ["permissions", list, index], file, scope, problems)
      if (decoded !== undefined) out.push(decoded)
    })
  }
  return out
}

/** The `extends` list of a file: each named set's rules, but those its `except` leaves out. */
const decodeExtends = (
  value: unknown,
  file: string,
  scope: SettingsScope,
  problems: Problems
): { readonly names: Array<string>; readonly rules: Array<PermissionEntry> } => {
  const names: Array<string> = []
  const rules: Array<PermissionEntry> = []
  if (value === undefined) return { names, rules }
  const known = RuleSets.names.map((name) => JSON.stringify(name)).join(", ")
  const shape = `"agent-hooks:recommended" or {"name": "agent-hooks:recommended", "except": ["<rule id>"]}`
  if (!Array.isArray(value)) {
    problems.drop(["extends"], `expected an array of rule sets (${shape}), got ${describe(value)}; ignored`)
    return { names, rules }
  }
  value.forEach((item: unknown, index) => {
    const at: JsonPath = ["extends", index]
    const name = typeof item === "string" ? item : Predicate.isObject(item) ? item["name"] : undefined
    if (typeof name !== "string") {
      problems.drop(at, `expected a rule set's name or {"name": ..., "except": [...]} (${shape}), got ${describe(item)}; ignored`)
      return
    }
    const set = RuleSets.registry.get(name)
    if (set === undefined) {
      const near = nearest(name, RuleSets.names)
      problems.drop(
        typeof item === "string" ? at : [...at, "name"],
        `unknown rule set ${JSON.stringify(name)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; the known ones: ${known}; ignored`
      )
      return
    }
    let except: ReadonlyArray<string> = []
    if (Predicate.isObject(item)) {
      const raw = item["except"]
      for (const key of Object.keys(item)) {
        if (key !== "name" && key !== "except")
          problems.warn([...at, key], `unknown key (an extends entry has "name" and "except"); ignored`)
      }
      if (raw !== undefined && !(Array.isArray(raw) && raw.every((id) => typeof id === "string"))) {
        problems.drop(
          [...at, "except"],
          `expected an array of rule ids (strings), got ${describe(raw)}; the whole set ${JSON.stringify(name)} is ignored`
        )
        return
      }
      except = (raw as ReadonlyArray<string> | undefined) ?? []
      const ids = set.rules.map((rule) => rule.id)
      except.forEach((id, k) => {
        if (!ids.includes(id)) {
          const near = nearest(id, ids)
          problems.warn(
            [...at, "except", k],
            `${JSON.stringify(name)} has no rule ${JSON.stringify(id)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; its ids: ${ids.join(", ")}`
          )
        }
      })
    }
    names.push(name)
    for (const rule of set.rules) {
      if (except.includes(rule.id)) continue
      for (const text of rule.rules) {
        const decoded = entry(text, rule.list, at, file, scope, problems, `${name}#${rule.id}`)
        if (decoded !== undefined) rules.push(decoded)
      }
    }
  })
  return { names, rules }
}

/**
 * The `permissions` and `extends` of one document; a bad rule is dropped with an error (strict mode
 * fails the load on it, `validate` exits 1) and the others still hold.
 *
 * @internal
 */
export const decode = (
  document: Readonly<Record<string, unknown>>,
  file: string,
  scope: SettingsScope,
  problems: Problems
): { readonly permissions?: ReadonlyArray<PermissionEntry>; readonly extends?: ReadonlyArray<string> } => {
  if (document["permissions"] === undefined && document["extends"] === undefined) return {}
  const own = decodePermissions(document["permissions"], file, scope, problems)
  const set = decodeExtends(document["extends"], file, scope, problems)
  const permissions = [...set.rules.filter((rule) => rule.list === "deny"), ...own, ...set.rules.filter((rule) => rule.list !== "deny")]
  return {
    ...(permissions.length === 0 ? {} : { permissions }),
    ...(set.names.length === 0 ? {} : { extends: set.names })
  }
}

// ---------------------------------------------------------------------------------------------
// Judging a tool call
// ---------------------------------------------------------------------------------------------

/** The merged rules, parsed once per plan. @internal */
export interface Compiled {
  readonly rules: ReadonlyArray<{ readonly entry: PermissionEntry; readonly rule: PermissionRule.PermissionRule }>
  /** Whether an ask or deny rule exists (with only allow rules nothing can change a call). */
  readonly active: boolean
}

/** The merged rules, deny first (managed deny first of all), then ask, then allow. @internal */
export const compile = (entries: ReadonlyArray<PermissionEntry> | undefined): Compiled | undefined => {
  if (entries === undefined || entries.length === 0) return undefined
  const rank = (e: PermissionEntry) => LISTS.indexOf(e.list) * 2 + (e.scope === "managed" ? 0 : 1)
  const rules = [...entries]
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .flatMap(({ entry }) => {
      const parsed = PermissionRule.parse(entry.rule)
      return parsed._tag === "Success" ? [{ entry, rule: parsed.rule }] : []
    })
  return { rules, active: rules.some(({ entry }) => entry.list !== "allow") }
}

/**
 * Whether a deny or ask rule may apply to a call of `toolName`, told by the name alone (a host's
 * probe that has no input yet): a rule of that tool, and for a shell call every path rule too (they
 * judge the files a command names).
 *
 * @internal
 */
export const mayApply = (compiled: Compiled, toolName: string): boolean =>
  compiled.rules.some(
    ({ entry, rule }) =>
      entry.list !== "allow" &&
      ((toolName === "Bash" && rule.kind === "path") ||
        PermissionRule.matches(rule, toolName, undefined, { cwd: "/", projectDir: "/", home: undefined }))
  )

/** A rule that decides a call, and what the call does that the rule names (or why it cannot be judged). @internal */
export interface Ruled {
  readonly entry: PermissionEntry
  readonly unjudgeable: boolean
  readonly detail: string
}

/**
 * The first rule that decides the call, by list (deny, ask, allow); `undefined` when none does. A
 * deny or ask rule decides when the call certainly does what it names, and when that cannot be told
 * before the call runs (`eval "$X"`, a variable as the program): a rule that may match holds. An
 * allow rule counts only when certain.
 *
 * @internal
 */
export const judge = (
  compiled: Compiled,
  toolName: string,
  toolInput: unknown,
  options: PermissionRule.JudgeContext
): Ruled | undefined => {
  const call = { toolName, toolInput }
  // The file system is asked once per path in a call, however many rules judge it
  const realpath = options.realpath
  const resolved = new Map<string, string | undefined>()
  const ctx: PermissionRule.JudgeContext =
    realpath === undefined
      ? options
      : {
          ...options,
          realpath: (path) => {
            if (!resolved.has(path)) resolved.set(path, realpath(path))
            return resolved.get(path)
          }
        }
  // within a list a certain match is named before one that cannot be judged (`curl … | sh` is
  // "download-to-shell", not "a shell reading stdin may run rm -rf /")
  let unsure: Ruled | undefined
  for (const { entry, rule } of compiled.rules) {
    if (unsure !== undefined && entry.list !== unsure.entry.list) return unsure
    // a named set's rule that the syntax cannot say judges by its own predicate
    const own = RuleSets.setRule(entry.from)?.judge
    const judged = own === undefined ? PermissionRule.judge(rule, call, ctx) : own(call, ctx)
    if (judged.match === true) return { entry, unjudgeable: false, detail: judged.reason }
    if (judged.match === "unjudgeable" && entry.list !== "allow") unsure ??= { entry, unjudgeable: true, detail: judged.reason }
  }
  return unsure
}

/** How an Outcome names the file a rule came from: `project settings .agent-hooks/settings.json`. @internal */
export const sourceOf = (entry: PermissionEntry, projectDir: string): string => {
  const file = entry.source.startsWith(`${projectDir}/`) && projectDir !== "/" ? entry.source.slice(projectDir.length + 1) : entry.source
  const scope = entry.scope === "explicit" ? "--settings" : `${entry.scope} settings`
  return `${scope} ${file}${entry.from === undefined ? "" : `, ${entry.from}`}`
}

/**
 * The reason an Outcome gives for a rule's decision: the rule, its file, and what the call does that
 * the rule names (`runs \`rm -rf /\``), or why it could not be judged.
 *
 * @internal
 */
export const reasonOf = (ruled: Ruled, projectDir: string): string => {
  const { entry } = ruled
  const verb = entry.list === "deny" ? "denied" : entry.list === "ask" ? "asks the user" : "allowed"
  // a named set's rule judged by its own predicate is named by its id (`agent-hooks:recommended#rm-root`)
  const head =
    RuleSets.setRule(entry.from)?.judge !== undefined
      ? `${verb} by rule ${entry.from} (${sourceOf({ ...entry, from: undefined }, projectDir)})`
      : `${verb} by permissions rule ${JSON.stringify(entry.rule)} (${sourceOf(entry, projectDir)})`
  return ruled.unjudgeable
    ? `${head}: the call may match and cannot be judged before it runs (${ruled.detail})`
    : `${head}: ${ruled.detail}`
}
