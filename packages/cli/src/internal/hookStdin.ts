/**
 * Stdin as the daemon's client (`hookClient.ts`) read it, handed to the in-process call when the
 * daemon could not answer: the client cannot read stdin twice. Its own module: the client is not
 * part of the program's bundle, and the program must not load the client.
 *
 * @internal
 */

/** The key of `globalThis` where the bytes of stdin the client read wait for the in-process call. */
export const PRE_READ_STDIN: unique symbol = Symbol.for("@agent-hooks/cli/hook-stdin") as never

/**
 * The key of `globalThis` set when the executable's CommonJS entry (`nodeEntry.ts`) asked the daemon
 * already: `bin.js` then runs the call in-process without asking again (a second ask would start a
 * second daemon, or say a warning twice).
 */
export const DAEMON_ASKED: unique symbol = Symbol.for("@agent-hooks/cli/daemon-asked") as never

/** Stdin as the client read it, for the in-process call after a daemon that could not answer. */
export interface PreReadStdin {
  readonly bytes: Uint8Array
  readonly isTerminal: boolean
}
