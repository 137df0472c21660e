/** The Cedar engine for `cedar` hooks: `@cedar-policy/cedar-wasm`, imported when an engine with such a hook loads. */
import { cedarRuntime as make } from "@agent-hooks/core/HookEngine"
import * as RegularFile from "@agent-hooks/core/RegularFile"
import * as fs from "node:fs"

/** @internal */
export const cedarRuntime = make(
  () => import("@cedar-policy/cedar-wasm/nodejs"),
  // only regular files: a FIFO or a device named as a policy fails the hook, never blocks the read
  RegularFile.reader(fs)
)
