/**
 * Cline's tools as actions in Claude Code's names: `run_commands` is one `Bash` per command of
 * `commands[]`.
 */
import type { Action, ToolActions } from "../../../HostModel.ts"
import { commandText, table } from "../actions.ts"

/** @internal */
export const CLINE_ACTIONS: ReadonlyArray<ToolActions> = table({
  run_commands: [
    ["Bash"],
    (input) => {
      // the CLI's payload as host mode reads it: its commands one per line (a newline is a command
      // separator, so each is still judged)
      if (typeof input["command"] === "string" && !("commands" in input))
        return [{ tool_name: "Bash", tool_input: { command: input["command"] } }]
      const list = input["commands"]
      if (!Array.isArray(list) || list.length === 0)
        return { refuse: "the run_commands call's commands is not a list of commands: it cannot be judged" }
      const commands = list.map(commandText)
      if (commands.some((command) => command === undefined))
        return { refuse: "a command of the run_commands call is no command string: it cannot be judged" }
      return (commands as ReadonlyArray<string>).map((command): Action => ({ tool_name: "Bash", tool_input: { command } }))
    }
  ]
})
