/**
 * JSON-lines framing of a byte stream (`agent-hooks serve`'s stdin and each socket connection).
 *
 * Lines are cut on the `\n` byte, before any decoding, so a multi-byte UTF-8 character split
 * across two chunks is decoded whole (a chunk-by-chunk decoder turned it into U+FFFD, and a guard
 * on `/données/` missed the path). Each line is decoded once, strictly: bytes that are not UTF-8
 * are reported, never replaced. The work is linear in the bytes read whatever the line sizes: a
 * chunk is searched once for newlines, a line's pieces are joined once, and a line over the limit
 * is dropped as it arrives and skipped up to its end without being held.
 *
 * Kept, not Effect's `Ndjson` (which also cuts bytes first and decodes strictly): an over-long or
 * non-UTF-8 line there fails the whole stream, where `serve` answers that one line and goes on.
 *
 * @internal
 */

/** What a line turned out to be. */
export type Frame =
  | { readonly _tag: "Line"; readonly text: string }
  | { readonly _tag: "TooLong"; readonly limit: number }
  | { readonly _tag: "NotUtf8" }

/** The byte sink of one input: `push` each chunk as it comes, `end` once at the end of input. */
export interface LineFramer {
  readonly push: (chunk: Uint8Array | string) => void
  readonly end: () => void
}

const NEWLINE = 0x0a

interface TextDecoderLike {
  decode(input: Uint8Array): string
}
interface TextEncoderLike {
  encode(text: string): Uint8Array
}
const web = globalThis as unknown as {
  readonly TextDecoder: new (label: string, options: { fatal: boolean }) => TextDecoderLike
  readonly TextEncoder: new () => TextEncoderLike
}

/** Frames lines of at most `maxBytes` bytes (the `\n` not counted) and hands each to `onFrame`. */
export const make = (maxBytes: number, onFrame: (frame: Frame) => void): LineFramer => {
  const decoder = new web.TextDecoder("utf-8", { fatal: true })
  const encoder = new web.TextEncoder()
  let pieces: Array<Uint8Array> = []
  let size = 0
  // The rest of a line over the limit is skipped up to its newline.
  let skipping = false

  const reset = () => {
    pieces = []
    size = 0
  }
  const tooLong = () => {
    reset()
    skipping = true
    onFrame({ _tag: "TooLong", limit: maxBytes })
  }
  const emit = () => {
    const bytes = pieces.length === 1 ? pieces[0]! : join(pieces, size)
    reset()
    let text: string
    try {
      text = decoder.decode(bytes)
    } catch {
      return onFrame({ _tag: "NotUtf8" })
    }
    onFrame({ _tag: "Line", text })
  }
  const take = (part: Uint8Array) => {
    if (skipping || part.length === 0) return
    if (size + part.length > maxBytes) return tooLong()
    pieces.push(part)
    size += part.length
  }

  return {
    push: (chunk) => {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk
      let start = 0
      while (start <= bytes.length) {
        const newline = bytes.indexOf(NEWLINE, start)
        if (newline < 0) {
          take(bytes.subarray(start))
          return
        }
        take(bytes.subarray(start, newline))
        if (skipping) skipping = false
        else emit()
        start = newline + 1
      }
    },
    end: () => {
      if (!skipping && size > 0) emit()
      reset()
      skipping = false
    }
  }
}

const join = (pieces: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const out = new Uint8Array(size)
  let offset = 0
  for (const piece of pieces) {
    out.set(piece, offset)
    offset += piece.length
  }
  return out
}
