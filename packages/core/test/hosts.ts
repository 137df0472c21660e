/**
 * What the host-mode tests share: the agents' payload fixtures (`fixtures/hosts/<file>`), an agent
 * by name, a payload read as the agent's call, and an Outcome to answer with.
 */
import { readFileSync } from "node:fs"
import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Outcome from "@agent-hooks/core/Outcome"

export type Payload = Record<string, unknown>

/** A fixture file of `fixtures/hosts/`: an array of payloads. */
export const hostFixtures = (file: string): ReadonlyArray<any> =>
  JSON.parse(readFileSync(new URL(`./fixtures/hosts/${file}`, import.meta.url), "utf8"))

export const agent = (name: string): HostMode.Agent => {
  const found = HostMode.byName(name)
  if (found === undefined) throw new Error(`no agent ${name}`)
  return found
}

/** The payload as the agent's call; a payload the agent's module cannot read fails the test. */
export const call = (name: string, payload: Payload): HostMode.HostCall => {
  const result = HostMode.translate(agent(name), payload)
  if ("error" in result) throw new Error(result.error)
  return result
}

/** An Outcome of `event` where nothing happened, with `fields` over it. */
export const outcome = (event: string, fields: Partial<Outcome.Outcome> = {}): Outcome.Outcome => ({
  ...Outcome.aggregate(HookEvent.get(event) ?? HookEvent.custom({ name: event }), [], []),
  ...fields
})
