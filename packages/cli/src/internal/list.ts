import * as Plan from "@agent-hooks/core/Plan"
import type * as Settings from "@agent-hooks/core/Settings"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import type { Failed } from "../ExitCode.ts"
import { warnOnStderr, withPlan } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import { columns, describeHandler, describeMatcher } from "./render.ts"
import * as Debug from "./debug.ts"

/** Options of `agent-hooks list`. */
export interface ListOptions extends SettingsOptions {
  readonly json: boolean
  /** `--plan`: the compiled plan itself (`Plan.toJSON`), for debugging what the engine will run. */
  readonly plan?: boolean | undefined
  /** `--quiet`: no settings warnings on stderr. */
  readonly quiet?: boolean | undefined
}

/** One hook as `list --json` prints it. */
export interface ListedHook {
  readonly event: string
  /** The matcher as written; `null` when the group had none (it matches everything). */
  readonly matcher: string | null
  readonly type: Settings.Handler["type"]
  /** What runs: the command (exec form joined with spaces), the URL, the prompt... */
  readonly command: string
  readonly timeout: number | null
  readonly source: string
  readonly scope: Settings.SettingsScope
  /** The JSON path of the handler inside its file. */
  readonly path: string
}

/**
 * The plan's hooks as `list --json` prints them, in plan order. Hooks that compile dropped (a broken
 * `if` rule, a prompt hook on an event that cannot run one) are not listed: they never run.
 *
 * @internal
 */
export const listed = (plan: Plan.Plan): Array<ListedHook> =>
  [...plan.events.values()].flatMap(({ hooks }) =>
    hooks.map(({ entry }) => ({
      event: entry.event,
      matcher: entry.matcher.source ?? null,
      type: entry.handler.type,
      command: describeHandler(entry.handler),
      timeout: entry.handler.timeout ?? null,
      source: entry.source,
      scope: entry.scope,
      path: entry.path
    }))
  )

const relative = (file: string, cwd: string): string => {
  const rel = NodePath.relative(cwd, file)
  return rel !== "" && !rel.startsWith("..") && !NodePath.isAbsolute(rel) ? rel : file
}

const ORDER = ["deny", "ask", "allow"]

/**
 * The `permissions` rules, one line each in the order they are judged (deny, ask, allow; managed
 * first): the list, the rule, where it was written (`file:json.path`) and the named set it came from.
 *
 * @internal
 */
export const permissionLines = (entries: ReadonlyArray<Settings.PermissionEntry>, cwd: string): ReadonlyArray<string> => {
  const rank = (entry: Settings.PermissionEntry) => ORDER.indexOf(entry.list) * 2 + (entry.scope === "managed" ? 0 : 1)
  const sorted = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry)
  return columns(
    sorted.map((entry) => [
      entry.list,
      entry.rule,
      `${relative(entry.source, cwd)}:${entry.path}${entry.from === undefined ? "" : ` (${entry.from})`}`
    ])
  )
}

/** The permissions section of the listings: a heading and one line per rule; none without rules. */
const permissionsSection = (entries: ReadonlyArray<Settings.PermissionEntry> | undefined, cwd: string): ReadonlyArray<string> =>
  entries === undefined || entries.length === 0
    ? []
    : [
        `permissions (${entries.length} rules, judged before any hook: deny, then ask; allow is no objection)`,
        ...permissionLines(entries, cwd)
      ]

/**
 * The human listing: per event, one line per hook with its matcher, type, command, and where it
 * was defined (`file:json.path`).
 *
 * @internal
 */
export const render = (plan: Plan.Plan, cwd: string): string => {
  const events = [...plan.events]
    .map(([event, { hooks }]) => [event, hooks.map((hook) => hook.entry)] as const)
    .filter(([, entries]) => entries.length > 0)
  const rules = permissionsSection(plan.settings.permissions, cwd)
  if (events.length === 0) return rules.length === 0 ? "no hooks registered" : ["no hooks registered", "", ...rules].join("\n")
  const hooks = events
    .map(([event, entries]) =>
      [
        `${event} (${entries.length})`,
        ...columns(
          entries.map((entry) => [
            describeMatcher(entry),
            entry.handler.type,
            describeHandler(entry.handler),
            `${relative(entry.source, cwd)}:${entry.path}`
          ])
        )
      ].join("\n")
    )
    .join("\n\n")
  return rules.length === 0 ? hooks : `${hooks}\n\n${rules.join("\n")}`
}

/**
 * `agent-hooks list`: the hooks of the compiled plan, as text or (`--json`) as a JSON array.
 * Settings warnings go to stderr.
 *
 * @internal
 */
export const list = (options: ListOptions): Effect.Effect<void, Failed> =>
  Effect.flatMap(Debug.verbosity, (level) =>
    withPlan(options, options.quiet === true || level.quiet ? undefined : warnOnStderr, (plan) =>
      Effect.andThen(
        Effect.sync(() => level.debug && Debug.loaded(plan)),
        Console.log(
          options.plan === true
            ? JSON.stringify(Plan.toJSON(plan), null, 2)
            : options.json
              ? JSON.stringify(listed(plan), null, 2)
              : render(plan, process.cwd())
        )
      )
    )
  )
