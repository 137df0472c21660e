import type { InputDefaults } from "../HookInput.ts"

/** @internal */
export const build = (event: string, payload: Readonly<Record<string, unknown>>, defaults: InputDefaults): Record<string, unknown> => {
  // Common fields first, in the order Claude Code writes them; the host's values win.
  const input: Record<string, unknown> = {
    session_id: defaults.sessionId,
    cwd: defaults.cwd,
    ...payload,
    hook_event_name: event
  }
  return input
}

interface WebCrypto {
  readonly randomUUID?: () => string
  readonly getRandomValues?: (array: Uint8Array) => Uint8Array
}

/** @internal */
export const makeSessionId = (): string => {
  const crypto = (globalThis as { readonly crypto?: WebCrypto }).crypto
  if (crypto?.randomUUID !== undefined) return crypto.randomUUID()
  const bytes = new Uint8Array(16)
  if (crypto?.getRandomValues !== undefined) crypto.getRandomValues(bytes)
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** @internal */
export const MAX_PAYLOAD_DEPTH = 256

/**
 * `true` when `value` holds objects or arrays nested deeper than `limit` levels. Iterative, so a
 * hostile payload cannot overflow the stack while it is being checked.
 * @internal
 */
export const depthExceeds = (value: unknown, limit: number): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== "object") continue
    if (depth >= limit) return true
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1])
    }
  }
  return false
}
