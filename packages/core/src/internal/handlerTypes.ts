/**
 * The registry of handler types: for each `type` a settings file may name, one descriptor with its
 * schema (`handlerSchema.ts`), what it is for, the files it names and the checks its schema cannot
 * express. The decoder (`settings.ts`), the JSON Schema, trust (`trust.ts`) and the executors'
 * table (`executors/index.ts`) are derived from it: a new type is one entry here and one executor.
 */
import type * as Schema from "effect/Schema"
import * as Placeholder from "../Placeholder.ts"
import type { Handler } from "../SettingsModel.ts"
import * as HandlerSchema from "./handlerSchema.ts"
import { checkExec } from "./placeholder.ts"

/** A command handler's payload placeholders and exec-form arguments, checked when it loads. */
const checkCommand = (handler: (typeof HandlerSchema.command)["Type"]): ReadonlyArray<HandlerProblem> => {
  if (handler.args === undefined) {
    if (handler.shell === "powershell") return []
    // a placeholder that cannot be quoted safely is refused here rather than guessed at run time
    const issues = Placeholder.checkShell(handler.command, handler.shell === "bash" ? "bash" : "sh")
    if (issues.length === 0) return []
    return [
      {
        path: ["command"],
        message: `${issues.map((i) => `${i.message} (at character ${i.index})`).join("; ")}; handler skipped`,
        skip: true
      }
    ]
  }
  // payload code in exec form (`sh -c "…${tool_input.command}…"`, `node -e`): quoted, or refused here
  const issues = checkExec(handler.command, handler.args)
  if (issues.length > 0) {
    const field = /^args\[(\d+)\]$/.exec(issues[0]!.field)
    return [
      {
        path: field === null ? ["command"] : ["args", Number(field[1])],
        message: `${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}; handler skipped`,
        skip: true
      }
    ]
  }
  // Exec form runs no shell: a path glob in an argument (`rm -rf /tmp/claude-temp-*`) reaches the
  // program as it is written, and matches nothing. Said here, not left to do nothing in silence.
  return handler.args.flatMap((arg, index) =>
    !arg.includes("${") && /(^|\/)[^/]*[*?[][^/]*(\/|$)/.test(arg) && arg.includes("/")
      ? [
          {
            path: ["args", index],
            message:
              `${JSON.stringify(arg)} is a path glob, and exec form runs no shell to expand it: ` +
              `${handler.command} gets it as it is written (a file of that exact name). Write the ` +
              `command in shell form ("command": "${handler.command} ... ${arg}") or as "command": "sh", ` +
              `"args": ["-c", "..."] to expand it`,
            skip: false
          }
        ]
      : []
  )
}

/**
 * One handler type a settings file may name: its schema (the decoder and the JSON Schema both use
 * it), what it is for (the JSON Schema's description), and the files it names (the trust store
 * approves and pins them with the settings file). Its executor is bound to the same `type` in
 * `executors/index.ts`, whose table the compiler checks against this registry.
 *
 * @internal
 */
export interface HandlerType<S extends Schema.Struct<Schema.Struct.Fields>> {
  readonly schema: S
  readonly summary: string
  /**
   * The fields that name a file, relative to the settings file's folder, each with the field the
   * loader puts its absolute path in. Trust approves those files with the settings, and runs an
   * approved hook on the approved copies.
   */
  readonly files?: Readonly<Record<string, string>>
  /** Values of optional fields the loader fills in when the file leaves them out. */
  readonly defaults?: Readonly<Record<string, unknown>>
  /**
   * What the schema cannot say about a decoded handler: each problem at its path inside the
   * handler; one that `skip`s keeps the handler from loading (the first such problem ends the check).
   */
  readonly check?: (handler: S["Type"]) => ReadonlyArray<HandlerProblem>
}

/** A problem of one handler, at its path inside the handler. @internal */
export interface HandlerProblem {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
  /** The handler is skipped (an error); otherwise a warning, and the handler loads. */
  readonly skip: boolean
}

const handlerType = <S extends Schema.Struct<Schema.Struct.Fields>>(descriptor: HandlerType<S>) => descriptor

/**
 * Every handler type, by its `type`: the one list the decoder, the JSON Schema, trust and the
 * executors are derived from. A new type is one entry here and one executor.
 *
 * @internal
 */
export const handlerTypes = {
  command: handlerType({ schema: HandlerSchema.command, summary: "a process: shell form, or exec form with `args`", check: checkCommand }),
  http: handlerType({ schema: HandlerSchema.http, summary: "a POST of the input JSON to a URL (or OPA's Data API)" }),
  prompt: handlerType({ schema: HandlerSchema.prompt, summary: "the host's model judges the input" }),
  agent: handlerType({ schema: HandlerSchema.agent, summary: "the host's agent judges the input" }),
  mcp_tool: handlerType({ schema: HandlerSchema.mcpTool, summary: "a tool of an MCP server, called through the host" }),
  module: handlerType({
    schema: HandlerSchema.module,
    summary: "a JavaScript module's export, run in-process",
    files: { module: "modulePath" },
    defaults: { export: "default" }
  }),
  cedar: handlerType({
    schema: HandlerSchema.cedar,
    summary: "Cedar policies, evaluated in-process",
    files: { policies: "policiesPath", entities: "entitiesPath", schema: "schemaPath" }
  })
} as const

/** The `type` of a handler a settings file may hold. @internal */
export type HandlerTypeName = keyof typeof handlerTypes

/** The types, in the registry's order. @internal */
export const handlerTypeNames = Object.keys(handlerTypes) as ReadonlyArray<HandlerTypeName>

/** The type's descriptor; `undefined` for a `type` no settings file may name. @internal */
export const handlerTypeOf = (type: unknown): (typeof handlerTypes)[HandlerTypeName] | undefined =>
  typeof type === "string" && Object.hasOwn(handlerTypes, type) ? handlerTypes[type as HandlerTypeName] : undefined

// Each type of the registry is a member of the public `Handler` union (SettingsModel.ts), which the
// executors, the plan and the CLI switch on: a type added here and not there does not compile.
type Unlisted = Exclude<HandlerTypeName, Handler["type"]>
const _everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true
void _everyTypeListed
