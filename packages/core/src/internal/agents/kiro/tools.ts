/**
 * Kiro's tools as actions in Claude Code's names: `fs_read` is one `Read` per file of its
 * `operations[]` (each operation's `path`, an Image operation's `image_paths[]`) and its own `path`;
 * `fs_write` is a `Write` for `create`, an `Edit` for its other commands (`str_replace`, `insert`,
 * `append`).
 */
import type { Action, ToolActions } from "../../../HostModel.ts"
import { table } from "../actions.ts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** @internal */
export const KIRO_ACTIONS: ReadonlyArray<ToolActions> = table({
  fs_read: [
    ["Read"],
    (input) => {
      const paths: Array<string> = []
      const add = (value: unknown) => {
        if (typeof value === "string" && !paths.includes(value)) paths.push(value)
        if (Array.isArray(value)) for (const one of value) add(one)
      }
      add(input["path"])
      add(input["image_paths"])
      if (input["operations"] !== undefined) {
        if (!Array.isArray(input["operations"]) || !input["operations"].every(isObject))
          return { refuse: "the fs_read call's operations is not a list of operations: it cannot be judged" }
        for (const operation of input["operations"] as ReadonlyArray<Record<string, unknown>>) {
          add(operation["path"])
          add(operation["image_paths"])
        }
      }
      if (paths.length === 0) return { refuse: "the fs_read call names no file: it cannot be judged" }
      return paths.map((file_path): Action => ({ tool_name: "Read", tool_input: { file_path } }))
    }
  ],
  fs_write: [
    ["Write", "Edit"],
    (input) => {
      if (typeof input["path"] !== "string") return { refuse: "the fs_write call names no file (path): it cannot be judged" }
      const { path, file_text, old_str, new_str, ...rest } = input
      return [
        input["command"] === "create" || input["command"] === undefined
          ? { tool_name: "Write", tool_input: { ...rest, file_path: path, content: file_text ?? "" } }
          : {
              tool_name: "Edit",
              tool_input: { ...rest, file_path: path, old_string: old_str ?? null, new_string: new_str ?? file_text ?? null }
            }
      ]
    }
  ]
})
