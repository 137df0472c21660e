/**
 * The Cedar runtime of `cedar` hooks: `@cedar-policy/cedar-wasm`'s Node build, imported when an
 * engine with a cedar hook loads, and its files read as regular files only. Written once here; the
 * Bun and Deno packages run the same build and use this runtime.
 *
 * @since 0.2.0
 */
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import * as internal from "./internal/cedar.ts"

/**
 * The runtime (the engine's default `cedar` option on Node, Bun and Deno). A FIFO or a device
 * named as a policy fails the hook at once, never blocks (`RegularFile.reader`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const cedarRuntime: HookEngine.CedarRuntime = internal.cedarRuntime
