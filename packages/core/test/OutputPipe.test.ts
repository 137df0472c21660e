import { describe, expect, it } from "vitest"
import { Effect, Stream } from "effect"
import { HookRunner } from "@agent-hooks/core"
import type { ProcessSpawner } from "@agent-hooks/core"
import * as SpawnerKit from "@agent-hooks/core/SpawnerKit"

const isBun = typeof process.versions.bun === "string"

/** A byte stream of `count` chunks of `size` bytes, chunk i filled with the letter i (a, b, c...); counts what was read. */
const letters = (count: number, size: number) => {
  const state = { pulled: 0 }
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: size,
    pull(controller) {
      if (state.pulled === count) {
        // A pending read into the reader's buffer is answered with no bytes once the stream is closed.
        controller.close()
        return controller.byobRequest?.respond(0)
      }
      const letter = 97 + state.pulled++
      const request = controller.byobRequest
      if (request?.view) {
        const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength)
        const n = Math.min(size, view.byteLength)
        view.fill(letter, 0, n)
        request.respond(n)
      } else {
        controller.enqueue(new Uint8Array(size).fill(letter))
      }
    }
  })
  return { stream, state }
}

const text = (pipe: SpawnerKit.OutputPipe) =>
  Effect.runPromise(Stream.runCollect(pipe.stream)).then((chunks) => new TextDecoder().decode(Buffer.concat([...chunks])))

describe("readWebPipe: what a spawner keeps of a pipe", () => {
  for (const byob of isBun ? [false] : [false, true]) {
    describe(byob ? "read into one reused buffer (byob)" : "chunk by chunk", () => {
      it("keeps the first `limit` bytes, each chunk as it was written, and reads the rest to the end without keeping it", async () => {
        const { stream, state } = letters(6, 10)
        const pipe = SpawnerKit.makeOutputPipe()
        const dropped: Array<number> = []
        SpawnerKit.readWebPipe(stream, pipe, 25, { byob, whileDraining: (n) => dropped.push(n) })
        // Chunks are copied before the buffer is read into again: a, b and half of c, not the later letters.
        expect(await text(pipe)).toBe("a".repeat(10) + "b".repeat(10) + "c".repeat(5))
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(state.pulled).toBe(6)
        expect(dropped).toEqual([10, 20, 30])
      })

      it("a stream shorter than the limit is kept whole and ends the pipe", async () => {
        const { stream } = letters(2, 4)
        const pipe = SpawnerKit.makeOutputPipe()
        SpawnerKit.readWebPipe(stream, pipe, 100, { byob })
        expect(await text(pipe)).toBe("aaaabbbb")
      })

      it("chunks read before anyone subscribes wait in the pipe", async () => {
        const { stream } = letters(3, 2)
        const pipe = SpawnerKit.makeOutputPipe()
        SpawnerKit.readWebPipe(stream, pipe, 100, { byob })
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(await text(pipe)).toBe("aabbcc")
      })
    })
  }

  it("a stream that is not a byte stream is read chunk by chunk even when byob is asked for", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("plain "))
        controller.enqueue(new TextEncoder().encode("stream"))
        controller.close()
      }
    })
    const pipe = SpawnerKit.makeOutputPipe()
    SpawnerKit.readWebPipe(stream, pipe, 100, { byob: true })
    expect(await text(pipe)).toBe("plain stream")
  })

  it("a failing stream ends the pipe with what was read", async () => {
    let n = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ === 0) controller.enqueue(new TextEncoder().encode("before"))
        else controller.error(new Error("EIO"))
      }
    })
    const pipe = SpawnerKit.makeOutputPipe()
    SpawnerKit.readWebPipe(stream, pipe, 100)
    expect(await text(pipe)).toBe("before")
  })
})

describe("HookRunner.collect over OutputPipes (the runner reads a real spawner's pipes through callbacks)", () => {
  const handleOf = (stdout: SpawnerKit.OutputPipe, stderr: SpawnerKit.OutputPipe): ProcessSpawner.ProcessHandle => ({
    pid: 1,
    exited: Effect.succeed({ exitCode: 0, signal: null }),
    // stdout, stderr and listen: the runner reads through the listeners
    ...SpawnerKit.handlePipes({ stdout, stderr }),
    kill: () => Effect.void
  })
  const bytes = (text: string) => new TextEncoder().encode(text)

  it("reads what was pushed before and after it started, decodes characters split across chunks, caps each pipe, and is done when both ended", async () => {
    const out = SpawnerKit.makeOutputPipe()
    const err = SpawnerKit.makeOutputPipe()
    out.push(bytes("before "))
    const euro = bytes("€")
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const reader = yield* HookRunner.collect(handleOf(out, err), 12)
          out.push(euro.subarray(0, 1))
          out.push(euro.subarray(1))
          err.push(bytes("0123456789abcdef"))
          const soFar = reader.soFar()
          const doneBefore = reader.done?.()
          out.end()
          err.end()
          return { soFar, doneBefore, doneAfter: reader.done?.(), output: yield* reader.output }
        })
      )
    )
    expect(result.soFar.stdout).toBe("before €")
    expect(result.doneBefore).toBe(false)
    expect(result.doneAfter).toBe(true)
    expect(result.output).toEqual({ stdout: "before €", stderr: "0123456789ab", stdoutTruncated: false, stderrTruncated: true })
  })

  it("a handle's listen is how the runner reads it: the streams beside it are never pulled", async () => {
    const out = SpawnerKit.makeOutputPipe()
    const err = SpawnerKit.makeOutputPipe()
    const handle: ProcessSpawner.ProcessHandle = { ...handleOf(out, err), stdout: Stream.die("pulled"), stderr: Stream.die("pulled") }
    out.push(bytes("through listen"))
    out.end()
    err.end()
    const output = await Effect.runPromise(Effect.scoped(Effect.flatMap(HookRunner.collect(handle, 100), (reader) => reader.output)))
    expect(output.stdout).toBe("through listen")
  })

  it("output waits for the pipes to end", async () => {
    const out = SpawnerKit.makeOutputPipe()
    const err = SpawnerKit.makeOutputPipe()
    const output = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const reader = yield* HookRunner.collect(handleOf(out, err), 100)
          setTimeout(() => {
            out.push(bytes("late"))
            out.end()
            err.end()
          }, 20)
          return yield* reader.output
        })
      )
    )
    expect(output.stdout).toBe("late")
  })
})

describe("signalGroup", () => {
  it("says whether the signal was sent, and false (not a throw) when the group is gone", () => {
    const sent: Array<[number, string]> = []
    expect(SpawnerKit.signalGroup((pid, signal) => void sent.push([pid, signal]), 42, "SIGTERM")).toBe(true)
    expect(sent).toEqual([[-42, "SIGTERM"]])
    const esrch = () => {
      throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" })
    }
    const limit = Error.stackTraceLimit
    expect(SpawnerKit.signalGroup(esrch, 42, "SIGKILL")).toBe(false)
    // The host's own setting is back.
    expect(Error.stackTraceLimit).toBe(limit)
  })
})
