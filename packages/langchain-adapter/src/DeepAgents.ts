/**
 * deepagents: one call puts the hooks middleware on the main agent and on every subagent.
 *
 * `createDeepAgent({ middleware })` alone does not reach the subagents: the default
 * `general-purpose` subagent and the subagents of `subagents` get only their own `middleware`, so
 * a tool call made by a subagent would run past the hooks. `withHooks` adds the middleware to the
 * main agent, to every (non-forked) subagent spec, and adds an explicit `general-purpose`
 * subagent (deepagents' own spec) carrying it. Forked subagents inherit the main agent's
 * middleware already. Compiled (`runnable`) and async subagents are left as they are: install the
 * middleware in them yourself.
 *
 * Inside a subagent, the hooks see `SubagentStart` / `SubagentStop` instead of `UserPromptSubmit`
 * / `Stop`, the main agent's `session_id`, and `agent_id` / `agent_type` (the subagent's name).
 *
 * This entry point imports `deepagents`; the package's main entry does not.
 *
 * **Example**
 *
 * ```ts
 * import { createDeepAgent } from "deepagents"
 * import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
 * import { withHooks } from "@agent-hooks/langchain-adapter/DeepAgents"
 *
 * const hooks = hooksMiddleware({ engine })
 * const agent = createDeepAgent(withHooks({ model, tools, subagents: [researcher] }, hooks))
 * ```
 *
 * @since 0.1.0
 */
import { GENERAL_PURPOSE_SUBAGENT } from "deepagents"
import type { AgentMiddleware } from "langchain"

/**
 * The part of `createDeepAgent`'s parameters that `withHooks` reads and changes.
 *
 * @since 0.1.0
 * @category models
 */
export interface DeepAgentParamsLike {
  readonly middleware?: ReadonlyArray<AgentMiddleware> | undefined
  readonly subagents?: ReadonlyArray<unknown> | undefined
  readonly skills?: ReadonlyArray<string> | undefined
  /** Everything else `createDeepAgent` takes is passed through. */
  readonly [key: string]: unknown
}

/**
 * Options of `withHooks`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WithHooksOptions {
  /** Add the `general-purpose` subagent (with the hooks). Default `true`; `false` when you disabled it. */
  readonly generalPurpose?: boolean | undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/**
 * Returns `params` with `hooks` installed on the main agent (first in its middleware) and on every
 * subagent, the default `general-purpose` one included.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withHooks = <P extends DeepAgentParamsLike>(params: P, hooks: AgentMiddleware, options: WithHooksOptions = {}): P => {
  const named = (list: ReadonlyArray<AgentMiddleware> | undefined) => [
    hooks,
    ...(list ?? []).filter((middleware) => middleware.name !== hooks.name)
  ]
  const subagents = (params.subagents ?? []).map((spec) => {
    if (!isRecord(spec) || "runnable" in spec || "graphId" in spec || spec["mode"] === "fork") return spec
    return { ...spec, middleware: named(spec["middleware"] as ReadonlyArray<AgentMiddleware> | undefined) }
  })
  const hasGeneralPurpose = subagents.some((spec) => isRecord(spec) && spec["name"] === GENERAL_PURPOSE_SUBAGENT.name)
  const generalPurpose =
    options.generalPurpose === false || hasGeneralPurpose
      ? []
      : [{ ...GENERAL_PURPOSE_SUBAGENT, ...(params.skills === undefined ? {} : { skills: params.skills }), middleware: [hooks] }]
  return { ...params, middleware: named(params.middleware), subagents: [...generalPurpose, ...subagents] }
}
