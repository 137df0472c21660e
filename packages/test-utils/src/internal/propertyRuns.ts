const isBun = typeof (process.versions as { bun?: string }).bun === "string"
const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined"
/** The fast lane (`npm run test:fast`) is a quick check before `npm test`, which runs the full counts. */
const isFastLane = process.env["AGENT_HOOKS_FAST"] === "1"

/** @internal */
export const isNodeLane = !isBun && !isDeno

/** @internal */
export const forLane = (full: number, other: number = Math.max(1, Math.round(full / 10))): number =>
  isNodeLane && !isFastLane ? full : Math.min(full, other)
