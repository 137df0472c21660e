/**
 * The settings file as one annotated `effect/Schema`: every top-level key with its type, its
 * description, where it may be set and how several files' values merge; the matcher groups; the
 * handler union from the handler registry. The decoder (`settings.ts`), the merge (`load.ts`), the
 * JSON Schema (`settingsJsonSchema.ts`) and the docs' key tables (`docs/scripts/settings.ts`) are
 * derived from it, so a new key is one field here.
 */
import * as Schema from "effect/Schema"
import type * as HookEvent from "../HookEvent.ts"
import type { DecodedSettings } from "../SettingsModel.ts"
import * as HandlerTypes from "./handlerTypes.ts"
import * as RuleSets from "./ruleSets/index.ts"

/**
 * How the values several settings files give a key become one, and which files may give it. Each
 * rule is implemented once, in `load.ts`; the docs tables say it in these words.
 *
 * @internal
 */
export const mergeRules = {
  concatenated: {
    readFrom: "every file",
    merge: "concatenated, in merge order (identical handlers run once, see `dedupe`)",
    plugins: true
  },
  declared: {
    readFrom: "every file",
    merge: "a declaration applies to its own file's hooks; an event only settings files declare takes the first file's rules",
    plugins: true
  },
  anyOn: { readFrom: "every file", merge: "on when any file turns it on; no file can turn it off", plugins: true },
  disable: {
    readFrom: "every file but plugins",
    merge: "managed wins; else the last user or `--settings` file; a project or local `true` turns off only project and local hooks",
    plugins: false
  },
  managedOnly: { readFrom: "managed only (elsewhere: ignored with a warning)", merge: "any managed `true`", plugins: true },
  narrow: {
    readFrom: "every file but plugins",
    merge:
      "the last managed file bounds the last user or `--settings` file, which bounds each project and local file: each may only narrow",
    plugins: false
  },
  logPath: {
    readFrom: "every file but plugins (project and local: only inside `<project>/.agent-hooks/logs/`)",
    merge: "the last managed file; else the last user or `--settings` file; else the last project or local file",
    plugins: false
  },
  highestScope: {
    readFrom: "every file but plugins",
    merge: "the highest scope that sets it (managed, then user or `--settings`, then project, then local); the last file within a scope",
    plugins: false
  },
  added: {
    readFrom: "user, `--settings` and managed files (project and local: ignored with a warning)",
    merge: "every file's, added together (a file can add one, never take one away)",
    plugins: false
  },
  editorOnly: { readFrom: "every file", merge: "not read by the engine (it is for editors)", plugins: true },
  strictest: {
    readFrom: "every file",
    merge: "the strictest value any file gives (`deny` over `ask` over `allow`): a file can tighten it, never loosen it",
    plugins: true
  },
  permissions: {
    readFrom: "every file but plugins",
    merge:
      "every file's rules, concatenated; deny wins over ask, ask over allow, whichever file says it (managed rules first); an allow never lifts a deny",
    plugins: false
  }
} as const

/** @internal */
export type MergeRule = keyof typeof mergeRules

/**
 * What a top-level key's schema carries besides its type: what it means, how files merge it, and
 * how the decoder reads it (`flag`, `strings` of `items`, a file `path`; absent: a key with a
 * decoder of its own).
 *
 * @internal
 */
export interface KeyAnnotations {
  readonly description: string
  readonly merge: MergeRule
  /** Shown in the docs when the key has one. */
  readonly default?: boolean | undefined
  /** The docs page that tells the key in full (relative to docs/). */
  readonly page?: string | undefined
  /** For a list of strings: what its items are, in an error ("URL patterns"). */
  readonly items?: string | undefined
  /** What the docs add to the key's JSON type ("a file path"); default: `items`. */
  readonly typeNote?: string | undefined
  /** For a key that takes one of a few strings: those strings, strictest last where the merge is `strictest`. */
  readonly choices?: ReadonlyArray<string> | undefined
}

const key = <S extends Schema.Top>(schema: S, annotations: KeyAnnotations) =>
  Schema.optionalKey(schema.annotate(annotations as unknown as Schema.Annotations.Annotations) as S)

