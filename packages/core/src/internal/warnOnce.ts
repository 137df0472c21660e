/**
 * One warning per problem per process: a problem the settings show (a hook that can never run, a
 * command not on PATH) is the same on every dispatch and in every engine a host builds on the same
 * settings. What each `onWarning` function has been told is remembered for the life of the process,
 * so that such a line is said once to it; the Outcomes keep carrying it.
 */

/** The lines each warning function has been told, by function (an engine's, the console's). */
const told = new WeakMap<(warning: string) => void, Set<string>>()

/**
 * Says `line` to `onWarning` unless it was said to it before in this process; `true` when said.
 * @internal
 */
export const sayOnce = (onWarning: (warning: string) => void, line: string): boolean => {
  let lines = told.get(onWarning)
  if (lines === undefined) told.set(onWarning, (lines = new Set()))
  if (lines.has(line)) return false
  lines.add(line)
  return true
}
