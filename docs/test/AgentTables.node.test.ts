/**
 * The docs' per-agent tables are written from the agents' profiles (docs/scripts/agents.ts): the
 * committed pages hold what it writes, and every agent has its host page.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as Agents from "@agent-hooks/core/Agents"
import { docsDir, renderAll } from "../scripts/agents.ts"

describe("the agent tables", () => {
  it("are what docs/scripts/agents.ts writes from the profiles (run it after changing an agent's folder)", () => {
    const stale = [...renderAll()].filter(([page, content]) => readFileSync(join(docsDir, page), "utf8") !== content).map(([page]) => page)
    expect(stale).toEqual([])
  })

  it("link each agent's host page and dialect page, which exist", () => {
    const pages = Agents.profiles.flatMap((profile) => [
      profile.docs.hostPage,
      ...(profile.docs.dialectPage === undefined ? [] : [profile.docs.dialectPage])
    ])
    const dialects = Agents.dialects.map((profile) => profile.docs.dialectPage)
    expect([...pages, ...dialects].filter((page) => !existsSync(join(docsDir, page)))).toEqual([])
  })
})
