import { describe, expect, it } from "vitest"
import * as LogPath from "@agent-hooks/core/LogPath"

const check = (path: string, scope: string, extraRoots?: ReadonlyArray<string>) =>
  LogPath.check(path, { scope, file: "/p/.agent-hooks/settings.json", key: "executionLog", projectDir: "/p", extraRoots })

describe("LogPath.check", () => {
  it.each<[path: string, scope: string, verdict: string | undefined]>([
    ["/p/.agent-hooks/logs/hooks.jsonl", "project", "/p/.agent-hooks/logs/hooks.jsonl"],
    ["/p/.agent-hooks/logs/a/b/c.jsonl", "local", "/p/.agent-hooks/logs/a/b/c.jsonl"],
    ["/p/.agent-hooks/logs/a/../b.jsonl", "plugin", "/p/.agent-hooks/logs/b.jsonl"],
    ["/p/.agent-hooks/logs/../../home/u/.bashrc", "project", undefined],
    ["/p/.agent-hooks/logs", "project", undefined], // the folder itself is no file
    ["/p/.agent-hooks/logsx/h.jsonl", "project", undefined],
    ["/p/.agent-hooks/settings.json", "project", undefined],
    ["/home/u/.bashrc", "project", undefined],
    ["/home/u/.bashrc", "local", undefined],
    ["/home/u/.bashrc", "plugin", undefined],
    ["/home/u/.bashrc", "somethingelse", undefined],
    ["/home/u/.bashrc", "user", "/home/u/.bashrc"],
    ["/var/log/hooks.jsonl", "managed", "/var/log/hooks.jsonl"],
    ["/var/log/hooks.jsonl", "explicit", "/var/log/hooks.jsonl"],
    ["/var/log/hooks.jsonl", "options", "/var/log/hooks.jsonl"],
    ["relative.log", "user", undefined],
    ["/p/.agent-hooks/logs/a\u0000b", "project", undefined]
  ])("%j from %s → %s", (path, scope, expected) => {
    const verdict = check(path, scope)
    if (expected === undefined) {
      expect(verdict._tag).toBe("Refused")
      expect(verdict._tag === "Refused" && verdict.message).toMatch(/^\/p\/\.agent-hooks\/settings\.json at executionLog: /)
    } else {
      expect(verdict).toMatchObject({ _tag: "Allowed", path: expected })
    }
  })

  it("a preset's own log folder is allowed too", () => {
    expect(check("/p/.wingman/hooks.jsonl", "project", ["/p/.wingman"])).toMatchObject({ _tag: "Allowed", root: "/p/.wingman" })
    expect(check("/p/.wingmanx/hooks.jsonl", "project", ["/p/.wingman"])._tag).toBe("Refused")
  })
})
