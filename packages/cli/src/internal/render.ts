import type * as Settings from "@agent-hooks/core/Settings"

/** What a handler runs, in one line: the command (exec form joined with spaces), the URL, the prompt... */
export const describeHandler = (handler: Settings.Handler): string => {
  switch (handler.type) {
    case "command":
      return handler.args === undefined ? handler.command : [handler.command, ...handler.args].join(" ")
    case "http":
      return handler.url
    case "prompt":
    case "agent":
      return oneLine(handler.prompt, 80)
    case "mcp_tool":
      return `${handler.server} ${handler.tool}`
    case "module":
      return `${handler.module}#${handler.export}`
    case "cedar":
      // The request each call makes, so that a reader of the plan knows what the policies see.
      return `${handler.policies} (principal Agent::session_id, action Action::<event>, resource Target::<tool target>, context the input; no decision: ${handler.onNoDecision ?? "deny"})`
    case "callback":
      return handler.name
  }
}

/** The matcher as written, `*` when the group had none. */
export const describeMatcher = (entry: Settings.HookEntry): string => entry.matcher.source ?? "*"

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** `n thing` / `n things`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/** Lays rows out in left-aligned columns separated by two spaces. */
export const columns = (rows: ReadonlyArray<ReadonlyArray<string>>, indent = "  "): Array<string> => {
  const widths: Array<number> = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length)
    })
  }
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
}
