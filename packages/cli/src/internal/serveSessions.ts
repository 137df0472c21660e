/**
 * Which connection of `agent-hooks serve` an `async` hook's result goes to: only to the
 * connections that dispatched its session, never to every open connection (another client would
 * read what a session's hooks said).
 *
 * A request without a `session_id` is given its connection's own session id (a random UUID, as
 * the engine would give one), so two clients that send none never share one. A result whose
 * session no open connection dispatched is not written to anyone; it is said on stderr.
 *
 * @internal
 */
import type * as HookEngine from "@agent-hooks/core/HookEngine"

/** One client: where its lines go, and the session id its requests without one get. */
export interface Client {
  readonly write: (line: string) => void
  readonly ownSession: string
}

interface WebCrypto {
  readonly randomUUID: () => string
}

/** A fresh session id for a connection's requests that carry none. */
export const newSessionId = (): string => (globalThis as unknown as { readonly crypto: WebCrypto }).crypto.randomUUID()

/** The routing table: session id -> the open connections that dispatched it. */
export const make = () => {
  const owners = new Map<string, Set<Client>>()
  const connected = new Set<Client>()
  return {
    /** A client is connected: it hears what goes to everyone (a reload). */
    connect: (client: Client): void => {
      connected.add(client)
    },
    /** A line for every connected client. */
    broadcast: (line: string): void => {
      for (const client of connected) client.write(line)
    },
    /** The payload to dispatch for `client` (its own session id when it names none), recorded as its. */
    claim: (client: Client, payload: Record<string, unknown>): Record<string, unknown> => {
      const named = typeof payload["session_id"] === "string"
      const session = named ? (payload["session_id"] as string) : client.ownSession
      let set = owners.get(session)
      if (set === undefined) owners.set(session, (set = new Set()))
      set.add(client)
      return named ? payload : { ...payload, session_id: session }
    },
    /** The client is gone: its sessions' later results go to no one through it. */
    release: (client: Client): void => {
      connected.delete(client)
      for (const [session, set] of owners) {
        if (set.delete(client) && set.size === 0) owners.delete(session)
      }
    },
    deliver: (result: HookEngine.AsyncResult): void => {
      const set = owners.get(result.sessionId)
      if (set === undefined || set.size === 0) {
        process.stderr.write(
          `agent-hooks: the result of async hook "${result.hook.command}" (session ${result.sessionId}) came after its connection closed; it was not sent to anyone\n`
        )
        return
      }
      const line = `${JSON.stringify({ type: "async", ...result })}\n`
      for (const client of set) client.write(line)
    }
  }
}
