/**
 * The shell-script fixtures of the spawner conformance suite (`packages/test-utils/fixtures`),
 * each named after its behaviour. They are POSIX `sh` scripts, executable, and document their
 * arguments in their header comment.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/fixtures.ts"

/**
 * The fixture scripts.
 *
 * @since 0.1.0
 * @category models
 */
export type FixtureName =
  | "echo-stdin.sh"
  | "exit-code.sh"
  | "signal-self.sh"
  | "never-reads-stdin.sh"
  | "print-bytes.sh"
  | "split-multibyte.sh"
  | "repeat-multibyte.sh"
  | "print-args.sh"
  | "print-env.sh"
  | "print-cwd.sh"
  | "grandchild-holds-stdout.sh"
  | "spawn-grandchildren.sh"
  | "ignore-term.sh"
  | "leave-background.sh"

/**
 * The absolute path of the fixtures directory (with a trailing slash).
 *
 * @since 0.1.0
 * @category constants
 */
export const directory: string = internal.directory

/**
 * The absolute path of a fixture, computed from this module's location.
 *
 * @since 0.1.0
 * @category constructors
 */
export const path: (name: FixtureName) => string = internal.path
