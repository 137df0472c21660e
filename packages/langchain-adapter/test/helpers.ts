import type { BaseMessage } from "@langchain/core/messages"
import { tool } from "langchain"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach } from "vitest"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import type { DispatchOutcome, HookDispatcher } from "@agent-hooks/langchain-adapter"

/** An outcome where nothing happened; override what a test needs. */
export const outcome = (event: string, fields: Partial<DispatchOutcome> = {}): DispatchOutcome => ({
  event,
  blocked: false,
  decision: null,
  reason: null,
  continue: true,
  stopReason: null,
  updatedInput: null,
  additionalContext: [],
  systemMessages: [],
  warnings: [],
  ...fields
})

export interface Dispatched {
  readonly event: string
  readonly payload: Record<string, unknown>
}

/**
 * A fake engine (no hook for the host turn events unless `settings` is replaced): `respond` decides each event's outcome from its payload (default: nothing
 * happened), and every dispatch is recorded.
 */
export const fakeEngine = (
  respond: (event: string, payload: Record<string, unknown>) => Partial<DispatchOutcome> | undefined = () => undefined
): HookDispatcher & { readonly dispatched: Array<Dispatched>; readonly events: () => Array<string> } => {
  const dispatched: Array<Dispatched> = []
  return {
    // No hooks for the host events (BeforeModel, AfterModel) unless a test says so.
    settings: { hooks: {} },
    dispatched,
    events: () => dispatched.map((entry) => entry.event),
    dispatch: async (event, payload) => {
      dispatched.push({ event, payload })
      return outcome(event, respond(event, payload) ?? {})
    }
  }
}

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

export const tempDir = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-langchain-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A `bash` tool that records the commands it "runs" and echoes them. */
export const bashTool = () => {
  const ran: Array<string> = []
  const bash = tool(
    async ({ command }: { command: string }) => {
      ran.push(command)
      return `ran: ${command}`
    },
    {
      name: "bash",
      description: "Runs a shell command",
      schema: z.object({ command: z.string() })
    }
  )
  return { bash, ran }
}

/** The text of every message the model saw on its `n`-th call (0-based). */
export const seen = (model: { calls: Array<{ messages: Array<unknown> }> }, n: number): Array<string> =>
  (model.calls[n]?.messages ?? []).map((message) => {
    const m = message as BaseMessage
    const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content)
    return `${(m as { type?: string }).type}: ${content}`
  })

export const lastText = (messages: ReadonlyArray<BaseMessage>): string => {
  const last = messages[messages.length - 1]
  return last === undefined ? "" : typeof last.content === "string" ? last.content : JSON.stringify(last.content)
}

/** A shell fixture of `test/fixtures` as a hook command line. */
export const fixtureCommand = (name: string, ...args: Array<string>) =>
  ["sh", JSON.stringify(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))), ...args.map((a) => JSON.stringify(a))].join(" ")

/** A settings file with these hooks, in a fresh folder. */
/** A settings file with `hooks`, and other top-level keys (`extra`, e.g. `auditLog`). */
export const settingsFile = (
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>,
  extra: Record<string, unknown> = {}
) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ ...extra, hooks }))
  return { dir, file }
}

const engines: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of engines.splice(0).reverse()) await close()
})

/** The real Node engine over a settings file with these hooks (closed after the test). */
export const realEngine = async (hooks: Parameters<typeof settingsFile>[0]) => {
  const { dir, file } = settingsFile(hooks)
  const engine = await createHookEngine({ settings: [file], projectDir: dir })
  engines.push(() => engine.close())
  return { engine, dir }
}
