/**
 * The environment a hook process gets: the engine's own, less the engine's secrets. A secret is a
 * value that lets its holder act as the engine: the audit log's signing key (any hook holding it
 * could sign forged checkpoints), the OTLP exporter's credentials, and any `AGENT_HOOKS_*` key,
 * token, secret, password or credential. A hook gets one only when a user's own settings name it
 * in the handler's `passEnv`.
 */

/** `AGENT_HOOKS_AUDIT_KEY` and any other `AGENT_HOOKS_*` secret, today's and future ones. */
const ENGINE_SECRET = /^AGENT_HOOKS_(?:[A-Z0-9_]*_)?(?:KEY|KEYS|TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|CREDENTIAL|CREDENTIALS|AUTH)$/
/** The OTLP exporter's request headers (`Authorization=…`) and its client TLS key, for every signal. */
const OTLP_SECRET = /^OTEL_EXPORTER_OTLP_(?:(?:TRACES|METRICS|LOGS)_)?(?:HEADERS|CLIENT_KEY)$/
/** An OTLP endpoint with credentials in its URL (`https://user:token@collector`), the audit export's too. */
const OTLP_ENDPOINT = /^(?:OTEL_EXPORTER_OTLP_(?:(?:TRACES|METRICS|LOGS)_)?ENDPOINT|AGENT_HOOKS_AUDIT_OTLP)$/
const URL_CREDENTIALS = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*@/

/**
 * Whether an environment variable is one of the engine's secrets, withheld from hook processes.
 * @internal
 */
export const isEngineSecret = (name: string, value: string): boolean =>
  ENGINE_SECRET.test(name) || OTLP_SECRET.test(name) || (OTLP_ENDPOINT.test(name) && URL_CREDENTIALS.test(value.trim()))

/** The names of the secrets in an environment. @internal */
export const secretNames = (env: Readonly<Record<string, string>>): ReadonlyArray<string> =>
  Object.keys(env).filter((name) => isEngineSecret(name, env[name]!))

const withoutSecretsCache = new WeakMap<Readonly<Record<string, string>>, Readonly<Record<string, string>>>()

/**
 * A hook process's environment: `env` without the engine's secrets, except those `passEnv` names.
 * The stripped copy of an environment is made once (a dispatch's environment is shared by its hooks).
 * @internal
 */
export const forHook = (
  env: Readonly<Record<string, string>>,
  passEnv: ReadonlyArray<string> | undefined
): Readonly<Record<string, string>> => {
  let stripped = withoutSecretsCache.get(env)
  if (stripped === undefined) {
    const names = secretNames(env)
    if (names.length === 0) stripped = env
    else {
      const copy: Record<string, string> = { ...env }
      for (const name of names) delete copy[name]
      stripped = copy
    }
    withoutSecretsCache.set(env, stripped)
  }
  if (passEnv === undefined || passEnv.length === 0) return stripped
  const passed: Record<string, string> = { ...stripped }
  for (const name of passEnv) if (Object.hasOwn(env, name)) passed[name] = env[name]!
  return passed
}

/** Scopes whose files may hand a secret to a hook: the user's own and managed settings, and the host's code. @internal */
export const mayPassSecrets = (scope: string): boolean => scope === "user" || scope === "managed" || scope === "explicit"