const flag = (annotations: KeyAnnotations) => key(Schema.Boolean, annotations)
const strings = (annotations: KeyAnnotations & { readonly items: string }) => key(Schema.Array(Schema.String), annotations)
const filePath = (annotations: KeyAnnotations) => key(Schema.String.check(Schema.isMinLength(1)), annotations)
const choice = <const L extends ReadonlyArray<string>>(choices: L, annotations: KeyAnnotations) =>
  key(Schema.Literals(choices), { ...annotations, choices })

/** What host mode does with a tool no table knows (`unknownTools`), strictest last. @internal */
export const UNKNOWN_TOOLS = ["allow", "ask", "deny"] as const

const Handler = Schema.Union(
  Object.values(HandlerTypes.handlerTypes).map((type) => type.schema.annotate({ description: type.summary }))
).annotate({ description: `One hook: ${HandlerTypes.handlerTypeNames.map((type) => `"${type}"`).join(", ")}.` })

/** @internal */
export const MatcherGroup = Schema.Struct({
  matcher: Schema.optional(
    Schema.String.annotate({
      description: "Which tool (or source) the group applies to: a name, `A|B`, a regex, or `*` / empty for all."
    })
  ),
  hooks: Schema.Array(Handler).annotate({ description: "The handlers run when the matcher matches." })
})

/** How an event declaration's hooks can block. @internal */
export const BLOCKING_RULES = [
  "permission",
  "permission-request",
  "decision",
  "none"
] as const satisfies ReadonlyArray<HookEvent.BlockingRule>
/** Who sees a text. @internal */
export const AUDIENCES = ["model", "user", "none"] as const satisfies ReadonlyArray<HookEvent.Audience>
/** How a declared event's output is read. @internal */
export const OUTPUT_DIALECTS = [
  "claude",
  "gemini",
  "gemini-source",
  "exit-code",
  "cline",
  "antigravity",
  "antigravity-1.0",
  "cursor",
  "copilot",
  "codex",
  "vscode"
] as const satisfies ReadonlyArray<HookEvent.OutputDialect>

/** One declaration of the `events` key (checked by its own decoder, which says what is wrong where). @internal */
export const EventDeclaration = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "The event's name." }),
  extends: Schema.optionalKey(
    Schema.String.annotate({ description: "A catalog event whose rules this one starts from (only for a name that has no rules yet)." })
  ),
  blocking: Schema.optionalKey(Schema.Literals(BLOCKING_RULES).annotate({ description: "How the event can block." })),
  nonZeroBlocks: Schema.optionalKey(Schema.Boolean.annotate({ description: "Any non-zero exit of a command hook blocks." })),
  outputDialect: Schema.optionalKey(Schema.Literals(OUTPUT_DIALECTS).annotate({ description: "How a hook's output is read." })),
  matcherField: Schema.optionalKey(
    // the null branch carries a description, so that the JSON Schema keeps it (a bare null branch is
    // dropped there: it stands for a key left out)
    Schema.Union([Schema.String, Schema.Null.annotate({ description: "The event has no matcher." })]).annotate({
      description: "The payload field matchers are tested against; null: no matcher."
    })
  ),
  plainStdoutToContext: Schema.optionalKey(Schema.Boolean.annotate({ description: "A hook's plain stdout on exit 0 goes to the model." })),
  defaultTimeout: Schema.optionalKey(
    Schema.Finite.check(Schema.isGreaterThan(0)).annotate({ description: "Seconds, for hooks that set no timeout." })
  ),
  exit2StderrTo: Schema.optionalKey(Schema.Literals(AUDIENCES).annotate({ description: "Who sees the stderr of exit 2." })),
  reasonTo: Schema.optionalKey(Schema.Literals(AUDIENCES).annotate({ description: "Who sees a block's reason." })),
  specificOutput: Schema.optionalKey(
    Schema.Array(Schema.String).annotate({ description: "The `hookSpecificOutput` fields the event reads." })
  )
})

