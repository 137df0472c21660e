/** A JSON path inside a settings document: `["hooks", "PreToolUse", 0]`. @internal */
export type JsonPath = ReadonlyArray<string | number>

/** How a wrong value reads in a message: `nothing`, `null`, `an array`, `an object`, `number 5`. @internal */
export const describe = (value: unknown): string =>
  value === undefined
    ? "nothing"
    : value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "object"
    ? "an object"
    : `${typeof value} ${JSON.stringify(value)}`

/** @internal */
export const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== ""
