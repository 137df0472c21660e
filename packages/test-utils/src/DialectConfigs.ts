/**
 * Configs in each dialect's own format, for the `migrate` tests: a list of hooks (event, matcher,
 * timeout in seconds, command) written as that dialect's files (Cursor's and Copilot CLI's flat v1
 * lists, Kiro's triggers, Antigravity's suites, pigo's plugins, Cline's executables, Gemini CLI's
 * and orchestration's milliseconds, else Claude Code's nested shape).
 *
 * @since 0.2.0
 */
import type { Preset } from "@agent-hooks/core/Preset"
import { join } from "node:path"

/**
 * One hook of a generated config.
 *
 * @since 0.2.0
 */
export interface Hook {
  readonly event: string
  readonly matcher: string | undefined
  /** Seconds. */
  readonly timeout: number | undefined
  readonly command: string
}

/** Catalog events, for the dialects that declare none of their own. */
const CATALOG = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "PreCompact", "Notification"]

/**
 * The event names a dialect's files use.
 *
 * @since 0.2.0
 */
export const eventsOf = (preset: Preset): ReadonlyArray<string> =>
  preset.events.length > 0 ? preset.events.map((event) => event.name) : CATALOG

/**
 * A config of `hooks` in the dialect's own format: its files (paths relative to the project) and
 * whether they are named with `settings` (`explicit`) or found by the preset's discovery (Cline's
 * executables, written with their executable bit).
 *
 * @since 0.2.0
 */
export const configFor = (
  preset: Preset,
  hooks: ReadonlyArray<Hook>
): { readonly files: Record<string, string>; readonly explicit: boolean } => {
  const byEvent = <A>(make: (hook: Hook) => A) => {
    const out: Record<string, Array<A>> = {}
    for (const hook of hooks) (out[hook.event] ??= []).push(make(hook))
    return out
  }
  const nested = (hook: Hook) => ({
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    hooks: [{ type: "command", command: hook.command, ...(hook.timeout === undefined ? {} : { timeout: hook.timeout }) }]
  })
  const single = (value: unknown) => ({ explicit: true, files: { "config.json": JSON.stringify(value) } })
  const ms = (hook: Hook): Hook => ({ ...hook, timeout: hook.timeout === undefined ? undefined : hook.timeout * 1000 })
  switch (preset.name) {
    case "cursor":
      return single({
        version: 1,
        hooks: byEvent((h) => ({
          command: h.command,
          ...(h.matcher === undefined ? {} : { matcher: h.matcher }),
          ...(h.timeout === undefined ? {} : { timeout: h.timeout })
        }))
      })
    case "copilot":
      return single({
        version: 1,
        hooks: byEvent((h) => ({ type: "command", bash: h.command, ...(h.timeout === undefined ? {} : { timeoutSec: h.timeout }) }))
      })
    case "windsurf":
      return single({ hooks: byEvent((h) => ({ command: h.command })) })
    case "kiro":
      return single({
        version: "v1",
        hooks: hooks.map((h, i) => ({
          name: `h${i}`,
          trigger: h.event,
          ...(h.matcher === undefined ? {} : { matcher: h.matcher }),
          action: { type: "command", command: h.command },
          ...(h.timeout === undefined ? {} : { timeout: h.timeout })
        }))
      })
    case "antigravity":
      return single({ suite: byEvent(nested) })
    case "pigo":
      return single({
        plugins: [
          { name: "p", hooks: byEvent((h) => ({ command: h.command, ...(h.timeout === undefined ? {} : { timeout: h.timeout }) })) }
        ]
      })
    case "cline":
      // one executable per event (the first hook of each), found by discovery
      return {
        explicit: false,
        files: Object.fromEntries(
          [...new Set(hooks.map((h) => h.event))].map((event) => [
            join(".clinerules", "hooks", event),
            `#!/bin/sh\n${hooks.find((h) => h.event === event)!.command}\n`
          ])
        )
      }
    case "gemini":
      return single({ hooks: byEvent((h) => nested(ms(h))) })
    case "orchestration":
      return single({ executionLog: false, hooks: byEvent((h) => nested(ms(h))) })
    default:
      return single({ hooks: byEvent(nested) })
  }
}
