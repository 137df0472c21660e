/**
 * The `agent-hooks` command as a single executable, for hosts without a JavaScript runtime. Each
 * platform has its own package, `@agent-hooks/cli-<os>-<arch>` (`linux-x64`, `linux-arm64`,
 * `darwin-x64`, `darwin-arm64`, `windows-x64`), holding `bin/agent-hooks` built with
 * `bun build --compile` (`scripts/release-binaries.mjs`), the way esbuild and biome ship theirs:
 * `@agent-hooks/cli` lists them as optional dependencies when it is published, so a package
 * manager installs the one that fits the machine, and this module finds it.
 *
 * The `agent-hooks` command of this package itself keeps running the JavaScript bundle: under
 * Node it starts faster than the executable does (docs/benchmarks/cli-startup.md), and starting
 * one from the other would add a process start. A host in another language that wants no
 * JavaScript runtime calls the executable directly: `binaryPath()` (or
 * `node -p "require('@agent-hooks/cli/Binary').binaryPath()"` at install time) says where it is.
 *
 * @since 0.2.0
 */
import * as internal from "./internal/binary.ts"

/**
 * The name of the platform package for a platform and an architecture (default: this process's),
 * e.g. `@agent-hooks/cli-linux-x64`.
 *
 * @since 0.2.0
 * @category resolution
 */
export const platformPackage: (platform?: string, arch?: string) => string = internal.platformPackage

/**
 * The path of the single executable for a platform (default: this process's), when its platform
 * package is installed; `undefined` when it is not (an unsupported platform, or a package manager
 * told to skip optional dependencies).
 *
 * @since 0.2.0
 * @category resolution
 */
export const binaryPath: (platform?: string, arch?: string) => string | undefined = internal.binaryPath
