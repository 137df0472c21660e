/**
 * The daemon's read of a payload's top level before it accepts a call (internal/topLevel.ts): the
 * same members `JSON.parse` gives, nested values left empty, for any JSON object and for hostile
 * text (escaped quotes and brackets inside strings, a key `__proto__`, repeated keys, a byte order
 * mark, nesting past the payload limit, text that is not one object).
 */
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { topLevelMembers } from "../src/internal/topLevel.ts"

/** What the top-level read must give: `JSON.parse`'s object with every nested value emptied. */
const shallow = (text: string): Record<string, unknown> | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    const emptied = Array.isArray(member) ? [] : typeof member === "object" && member !== null ? {} : member
    Object.defineProperty(out, key, { value: emptied, enumerable: true, writable: true, configurable: true })
  }
  return out
}

const read = (text: string) => topLevelMembers(Buffer.from(text, "utf8"))

describe("topLevelMembers", () => {
  it("gives JSON.parse's top-level members for any JSON object, however it is spaced", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.constantFrom(undefined, 1, "\t", " \n\r "), (object, space) => {
        const text = JSON.stringify(object, null, space)
        expect(read(text)).toStrictEqual(shallow(text))
      }),
      { numRuns: PropertyRuns.forLane(500) }
    )
  })

  it("reads hostile text as JSON.parse does at the top level", () => {
    const texts = [
      '{"hook_event_name":"PreToolUse","tool_input":{"command":"a \\" } ] { [ b"},"x":"\\\\"}',
      '{"a\\"b":1,"c\\\\":[1,"]",{"}":"{"}],"d":"\\u0041\\ud83d\\ude00"}',
      '{"__proto__":{"polluted":true},"constructor":"x","hookEventName":"PreToolUse"}',
      '{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}',
      '\ufeff{"hook_event_name":"PreToolUse"}',
      '  \n{ "timestamp" : 1.5e3 , "n": -0, "t": true, "f": false, "z": null }\t',
      "",
      "   \n",
      "[1]",
      '"text"',
      "1",
      "null",
      "not json",
      '{"a":1,}',
      '{"a":1}{"b":2}',
      '{"a":1} x',
      '{"a" 1}',
      '{"a":01}',
      '{"a":tru}',
      '{"a":"raw\ncontrol"}',
      '{"a":[1,2}',
      '{"a":{"b":[}]}',
      '{"a":"unterminated',
      '{"a":[',
      `{"deep":${"[".repeat(254)}${"]".repeat(254)},"hook_event_name":"PreToolUse"}`,
      `{"deep":${"[".repeat(255)}${"]".repeat(255)},"hook_event_name":"PreToolUse"}`,
      `{"deep":${"[".repeat(256)}${"]".repeat(256)},"hook_event_name":"PreToolUse"}`,
      `{"deep":${"[".repeat(300)}${"]".repeat(300)},"hook_event_name":"PreToolUse"}`
    ]
    for (const text of texts) {
      // blank is the call's empty payload; a byte order mark is skipped as the call's decoding skips it
      const expected = text.trim() === "" ? {} : text.startsWith("\ufeff") ? shallow(text.slice(1)) : shallow(text)
      // nested past the payload limit (256 levels): the call fails to read it, so no top level is read either
      const tooDeep = /"deep":\[{256,}/.test(text)
      expect(read(text), JSON.stringify(text.slice(0, 80))).toStrictEqual(tooDeep ? undefined : expected)
    }
    expect(Object.getPrototypeOf(read('{"__proto__":{"polluted":true}}'))).toBe(Object.prototype)
  })

  it("reads the top level of a payload of many megabytes without building it", () => {
    const text = JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_input: { items: Array.from({ length: 200_000 }, (_, i) => ({ i, s: `"${i}\\` })) },
      tool_name: "Bash"
    })
    expect(read(text)).toStrictEqual({ hook_event_name: "PreToolUse", tool_input: {}, tool_name: "Bash" })
  })
})
