/**
 * `RegularFile`: the runtime's `node:fs` reads only regular files. A FIFO, a link to `/dev/zero`, a
 * folder is refused at once as what it is, naming the path (a read of a FIFO waits for a writer, one
 * of `/dev/zero` never ends); a file over the bound is refused before it is read.
 */
import * as RegularFile from "@agent-hooks/core/RegularFile"
import { Cleanups } from "@agent-hooks/test-utils"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const cleanups = Cleanups.register("agent-hooks-regular-file-")

describe("RegularFile", () => {
  it("reads a regular file, and a link to one", async () => {
    const dir = cleanups.tempDir()
    fs.writeFileSync(join(dir, "policies.cedar"), "permit (principal, action, resource);\n")
    fs.symlinkSync(join(dir, "policies.cedar"), join(dir, "link.cedar"))
    expect(RegularFile.readSync(fs, join(dir, "policies.cedar"))).toBe("permit (principal, action, resource);\n")
    expect(await RegularFile.reader(fs)(join(dir, "link.cedar"))).toBe("permit (principal, action, resource);\n")
  })

  const shapes: ReadonlyArray<readonly [string, (path: string) => void, string]> = [
    ["a FIFO", (path) => expect(spawnSync("mkfifo", [path]).status).toBe(0), "a FIFO (named pipe), not a regular file"],
    ["a link to /dev/zero", (path) => fs.symlinkSync("/dev/zero", path), "a character device, not a regular file"],
    ["a folder", (path) => fs.mkdirSync(path), "a folder, not a regular file"]
  ]
  it.each(shapes)("refuses %s at once, naming the path and what it is; the reader rejects", async (_, make, said) => {
    const path = join(cleanups.tempDir(), "policies.cedar")
    make(path)
    expect(() => RegularFile.readSync(fs, path)).toThrow(`${path}: ${said}: agent-hooks reads only regular files`)
    await expect(RegularFile.reader(fs)(path)).rejects.toThrow(`${path}: ${said}`)
  })

  it("refuses a file over the bound before reading it; a missing file is the runtime's ENOENT", async () => {
    const dir = cleanups.tempDir()
    fs.writeFileSync(join(dir, "big.json"), "x".repeat(101))
    expect(() => RegularFile.readSync(fs, join(dir, "big.json"), 100)).toThrow(`${join(dir, "big.json")}: 101 bytes, more than`)
    expect(RegularFile.readSync(fs, join(dir, "big.json"), 101)).toHaveLength(101)
    await expect(RegularFile.reader(fs, 100)(join(dir, "big.json"))).rejects.toThrow("101 bytes")
    await expect(RegularFile.reader(fs)(join(dir, "missing.json"))).rejects.toMatchObject({ code: "ENOENT" })
  })
})
