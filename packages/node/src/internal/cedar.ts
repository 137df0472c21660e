/** The Cedar engine for `cedar` hooks: `@cedar-policy/cedar-wasm`, imported when an engine with such a hook loads. */
import { cedarRuntime as make } from "@agent-hooks/core/HookEngine"
import { readFile } from "node:fs/promises"

/** @internal */
export const cedarRuntime = make(
  () => import("@cedar-policy/cedar-wasm/nodejs"),
  (path) => readFile(path, "utf8")
)
