/**
 * Cursor's tools as actions in Claude Code's names: `Delete` is a `Write`-class action
 * (`agent_hooks_operation: "delete"`), so a policy's `Write` guard sees the file it removes.
 */
import type { ToolActions } from "../../../HostModel.ts"
import { OPERATION, table } from "../actions.ts"

/** @internal */
export const CURSOR_ACTIONS: ReadonlyArray<ToolActions> = table({
  Delete: [
    ["Write"],
    (input) => {
      const paths = [
        ...new Set(["file_path", "path", "target_file"].map((name) => input[name]).filter((value) => typeof value === "string"))
      ]
      if (paths.length !== 1)
        return {
          refuse:
            paths.length === 0
              ? "the Delete call names no file: it cannot be judged"
              : `the Delete call names two files (${paths.join(", ")}): it cannot be judged`
        }
      return [{ tool_name: "Write", tool_input: { file_path: paths[0]!, content: "", [OPERATION]: "delete" } }]
    }
  ]
})
