import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** The runtime's platform as the platform packages name it: `linux`, `darwin`, `windows`. */
const os = (platform: string): string => (platform === "win32" ? "windows" : platform)

/** @internal */
export const platformPackage = (platform: string = process.platform, arch: string = process.arch): string =>
  `@agent-hooks/cli-${os(platform)}-${arch}`

/** @internal */
export const binaryPath = (platform: string = process.platform, arch: string = process.arch): string | undefined => {
  const name = platformPackage(platform, arch)
  let manifest: string
  try {
    manifest = createRequire(import.meta.url).resolve(`${name}/package.json`)
  } catch {
    return undefined
  }
  const file = join(dirname(manifest), "bin", platform === "win32" ? "agent-hooks.exe" : "agent-hooks")
  return existsSync(file) ? file : undefined
}
