/**
 * Codex's managed plugin policy, as Codex applies it when it loads plugins (its marketplace policy
 * and feature requirements), read from the managed `requirements.toml`:
 * - `[features] plugins = false`: no plugin loads;
 * - `[marketplaces] restrict_to_allowed_sources = true`: a plugin loads only when its marketplace,
 *   as the user's `config.toml` declares it (`[marketplaces.<name>]` with `source_type` and
 *   `source`), matches one of `[marketplaces.allowed_sources.<rule>]`: `source = "git"` with
 *   `url` (and `ref` when the rule has one), `source = "host_pattern"` with a `host_pattern`
 *   regex on the Git URL's host, or `source = "local"` with an absolute `path`. A marketplace the
 *   user's config does not declare is refused (OpenAI's curated one is allowed when its Git URL
 *   is); one invalid rule refuses every marketplace.
 * Nothing a user's or project's file says can undo it: the policy is read from the managed
 * file only, and a project's `[marketplaces]` cannot vouch for a marketplace.
 */
import { isRecord } from "../../presets/common.ts"
import { resolve } from "../../posixPath.ts"

/** The marketplace Codex syncs OpenAI's curated plugins into, and where it comes from. */
const OPENAI_CURATED = "openai-curated"
const OPENAI_PLUGINS_GIT_URL = "https://github.com/openai/plugins.git"

type Rule =
  | { readonly kind: "git"; readonly url: string; readonly ref: string | undefined }
  | { readonly kind: "host"; readonly pattern: RegExp }
  | { readonly kind: "local"; readonly path: string }

/** Why a plugin of this marketplace does not load, or `undefined` when it may. */
export type PluginPolicy = (marketplace: string, declared: unknown) => string | undefined

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined)

/** The host of a Git URL: `https://host/...`, `ssh://git@host/...`, or scp-like `git@host:path`. */
const gitHost = (url: string): string | undefined => {
  const scp = /^[^@/\s]+@([^:/\s]+):/.exec(url)
  if (scp !== null) return scp[1]!.toLowerCase()
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]+)/.exec(url)
  return authority === null ? undefined : authority[1]!.toLowerCase()
}

const compile = (key: string, rule: unknown): Rule | string => {
  if (!isRecord(rule)) return `rule "${key}" is not a table`
  switch (rule["source"]) {
    case "git": {
      const url = text(rule["url"])
      if (url === undefined) return `rule "${key}" has no url`
      if (rule["ref"] !== undefined && text(rule["ref"]) === undefined) return `rule "${key}": ref must not be empty`
      return { kind: "git", url, ref: text(rule["ref"]) }
    }
    case "host_pattern": {
      const pattern = text(rule["host_pattern"])
      if (pattern === undefined) return `rule "${key}" has no host_pattern`
      try {
        return { kind: "host", pattern: new RegExp(pattern) }
      } catch (error) {
        return `rule "${key}": host_pattern is not a valid regex (${error instanceof Error ? error.message : String(error)})`
      }
    }
    case "local": {
      const path = text(rule["path"])
      if (path === undefined || !path.startsWith("/")) return `rule "${key}": local path must be absolute`
      return { kind: "local", path: resolve("/", path) }
    }
    default:
      return `rule "${key}": source must be "git", "host_pattern" or "local", got ${JSON.stringify(rule["source"])}`
  }
}

const matches = (rule: Rule, source: { readonly git: boolean; readonly value: string; readonly ref: string | undefined }): boolean =>
  rule.kind === "git"
    ? source.git && rule.url === source.value && (rule.ref === undefined || rule.ref === source.ref)
    : rule.kind === "host"
      ? source.git && (gitHost(source.value) ?? "").length > 0 && rule.pattern.test(gitHost(source.value)!)
      : !source.git && source.value.startsWith("/") && resolve("/", source.value) === rule.path

/**
 * The policy of the managed `requirements.toml` (parsed; `{}` when there is none), for the plugins the
 * user's config turns on. `requirementsPath` and `userConfigPath` name the files in the messages.
 *
 * @internal
 */
export const pluginPolicy = (requirements: Record<string, unknown>, requirementsPath: string, userConfigPath: string): PluginPolicy => {
  const features = requirements["features"]
  if (isRecord(features) && features["plugins"] === false) {
    return () => `plugins are turned off by ${requirementsPath} ([features] plugins = false)`
  }
  const section = requirements["marketplaces"]
  if (!isRecord(section) || section["restrict_to_allowed_sources"] !== true) return () => undefined
  const restricted = `${requirementsPath} restricts plugins to [marketplaces.allowed_sources]`
  const compiled = Object.entries(isRecord(section["allowed_sources"]) ? section["allowed_sources"] : {}).map(([key, rule]) =>
    compile(key, rule)
  )
  const invalid = compiled.find((rule): rule is string => typeof rule === "string")
  if (invalid !== undefined) return () => `${restricted}, and its ${invalid}, so no marketplace is allowed`
  const rules = compiled as ReadonlyArray<Rule>
  const allowed = (source: { readonly git: boolean; readonly value: string; readonly ref: string | undefined }) =>
    rules.some((rule) => matches(rule, source))
  return (marketplace, declared) => {
    if (!isRecord(declared)) {
      if (marketplace === OPENAI_CURATED && allowed({ git: true, value: OPENAI_PLUGINS_GIT_URL, ref: undefined })) return undefined
      return `its marketplace "${marketplace}" is not declared in ${userConfigPath} ([marketplaces."${marketplace}"]), and ${restricted}`
    }
    const type = declared["source_type"]
    const value = text(declared["source"])
    if ((type !== "git" && type !== "local") || value === undefined) {
      return `its marketplace "${marketplace}" has no source_type ("git" or "local") and source in ${userConfigPath}, and ${restricted}`
    }
    if (allowed({ git: type === "git", value, ref: text(declared["ref"]) })) return undefined
    return `its marketplace "${marketplace}" (${type} ${JSON.stringify(value)}) is not an allowed source: ${restricted}`
  }
}
