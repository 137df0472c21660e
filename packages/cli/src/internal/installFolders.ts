/**
 * The folders `agent-hooks install` created for an agent's config (`.cursor/`, `.kiro/hooks/`,
 * `.github/hooks/`, …), so that `uninstall` can leave the tree exactly as it was: it removes a folder
 * only when install recorded creating it and it is empty once install's files are gone, never one
 * that was there before or that holds anything else.
 *
 * The record lives in agent-hooks' own home (`$AGENT_HOOKS_HOME`, else `~/.agent-hooks`), never in
 * the agent's folders (an agent that reads every file of its hooks folder would read a marker too):
 * `installed-folders.json`, `{ "folders": [<absolute path>…], "home": true }` (`home`: install created
 * that folder too, for the record). An empty record is removed, with the folder when install made it.
 */
import { existsSync, readdirSync, realpathSync, rmdirSync } from "node:fs"
import { homedir } from "node:os"
import { basename, dirname, join } from "node:path"
import { readText, writeText } from "./configFile.ts"

interface Record {
  readonly folders: ReadonlyArray<string>
  readonly home: boolean
}

const homeOf = (env: Readonly<{ [name: string]: string | undefined }>): string =>
  env["AGENT_HOOKS_HOME"] !== undefined && env["AGENT_HOOKS_HOME"] !== ""
    ? env["AGENT_HOOKS_HOME"]
    : join(env["HOME"] || homedir(), ".agent-hooks")

const recordFile = (env: Readonly<{ [name: string]: string | undefined }>): string => join(homeOf(env), "installed-folders.json")

/** A path with its existing part resolved (symlinks), so that install and uninstall name a folder alike. */
const normal = (path: string): string => {
  if (existsSync(path)) return realpathSync(path)
  const parent = dirname(path)
  return parent === path ? path : join(normal(parent), basename(path))
}

/** The folders of `file` that do not exist yet, outermost first: what writing it creates. */
export const missingFolders = (file: string): ReadonlyArray<string> => {
  const missing: Array<string> = []
  for (let folder = dirname(file); !existsSync(folder); folder = dirname(folder)) {
    missing.unshift(normal(folder))
    if (dirname(folder) === folder) break
  }
  return missing
}

const read = (file: string): Record => {
  let value: unknown
  try {
    value = JSON.parse(readText(file) ?? "{}")
  } catch {
    value = {}
  }
  const object = typeof value === "object" && value !== null ? (value as { folders?: unknown; home?: unknown }) : {}
  return {
    folders: Array.isArray(object.folders) ? object.folders.filter((folder): folder is string => typeof folder === "string") : [],
    home: object.home === true
  }
}

const write = (file: string, record: Record, env: Readonly<{ [name: string]: string | undefined }>): void => {
  if (record.folders.length > 0) {
    writeText(file, `${JSON.stringify(record, null, 2)}\n`)
    return
  }
  writeText(file, undefined)
  if (record.home) {
    try {
      rmdirSync(homeOf(env))
    } catch {} // it holds something else now (a policy): it stays
  }
}

/** Records `folders` as created by install (before install writes the files that create them). */
export const recordCreated = (folders: ReadonlyArray<string>, env: Readonly<{ [name: string]: string | undefined }>): void => {
  if (folders.length === 0) return
  const file = recordFile(env)
  const homeCreated = !existsSync(homeOf(env))
  const record = read(file)
  const known = new Set(record.folders)
  write(file, { folders: [...record.folders, ...folders.filter((folder) => !known.has(folder))], home: record.home || homeCreated }, env)
}

/**
 * After uninstall removed a file install created: removes its folder and the ones above it that
 * install recorded creating, while each is empty; stops at the first that was there before or holds
 * anything else (which stays recorded). Returns the folders removed.
 */
export const removeCreated = (file: string, env: Readonly<{ [name: string]: string | undefined }>): ReadonlyArray<string> => {
  const at = recordFile(env)
  if (!existsSync(at)) return []
  const record = read(at)
  const known = new Set(record.folders)
  const removed: Array<string> = []
  for (let folder = normal(dirname(file)); known.has(folder); folder = dirname(folder)) {
    if (existsSync(folder)) {
      // another install's file or the user's own: the folder stays, and stays recorded (removed
      // when the last of install's files in it goes and nothing else is there)
      if (readdirSync(folder).length > 0) break
      try {
        rmdirSync(folder)
      } catch {
        break
      }
      removed.push(folder)
    }
    known.delete(folder)
  }
  if (known.size !== record.folders.length)
    write(at, { folders: record.folders.filter((folder) => known.has(folder)), home: record.home }, env)
  return removed
}
