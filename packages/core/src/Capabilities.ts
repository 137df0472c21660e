/**
 * What the engine is given from outside, as plain function types: programmatic hooks
 * (`HookCallback`), the host's model (`ModelCaller`), MCP client (`McpCaller`), `fetch`
 * (`FetchLike`), the Cedar engine (`CedarRuntime`) and the abort signal they all receive.
 *
 * The bottom floor of the core: this module imports no other module of the package, so settings,
 * plans, presets and executors can name these types without importing the engine.
 * `HookEngine` re-exports every name.
 *
 * @since 0.2.0
 */
/**
 * The part of the standard `AbortSignal` the engine hands to callbacks (the real one is passed).
 *
 * @since 0.1.0
 * @category models
 */
export interface AbortSignalLike {
  readonly aborted: boolean
  readonly reason?: unknown
  addEventListener(type: "abort", listener: () => void, options?: { readonly once?: boolean }): void
  removeEventListener(type: "abort", listener: () => void): void
}

/**
 * A programmatic hook: a function from the input object to the output object, or to a Promise or
 * an Effect of it (an Effect must need no services and is interrupted when the hook times out).
 *
 * @since 0.1.0
 * @category models
 */
export type HookCallback = (input: Record<string, unknown>, context: { readonly signal: AbortSignalLike }) => unknown

/**
 * A matcher group of programmatic hooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallbackGroup {
  readonly matcher?: string | undefined
  readonly hooks: ReadonlyArray<HookCallback>
  /** Seconds. Default: the event's default. */
  readonly timeout?: number | undefined
}

/**
 * What a `prompt` or `agent` hook asks the host's model. The model must answer with a JSON object
 * `{"ok": boolean, "reason"?: string}` (text around it is tolerated).
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelRequest {
  readonly kind: "prompt" | "agent"
  readonly system: string
  readonly prompt: string
  readonly model: string | undefined
  readonly input: Record<string, unknown>
  readonly signal: AbortSignalLike
}

/**
 * @since 0.1.0
 * @category models
 */
export type ModelCaller = (request: ModelRequest) => Promise<string>

/**
 * @since 0.1.0
 * @category models
 */
export type McpCaller = (request: {
  readonly server: string
  readonly tool: string
  readonly input: Record<string, unknown>
  readonly signal: AbortSignalLike
}) => Promise<{ readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>; readonly isError?: boolean }>

/**
 * What `cedar` hooks need from the runtime: the Cedar engine (the subset of
 * `@cedar-policy/cedar-wasm` they call, loaded when an engine with a `cedar` hook loads) and a way to read its files.
 *
 * @since 0.2.0
 * @category models
 */
export interface CedarRuntime {
  readonly load: () => Promise<CedarWasm>
  readonly readFile: (path: string) => Promise<string>
}

/**
 * The functions of `@cedar-policy/cedar-wasm` that `cedar` hooks call (its own types are richer).
 *
 * @since 0.2.0
 * @category models
 */
export interface CedarWasm {
  readonly isAuthorized: (call: never) => unknown
  readonly validate: (call: never) => unknown
  readonly checkParseSchema: (schema: never) => unknown
  readonly policySetTextToParts: (text: string) => unknown
  readonly policyToJson: (policy: never) => unknown
  /** Parse a policy set once, then authorize against it by id (cedar-wasm 4.5 and later). */
  readonly preparsePolicySet?: ((id: string, policies: never) => unknown) | undefined
  readonly statefulIsAuthorized?: ((call: never) => unknown) | undefined
}

/**
 * A `CedarRuntime` from the runtime's `import()` of `@cedar-policy/cedar-wasm` (its Node build runs
 * on Node, Bun and Deno) and a file reader. The import runs when an engine with a `cedar` hook loads.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cedarRuntime = (importCedar: () => Promise<unknown>, readFile: (path: string) => Promise<string>): CedarRuntime => ({
  load: async () => {
    const loaded = (await importCedar()) as CedarWasm & { readonly default?: CedarWasm }
    // A CommonJS build seen from an ES module: its functions may sit on `default` only.
    return typeof loaded.isAuthorized === "function" ? loaded : loaded.default!
  },
  readFile
})

/**
 * The subset of `fetch` the `http` handler uses.
 *
 * @since 0.1.0
 * @category models
 */
export type FetchLike = (
  url: string,
  init: { readonly method: "POST"; readonly headers: Record<string, string>; readonly body: string; readonly signal: AbortSignalLike }
) => Promise<{ readonly status: number; readonly text: () => Promise<string> }>
