/**
 * Loaded before every test file in every lane (see vitest.config.ts).
 *
 * `addEqualityTesters` teaches `expect(...).toEqual` Effect's structural equality (`Equal`), so
 * Options, Exits, Data classes and Schema values compare by value.
 *
 * `agent-hooks hook` in a test starts the per-user daemon of its HOME (docs/cli/hook.md): the
 * CLIs the tests spawn with this environment give theirs a minute without a call, not a quarter
 * of an hour, so a test run leaves none behind for long.
 */
import { addEqualityTesters } from "@effect/vitest"

addEqualityTesters()
process.env["AGENT_HOOKS_DAEMON_IDLE"] ??= "60"