const RuleList = (what: string) =>
  Schema.optionalKey(
    Schema.Array(Schema.String).annotate({
      description: `${what}, in Claude Code's rule syntax: \`Bash(rm -rf:*)\`, \`Read(./.env)\`, \`WebFetch(domain:example.com)\`, \`mcp__server__tool\`.`
    })
  )

/** The `permissions` object (Claude Code's own keys besides the lists may share it: they are not read). @internal */
export const Permissions = Schema.StructWithRest(
  Schema.Struct({
    deny: RuleList("Tool calls blocked before any hook runs"),
    ask: RuleList("Tool calls the agent must ask the user about"),
    allow: RuleList('Tool calls with "no objection" (never an allow that skips the agent\'s own prompt)')
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

/** One entry of `extends`: a named rule set, or one with some of its rules left out. @internal */
export const Extends = Schema.Union([
  Schema.Literals(RuleSets.names as [string, ...Array<string>]).annotate({ description: "A named rule set." }),
  Schema.Struct({
    name: Schema.Literals(RuleSets.names as [string, ...Array<string>]).annotate({ description: "A named rule set." }),
    except: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "The ids of the set's rules to leave out." }))
  })
])

/**
 * The settings file. Other agents' keys may share it (a Claude Code `settings.json`): the engine
 * ignores them, the JSON Schema allows them.
 *
 * @internal
 */
export const SettingsDocument = Schema.Struct({
  $schema: key(Schema.String, { description: "This schema's URL or path, for editors.", merge: "editorOnly" }),
  hooks: key(Schema.Record(Schema.String, Schema.Array(MatcherGroup)), {
    description: 'Event name → matcher groups, e.g. `{"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}`.',
    merge: "concatenated",
    typeNote: "event name → array of matcher groups",
    page: "settings/hooks.md"
  }),
  events: key(Schema.Array(EventDeclaration), {
    description: "Event declarations for this file's own hooks: an event of its own, or other rules for a catalog event.",
    merge: "declared",
    page: "configuration.md#declaring-events"
  }),
  disableAllHooks: flag({
    description: "Turn off the hooks of settings files (from managed settings: all of them).",
    merge: "disable",
    page: "settings/disableAllHooks.md"
  }),
  allowManagedHooksOnly: flag({
    description: "Managed settings only: hooks from other files are ignored; only managed (and programmatic) hooks run.",
    merge: "managedOnly",
    page: "settings/allowManagedHooksOnly.md"
  }),
  requireProjectTrust: flag({
    description: "Managed settings only: project and local hooks run only after `agent-hooks trust`.",
    merge: "managedOnly",
    page: "settings/requireProjectTrust.md"
  }),
  allowedHttpHookUrls: strings({
    description: "URL patterns `http` hooks may call; others are refused.",
    merge: "narrow",
    items: "URL patterns",
    typeNote: "URL patterns, `*` wildcards",
    page: "settings/allowedHttpHookUrls.md"
  }),
  httpHookAllowedEnvVars: strings({
    description: "Environment variables `http` hook headers may use at most.",
    merge: "narrow",
    items: "environment variable names",
    page: "settings/httpHookAllowedEnvVars.md"
  }),
  allowedCommands: strings({
    description: "Command allowlist: only exec-form command hooks whose command is listed run.",
    merge: "narrow",
    items: "command names",
    typeNote: "command names or exact paths",
    page: "settings/allowedCommands.md"
  }),
  sequential: flag({
    description: "Run the hooks of an event one after another instead of in parallel.",
    merge: "highestScope",
    default: false,
    page: "settings/sequential.md"
  }),
  dedupe: flag({
    description: "Run identical matched handlers once, across groups and files.",
    merge: "highestScope",
    default: true,
    page: "settings/dedupe.md"
  }),
  strict: flag({
    description: "A handler that does not decode fails the whole load.",
    merge: "anyOn",
    page: "settings/strict.md"
  }),
  executionLog: filePath({
    description: "A JSON-lines file that gets one line per hook run, relative to this file.",
    merge: "logPath",
    typeNote: "a file path",
    page: "settings/executionLog.md"
  }),
  auditLog: filePath({
    description:
      "The tamper-evident audit trail: hash-chained records of every dispatch (tool, input, outcome) and hook run, relative to this file.",
    merge: "logPath",
    typeNote: "a file path",
    page: "audit.md"
  }),
  permissions: key(Permissions, {
    description:
      "Permission rules in Claude Code's syntax, judged in-process before any hook: `deny` blocks, `ask` makes the agent ask, `allow` is no objection.",
    merge: "permissions",
    typeNote: "`{deny, ask, allow}`: arrays of permission rules",
    page: "permissions.md"
  }),
  extends: key(Schema.Array(Extends), {
    description:
      'Named rule sets whose rules this file adds, e.g. `["agent-hooks:recommended"]`; `{"name": ..., "except": [ids]}` leaves rules out.',
    merge: "permissions",
    typeNote: "rule set names, or `{name, except}`",
    page: "permissions.md#extends"
  }),
  auditRedact: strings({
    description: "Regular expressions whose matches the audit trail replaces with [REDACTED:...], besides its defaults.",
    merge: "added",
    items: "regular expressions",
    page: "audit.md#secrets-and-size"
  }),
  unknownTools: choice(UNKNOWN_TOOLS, {
    description:
      'Host mode: a tool call no table of the agent knows (a tool a policy in Claude Code\'s names may not match) goes ahead with a warning (`"allow"`, the default), asks, or is denied.',
    merge: "strictest",
    typeNote: '`"allow"`, `"ask"` or `"deny"`',
    page: "settings/unknownTools.md"
  })
})

