/**
 * A payload's top-level members, read from its bytes without building its nested values: what the
 * daemon needs to answer `accepted` (which agent's call it is, and its event: `hookDaemon.ts`)
 * before the call itself reads the payload. A payload of many megabytes, or of a million small
 * objects, is then looked at in one pass over its bytes, with no allocation but its top-level
 * scalars, instead of a whole `JSON.parse` (which took over a second for 8 MB of small objects on a
 * loaded machine, past the client's accept window).
 *
 * @internal
 */
import { MAX_PAYLOAD_DEPTH } from "@agent-hooks/core/HookInput"

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** The index after the string that starts (with its quote) at `start`, or -1 when it does not end. */
const stringEnd = (bytes: Buffer, start: number): number => {
  let from = start + 1
  for (;;) {
    const quote = bytes.indexOf(QUOTE, from)
    if (quote === -1) return -1
    let escapes = 0
    while (bytes[quote - 1 - escapes] === BACKSLASH) escapes++
    // a quote after an odd run of backslashes is escaped: the string goes on
    if (escapes % 2 === 0) return quote + 1
    from = quote + 1
  }
}

/**
 * The index after the object or array that starts at `start`: its brackets matched (strings
 * skipped), nothing in it built nor checked further. -1 when its brackets do not match, or it nests
 * deeper than a payload may (the call then fails as the payload is read).
 */
const containerEnd = (bytes: Buffer, start: number): number => {
  const closers: Array<number> = []
  for (let at = start; at < bytes.length; at++) {
    const byte = bytes[at]
    if (byte === QUOTE) {
      const end = stringEnd(bytes, at)
      if (end === -1) return -1
      at = end - 1
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      // the top-level object is depth 0: a container at MAX_PAYLOAD_DEPTH is too deep
      if (closers.length + 1 >= MAX_PAYLOAD_DEPTH) return -1
      closers.push(byte === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (closers.pop() !== byte) return -1
      if (closers.length === 0) return at + 1
    }
  }
  return -1
}

/** Parses `bytes[start, end)` as one JSON value; `undefined` when it is none. */
const parse = (bytes: Buffer, start: number, end: number): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(bytes.toString("utf8", start, end)) }
  } catch {
    return undefined
  }
}

/**
 * The members of the JSON object `bytes` holds, as `JSON.parse` gives them, except that each
 * object or array value is an empty one (`{}`, `[]`): what a call's kind and event are told from
 * (`foreignReader`, `hostEventOf`: top-level keys and scalars). Blank (or empty) is `{}`, as the call
 * reads it; a UTF-8 byte order mark is skipped, as the call's decoding skips it. `undefined` when it
 * is not an object, or not JSON at its top level. A nested value is not checked past its brackets:
 * a payload broken only inside one is read here by its top level, and fails when the call reads it.
 *
 * @internal
 */
export const topLevelMembers = (bytes: Uint8Array): Record<string, unknown> | undefined => {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0
  const skipSpace = () => {
    while (isSpace(b[at])) at++
  }
  skipSpace()
  if (at === b.length) return {}
  if (b[at] !== OPEN_OBJECT) return undefined
  at++
  const members: Record<string, unknown> = {}
  skipSpace()
  if (b[at] === CLOSE_OBJECT) at++
  else {
    for (;;) {
      skipSpace()
      if (b[at] !== QUOTE) return undefined
      const keyEnd = stringEnd(b, at)
      if (keyEnd === -1) return undefined
      const key = parse(b, at, keyEnd)
      if (key === undefined || typeof key.value !== "string") return undefined
      at = keyEnd
      skipSpace()
      if (b[at] !== 0x3a) return undefined
      at++
      skipSpace()
      const first = b[at]
      let end: number
      let value: { readonly value: unknown } | undefined
      if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
        end = containerEnd(b, at)
        value = { value: first === OPEN_OBJECT ? {} : [] }
      } else if (first === QUOTE) {
        end = stringEnd(b, at)
        value = end === -1 ? undefined : parse(b, at, end)
      } else {
        // a number, true, false or null: up to the next separator
        end = at
        while (end < b.length && !isSpace(b[end]) && b[end] !== 0x2c && b[end] !== CLOSE_OBJECT && b[end] !== CLOSE_ARRAY) end++
        value = end === at ? undefined : parse(b, at, end)
      }
      if (end === -1 || value === undefined) return undefined
      // an own member, as JSON.parse makes it (a key "__proto__" too), the last of a repeated key winning
      Object.defineProperty(members, key.value, { value: value.value, enumerable: true, writable: true, configurable: true })
      at = end
      skipSpace()
      if (b[at] === 0x2c) {
        at++
        continue
      }
      if (b[at] !== CLOSE_OBJECT) return undefined
      at++
      break
    }
  }
  skipSpace()
  return at === b.length ? members : undefined
}
