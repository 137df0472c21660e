import { Socket } from "node:net"
import type { SocketConstructorOpts } from "node:net"
import type { Readable } from "node:stream"
import type { OutputPipe } from "@agent-hooks/core/SpawnerKit"

/** Where every drained pipe's bytes land: read into and forgotten (reads happen one at a time on the event loop). */
const DISCARD = Buffer.allocUnsafe(64 * 1024)

/** A pipe's libuv handle, as Node keeps it on the socket that reads it. */
type PipeHandle = NonNullable<SocketConstructorOpts["handle"]> & { readonly useUserBuffer?: unknown }

/**
 * Reads `readable` to its end and drops what it reads, so the process writing into it never
 * blocks on a full pipe. Node reads a pipe into a fresh 64 KiB buffer per read, freed only by a
 * later garbage collection (a gigabyte of output raises the host's memory by about 100 MB); a
 * socket given `onread` reads into one buffer of its own instead, so the pipe's handle moves to
 * such a socket. Elsewhere (a runtime without that handle) the chunks are read and dropped.
 * Returns how to stop draining.
 */
export const drain = (readable: Readable): (() => void) => {
  const handle = (readable as unknown as { readonly _handle?: PipeHandle | null })._handle
  if (typeof handle?.useUserBuffer === "function") {
    readable.removeAllListeners("data")
    readable.pause()
    const socket = new Socket({ handle, readable: true, writable: false, onread: { buffer: DISCARD, callback: () => true } })
    socket.on("error", () => {})
    socket.on("end", () => socket.destroy())
    return () => socket.destroy()
  }
  readable.removeAllListeners("data")
  readable.on("data", () => {})
  return () => {}
}

/**
 * Reads `readable` into `pipe`, at most `limit` bytes; past them it is drained (`drain`) and the
 * pipe ends. Returns how to stop reading.
 */
export const readCapped = (readable: Readable | null, pipe: OutputPipe, limit: number): (() => void) => {
  if (readable === null) {
    pipe.end()
    return () => {}
  }
  let left = limit
  let stop = () => {}
  readable.on("data", (chunk: Buffer) => {
    if (chunk.byteLength < left) {
      left -= chunk.byteLength
      if (pipe.push(chunk) !== false) return
      // The reader wants no more (its own cap, smaller: plain text past it): the rest is drained.
      left = 0
      pipe.end()
      stop = drain(readable)
      return
    }
    pipe.push(chunk.subarray(0, left))
    left = 0
    pipe.end()
    stop = drain(readable)
  })
  readable.on("end", () => pipe.end())
  // A read error ends what the core reads; the exit status still comes from the process.
  readable.on("error", () => pipe.end())
  return () => stop()
}