/** A top-level key's name. @internal */
export type SettingsKey = keyof typeof SettingsDocument.fields

// Every key the schema holds is a field of the decoded settings (the editor-only `$schema` and the
// raw `hooks` aside): a key added here without its place in `DecodedSettings` does not compile.
type Unplaced = Exclude<SettingsKey, keyof DecodedSettings | "$schema" | "hooks">
const _everyKeyPlaced: [Unplaced] extends [never] ? true : Unplaced = true
void _everyKeyPlaced
// ... and of the type the schema gives it (the keys the decoder reads by their schema).
type Simple = Exclude<SettingsKey, "$schema" | "hooks" | "events" | "permissions" | "extends">
type Mistyped = {
  [K in Simple]: NonNullable<(typeof SettingsDocument)["Type"][K]> extends NonNullable<DecodedSettings[K]> ? never : K
}[Simple]
const _everyKeyTyped: [Mistyped] extends [never] ? true : Mistyped = true
void _everyKeyTyped

/** A top-level key as the decoder, the merge and the docs read it. @internal */
export interface KeyInfo extends KeyAnnotations {
  readonly name: SettingsKey
  /** How the decoder reads it; `undefined`: a key with a decoder of its own (`hooks`, `events`, `permissions`, `extends`) or none (`$schema`). */
  readonly kind: "flag" | "strings" | "path" | "choice" | undefined
}

const kindOf = (ast: Schema.Top["ast"], name: string): KeyInfo["kind"] => {
  if (name === "$schema" || name === "hooks" || name === "events" || name === "permissions" || name === "extends") return undefined
  switch (ast._tag) {
    case "Boolean":
      return "flag"
    case "Arrays":
      return "strings"
    case "String":
      return "path"
    default:
      return undefined
  }
}

/**
 * Every top-level key in the schema's order, with its annotations.
 *
 * @internal
 */
export const keys: ReadonlyArray<KeyInfo> = Object.entries(SettingsDocument.fields).map(([name, field]) => {
  const inner = (field as unknown as { readonly schema: Schema.Top }).schema
  const annotations = Schema.resolveAnnotations(inner) as unknown as KeyAnnotations
  return { ...annotations, name: name as SettingsKey, kind: annotations.choices === undefined ? kindOf(inner.ast, name) : "choice" }
})

/** The keys merged by one rule. @internal */
export const keysMergedBy = (rule: MergeRule): ReadonlyArray<SettingsKey> =>
  keys.filter((info) => info.merge === rule).map((info) => info.name)
