/**
 * The `agent-hooks` command line: its commands and flags. The commands hold no logic; each one
 * hands its parsed options to its module in `internal/`.
 *
 * ```
 * agent-hooks run <Event> [--settings FILE]... [--project-dir DIR] [--preset NAME] [--agent NAME] [--fail-closed] [--strict] [--quiet]
 * agent-hooks hook --host <agent> [--event NAME]
 * [--payload AGENT] [settings flags] [--ask host|deny] [--rewrite host|deny|original] [--timeout SECONDS] [--fail-open]
 * [--foreign auto|judge|leave|block]
 * agent-hooks install --host <agent> [--user | --project] [--project-dir DIR] [--timeout SECONDS] [--native] [--dry-run]
 * agent-hooks uninstall --host <agent> [--user | --project] [--project-dir DIR] [--dry-run]
 * agent-hooks doctor --host <agent> [--user | --project] [--project-dir DIR] [--test-command COMMAND] [--agent-managed-dir DIR]
 * agent-hooks serve [--socket PATH] [--settings FILE]... [--project-dir DIR] [--preset NAME] [--agent NAME]
 * agent-hooks validate [--settings FILE]... [--project-dir DIR] [--preset NAME] [--agent NAME] [--plugin DIR]... [--managed-dir DIR]
 * agent-hooks list [--settings FILE]... [--project-dir DIR] [--preset NAME] [--agent NAME] [--plugin DIR]... [--managed-dir DIR] [--json]
 * agent-hooks schema
 * agent-hooks init [--preset NAME] [--project-dir DIR]
 * agent-hooks test FILE... [settings flags] [--json]
 * agent-hooks migrate --from <preset> [--to AGENT] [--settings FILE]... [--project-dir DIR] [--agent NAME] [--write
 * FILE] [--force] [--lossy]
 * ```
 *
 * Exit status (see `ExitCode`): 0, 2 when `run` reports a blocked event, 1 when the engine fails.
 *
 * @since 0.1.0
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Agents from "@agent-hooks/core/Agents"
import * as Presets from "@agent-hooks/core/Presets"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as AgentHelp from "./internal/agentHelp.ts"
import { checkPreset } from "./internal/engine.ts"
import * as internalRun from "./internal/run.ts"
import { type RunFlag, runFlags } from "./internal/runFlags.ts"
import { version } from "./internal/version.ts"

// Every subcommand but `run` loads its code (`import()`) when it runs: hosts call `agent-hooks run`
// once per hook event, and it should not pay for reading and evaluating `migrate`, `serve` or `audit`.

// run's flags, and the ones other commands share with it, come from one table (internal/runFlags.ts),
// the grammar run's fast path reads too.
const stringFlag = (flag: RunFlag, description: string = flag.description) =>
  Flag.String(flag.name).pipe(Flag.withMetavar(flag.metavar ?? "VALUE"), Flag.withDescription(description))
const booleanFlag = (flag: RunFlag) => Flag.Boolean(flag.name).pipe(Flag.withDescription(flag.description), Flag.withDefault(false))

const settings = stringFlag(runFlags.settings).pipe(Flag.atLeast(0))

const projectDir = stringFlag(runFlags.projectDir).pipe(Flag.optional)

const plugin = stringFlag(runFlags.plugin).pipe(Flag.atLeast(0))

const managedDir = stringFlag(runFlags.managedDir).pipe(Flag.optional)

const quiet = booleanFlag(runFlags.quiet)

const json = booleanFlag(runFlags.json)

const presetFlag = stringFlag(
  runFlags.preset,
  `${runFlags.preset.description} Available: ${Presets.all.map((preset) => preset.name).join(", ")}.`
).pipe(Flag.withDefault(runFlags.preset.default))

const agentFlag = stringFlag(runFlags.agent).pipe(Flag.optional)

/**
 * `agent-hooks run <Event>`: the event's payload (one JSON object) on stdin, the Outcome (one JSON
 * object) on stdout; exit 2 when blocked, 0 otherwise, 1 when the engine fails.
 *
 * @since 0.1.0
 * @category commands
 */
export const run = Command.make(
  "run",
  {
    event: Argument.String("event").pipe(Argument.withDescription("The event to dispatch, e.g. PreToolUse, UserPromptSubmit, Stop.")),
    settings,
    projectDir,
    plugin,
    managedDir,
    preset: presetFlag,
    agent: agentFlag,
    failClosed: booleanFlag(runFlags.failClosed),
    strict: booleanFlag(runFlags.strict),
    quiet,
    json
  },
  internalRun.run
).pipe(
  Command.withDescription(
    "Runs the hooks of one event. Reads the payload (one JSON object) from stdin, prints the Outcome as one JSON line on stdout. Exit 2 when blocked, 0 otherwise, 1 on engine failure."
  ),
  Command.withShortDescription("Run the hooks of one event (payload on stdin, Outcome on stdout)"),
  Command.withExamples([
    {
      command: `echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | agent-hooks run PreToolUse --settings hooks.json`,
      description: "Asks the PreToolUse hooks of hooks.json about a Bash call"
    },
    {
      command: `echo '{"tool_name":"bash","tool_input":{"command":"ls"}}' | agent-hooks run tool_start --preset pigo`,
      description: "Runs pigo's tool_start plugin hooks from ~/.pigo/config.json"
    }
  ])
)

/** The agents `--host` names: those host mode knows, in its order (one list for hook, install, uninstall, doctor). */
const hostNames = AgentHelp.hostNames(Agents.profiles)

/**
 * `agent-hooks hook --host <agent>`: the one hook command of Claude Code, Codex, Gemini CLI or Qwen
 * Code. The agent's payload on stdin; the answer in the agent's own format and exit status. Its own
 * failures block. See docs/cli/hook.md.
 *
 * @since 0.2.0
 * @category commands
 */
export const hook = Command.make(
  "hook",
  {
    host: Flag.Literals("host", hostNames).pipe(
      Flag.withDescription("The agent whose hook this is: its payload is read and its answer written in its own format.")
    ),
    settings,
    projectDir: Flag.String("project-dir").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        `The project root. Default: the agent's own variable (${AgentHelp.projectDirVariables(Agents.profiles)}), else the nearest folder from the current one upward with the preset's project settings or a .git, as run finds it; never the payload's cwd.`
      ),
      Flag.optional
    ),
    plugin,
    managedDir: Flag.String("managed-dir").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "The managed (policy) settings folder, as install writes it: an absolute folder root or you own that nobody else may write. AGENT_HOOKS_MANAGED_DIR alone is ignored here (a project can set it). Default: the preset's (/etc/agent-hooks)."
      ),
      Flag.optional
    ),
    home: Flag.String("home").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "agent-hooks' user folder (its settings.json, the trust store), as install writes it: an absolute folder you own that nobody else may write. AGENT_HOOKS_HOME alone is ignored here (a project can set it). Default: ~/.agent-hooks."
      ),
      Flag.optional
    ),
    preset: presetFlag,
    agent: agentFlag,
    failClosed: Flag.Boolean("fail-closed").pipe(
      Flag.withDescription("Any policy hook failure on a blocking event blocks it (engine option failClosed)."),
      Flag.withDefault(false)
    ),
    strict: Flag.Boolean("strict").pipe(
      Flag.withDescription("A handler that does not decode fails the whole load (and so blocks)."),
      Flag.withDefault(false)
    ),
    quiet,
    ask: Flag.Literals("ask", ["host", "deny"]).pipe(
      Flag.withDescription(
        `What a policy's ask becomes: host = the agent's own ask where it works (Claude Code, Qwen Code; Gemini CLI only interactive), deny = a deny saying approval is needed. Default: ${AgentHelp.askDefaults(Agents.profiles)}.`
      ),
      Flag.optional
    ),
    rewrite: Flag.Literals("rewrite", ["host", "deny", "original"]).pipe(
      Flag.withDescription(
        "What a policy's updatedInput becomes: host = the agent's own tool input where it applies it, else a deny with the rewrite in the reason (Qwen Code); deny = always a deny; original = the original call goes ahead. Default: host."
      ),
      Flag.optional
    ),
    timeout: Flag.Int("timeout").pipe(
      Flag.withMetavar("SECONDS"),
      Flag.withDescription(
        `The hook timeout the agent's config gives this command (default: the agent's default: ${AgentHelp.timeoutDefaults(Agents.profiles)}). Host mode answers within a budget below it.`
      ),
      Flag.optional
    ),
    failOpen: Flag.Boolean("fail-open").pipe(
      Flag.withDescription(
        "Host mode's own failure (unreadable settings, bad payload, crash, budget spent) is a visible hook error that lets the agent go on, instead of a block."
      ),
      Flag.withDefault(false)
    ),
    event: Flag.String("event").pipe(
      Flag.withMetavar("NAME"),
      Flag.withDescription(
        "The agent's event, for an agent whose payload names none (copilot: --event preToolUse); it wins over the payload's."
      ),
      Flag.optional
    ),
    payload: Flag.String("payload").pipe(
      Flag.withMetavar("AGENT"),
      Flag.withDescription(
        "The policy's hooks were written for this agent's payload (migrate --from AGENT --to <host> writes it): each call reaches them in that agent's events, tool names and fields."
      ),
      Flag.optional
    ),
    foreign: Flag.Literals("foreign", ["auto", "judge", "leave", "block"]).pipe(
      Flag.withDescription(
        "Another agent's call that reaches this command (VS Code runs Claude Code's and Copilot CLI's hook files, Copilot CLI runs VS Code's): judge = judged as that agent's call, answered in its format; leave = not judged (exit 0, said on stderr); block = blocked in its blocking form; auto = left where that agent's own agent-hooks entry is wired on the event, else judged. Default: AGENT_HOOKS_FOREIGN, else auto."
      ),
      Flag.optional
    )
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/hook.ts")),
      (m) =>
        m.hook({
          ...options,
          ask: Option.getOrUndefined(options.ask),
          rewrite: Option.getOrUndefined(options.rewrite),
          timeout: Option.getOrUndefined(options.timeout),
          event: Option.getOrUndefined(options.event),
          payload: Option.getOrUndefined(options.payload),
          foreign: Option.getOrUndefined(options.foreign)
        })
    )
).pipe(
  Command.withDescription(
    `The one hook command of an agent (${AgentHelp.displayNames(Agents.profiles)}). Reads the agent's payload on stdin, runs the agent-hooks policy on it in Claude Code's names (Bash, Read, Edit, Write, WebFetch, mcp__...), and answers in the agent's own format and exit status. Its own failures block, with the fix in the reason. See docs/cli/hook.md.`
  ),
  Command.withShortDescription(`Be an agent's hook: its payload in, its answer out (${hostNames.join(", ")})`)
)

/**
 * `agent-hooks migrate --from <preset>`: prints the preset's config as canonical settings JSON
 * (timeouts in seconds); writes it only with `--write FILE`, never over an existing file without
 * `--force`, never over the files it reads.
 *
 * @since 0.1.0
 * @category commands
 */
export const migrate = Command.make(
  "migrate",
  {
    from: Flag.String("from").pipe(
      Flag.withMetavar("PRESET"),
      Flag.withDescription(`The preset to read: ${Presets.all.map((preset) => preset.name).join(", ")}.`)
    ),
    to: Flag.String("to").pipe(
      Flag.withMetavar("AGENT"),
      Flag.withDescription(
        `The format to write: agent-hooks (the default: canonical settings), or an agent's own config calling agent-hooks in host mode: ${hostNames.join(", ")}.`
      ),
      Flag.optional
    ),
    settings,
    projectDir,
    agent: Flag.String("agent").pipe(
      Flag.withMetavar("NAME"),
      Flag.withDescription("The agent, for presets whose dialect has agents (wingman)."),
      Flag.optional
    ),
    write: Flag.String("write").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription(
        "Also write the canonical settings to FILE (refused when FILE exists, unless --force); with --to, FILE is the policy the agent's config calls, and the agent's files are written into the project too."
      ),
      Flag.optional
    ),
    force: Flag.Boolean("force").pipe(Flag.withDescription("Allow --write to replace an existing file."), Flag.withDefault(false)),
    lossy: Flag.Boolean("lossy").pipe(
      Flag.withDescription(
        "Migrate even hooks whose outcome the target cannot keep (each is named on stderr; with --to, written as bare commands with a note each); without it such a migration is refused."
      ),
      Flag.withDefault(false)
    )
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/migrate.ts")),
      (m) => m.migrate(options)
    )
).pipe(
  Command.withDescription(
    "Reads a preset's config (the given files, else its discovery) and prints the canonical agent-hooks settings JSON on stdout, timeouts in seconds; with --to AGENT, the agent's own config calling agent-hooks in host mode and the policy it runs. Notes go to stderr. A hook whose outcome would change is refused, naming the hook and why, unless --lossy. Never changes the files it reads."
  ),
  Command.withShortDescription("Convert a preset's config into canonical settings JSON")
)

/**
 * `agent-hooks validate`: loads the settings and reports the files read, the hooks registered per
 * event and every warning; exit 1 when a file cannot be read or decoded.
 *
 * @since 0.1.0
 * @category commands
 */
export const validate = Command.make(
  "validate",
  {
    settings,
    projectDir,
    plugin,
    managedDir,
    preset: presetFlag,
    agent: agentFlag,
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print the report as one JSON object: ok, files, hooks per event, warnings, errors."),
      Flag.withDefault(false)
    ),
    quiet: Flag.Boolean("quiet").pipe(
      Flag.withDescription("No report: only the errors (stderr) and the exit status."),
      Flag.withDefault(false)
    )
  },
  (options) =>
    Effect.flatMap(checkPreset(options.preset), (preset) =>
      Effect.flatMap(
        Effect.promise(() => import("./internal/validate.ts")),
        (m) => m.validate({ ...options, preset })
      )
    )
).pipe(
  Command.withDescription(
    "Loads the settings and prints which files were read, how many hooks each event registered, and every warning. Exit 1 when a file cannot be read or decoded."
  ),
  Command.withShortDescription("Check the settings: files read, hooks per event, warnings")
)

/**
 * `agent-hooks list`: every hook per event with its matcher, type, command, source file and JSON path.
 *
 * @since 0.1.0
 * @category commands
 */
export const list = Command.make(
  "list",
  {
    settings,
    projectDir,
    plugin,
    managedDir,
    preset: presetFlag,
    agent: agentFlag,
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print a JSON array instead of text."), Flag.withDefault(false)),
    plan: Flag.Boolean("plan").pipe(
      Flag.withDescription(
        "Print the compiled plan as JSON (Plan.toJSON): per event, the hooks in order with their compiled matchers, as the engine will run them."
      ),
      Flag.withDefault(false)
    ),
    quiet: Flag.Boolean("quiet").pipe(Flag.withDescription("No settings warnings on stderr."), Flag.withDefault(false))
  },
  (options) =>
    Effect.flatMap(checkPreset(options.preset), (preset) =>
      Effect.flatMap(
        Effect.promise(() => import("./internal/list.ts")),
        (m) => m.list({ ...options, preset })
      )
    )
).pipe(
  Command.withDescription("Lists the hooks per event with matcher, type, command, source file and JSON path."),
  Command.withShortDescription("List the hooks per event, with where each one is defined")
)

/**
 * `agent-hooks trust`: approves the project's current settings files, so their hooks run where
 * approval is required (`requireTrust`, `AGENT_HOOKS_REQUIRE_TRUST=1`, managed `requireProjectTrust`).
 *
 * @since 0.1.0
 * @category commands
 */
export const trust = Command.make(
  "trust",
  {
    projectDir,
    preset: Flag.String("preset").pipe(
      Flag.withMetavar("NAME"),
      Flag.withDescription(`Whose project files to approve. Available: ${Presets.all.map((preset) => preset.name).join(", ")}.`),
      Flag.withDefault("agent-hooks")
    ),
    agent: Flag.String("agent").pipe(Flag.withMetavar("NAME"), Flag.withDescription("The agent (wingman)."), Flag.optional)
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/trust.ts")),
      (m) => m.trust(options)
    )
).pipe(
  Command.withDescription(
    "Approves the project's current project and local settings files (their exact content): where approval is required, their hooks run only while the files stay as approved. Writes only the approvals file in the agent-hooks home folder."
  ),
  Command.withShortDescription("Approve this project's hooks (where approval is required)")
)

/**
 * `agent-hooks serve`: a long-lived process answering dispatch requests as JSON lines (stdin and
 * stdout, or a Unix socket with `--socket PATH`); see docs/serve.md for the protocol.
 *
 * @since 0.2.0
 * @category commands
 */
export const serve = Command.make(
  "serve",
  {
    settings,
    projectDir,
    plugin,
    managedDir,
    preset: presetFlag,
    agent: agentFlag,
    socket: Flag.String("socket").pipe(
      Flag.withMetavar("PATH"),
      Flag.withDescription(
        "Listen on a Unix socket at PATH (removed on exit) instead of stdin/stdout; each connection gets its own hello line."
      ),
      Flag.optional
    ),
    watch: Flag.Boolean("watch").pipe(
      Flag.withDescription(
        "Hot reload: when a settings file changes, load it again and switch to the new hooks (a file that fails to load keeps the old ones); each reload is reported on stderr."
      ),
      Flag.withDefault(false)
    ),
    quiet,
    json
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/serve.ts")),
      (m) => m.serve({ ...options, version })
    )
).pipe(
  Command.withDescription(
    'Loads the settings once and answers dispatch requests as JSON lines: {"id", "event", "payload"} in, {"id", "outcome"} or {"id", "error"} out, each as soon as it completes. First line out: {"type": "hello", "protocol": 1, "version"}. Stdin EOF or SIGTERM: running requests and async hooks finish, then exit 0. See docs/serve.md.'
  ),
  Command.withShortDescription("Answer dispatch requests as JSON lines (stdin/stdout or a Unix socket)")
)

/**
 * `agent-hooks audit verify [FILE]` and `agent-hooks audit show [FILE]`: the audit trail (`auditLog`;
 * without FILE, the file the settings name).
 *
 * @since 0.2.0
 * @category commands
 */
export const audit = Command.make("audit").pipe(
  Command.withDescription("Reads the audit trail that the auditLog setting writes."),
  Command.withShortDescription("Verify or show an audit log"),
  Command.withSubcommands([
    Command.make(
      "verify",
      {
        file: Argument.String("file").pipe(
          Argument.withDescription("The audit log (JSONL). Default: the auditLog of the settings."),
          Argument.optional
        ),
        settings,
        projectDir,
        managedDir,
        json: Flag.Boolean("json").pipe(Flag.withDescription("Print the report as one JSON object."), Flag.withDefault(false)),
        head: Flag.String("head").pipe(
          Flag.withDescription(
            "The head file to check the log against (default FILE.head): a copy shipped off the machine catches a log cut back to an earlier state."
          ),
          Flag.optional
        ),
        otlp: Flag.String("otlp").pipe(
          Flag.withDescription(
            "Check the records a collector received instead of a local log: a file of OTLP/JSON logs payloads, one per line, as the collector's file exporter writes them (AGENT_HOOKS_AUDIT_OTLP sends them)."
          ),
          Flag.optional
        )
      },
      (options) =>
        Effect.flatMap(
          Effect.promise(() => import("./internal/audit.ts")),
          (m) => m.verify(options)
        )
    ).pipe(
      Command.withDescription(
        "Checks every writer's hash chain, the links between chains and the head file (FILE.head) and, with AGENT_HOOKS_AUDIT_KEY set, every signed checkpoint. Exit 1 when a record was edited, inserted, deleted or reordered, a whole chain or the end of the log is gone, or a checkpoint is missing or wrong, naming the first such line. A last line cut short by a crash is reported as truncation, not as a change. With --otlp FILE, the same checks on the audit records a collector received (OTLP log records), naming the payload line and record."
      ),
      Command.withShortDescription("Check an audit log's chains and checkpoints")
    ),
    Command.make(
      "show",
      {
        file: Argument.String("file").pipe(
          Argument.withDescription("The audit log (JSONL). Default: the auditLog of the settings."),
          Argument.optional
        ),
        settings,
        projectDir,
        managedDir,
        json: Flag.Boolean("json").pipe(
          Flag.withDescription("Print one JSON object per record, with its line number."),
          Flag.withDefault(false)
        ),
        session: Flag.String("session").pipe(Flag.withDescription("Only the records of this session id."), Flag.optional),
        tool: Flag.String("tool").pipe(Flag.withDescription("Only the records of calls to this tool (exact name)."), Flag.optional),
        since: Flag.String("since").pipe(
          Flag.withDescription("Only records written at or after this time (ISO 8601: 2026-11-25 or 2026-11-25T10:00:00Z)."),
          Flag.optional
        ),
        until: Flag.String("until").pipe(Flag.withDescription("Only records written before this time (ISO 8601)."), Flag.optional)
      },
      (options) =>
        Effect.flatMap(
          Effect.promise(() => import("./internal/audit.ts")),
          (m) => m.show(options)
        )
    ).pipe(
      Command.withDescription(
        "Prints the records of an audit log, one per line: each dispatch (time, session, event, tool, its input as recorded, the outcome) and each hook run; checkpoints too when no filter is given. It does not check them: use audit verify."
      ),
      Command.withShortDescription("Print an audit log readably")
    )
  ])
)

/**
 * `agent-hooks schema`: prints the settings JSON Schema (draft 2020-12, stable `$id`) for editors
 * and validators; `"$schema"` in a settings file may point at a saved copy.
 *
 * @since 0.2.0
 * @category commands
 */
export const schema = Command.make("schema", {}, () =>
  Effect.flatMap(
    Effect.promise(() => import("./internal/schema.ts")),
    (m) => m.schema()
  )
).pipe(
  Command.withDescription(
    'Prints the JSON Schema (draft 2020-12) of a settings file on stdout: the top-level keys, matcher groups and every handler type, generated from the definitions the loader decodes with. Save it and point "$schema" at it for completion and checks in an editor.'
  ),
  Command.withShortDescription("Print the settings JSON Schema")
)

/**
 * `agent-hooks init`: scaffolds a project settings file (with `"$schema"`) and working hook scripts.
 *
 * @since 0.2.0
 * @category commands
 */
export const init = Command.make(
  "init",
  {
    projectDir,
    preset: Flag.String("preset").pipe(
      Flag.withMetavar("NAME"),
      Flag.withDescription(
        `The dialect to write, where that dialect reads it: ${Presets.all.map((preset) => preset.name).join(", ")}. Default: agent-hooks (.agent-hooks/settings.json).`
      ),
      Flag.withDefault("agent-hooks")
    )
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/init.ts")),
      (m) => m.init(options)
    )
).pipe(
  Command.withDescription(
    'Writes a starting settings file in the dialect of --preset, where that dialect reads it (.agent-hooks/settings.json by default; .claude/, .gemini/, .wave/, .wingman/wingman.config.json, or pigo\'s ~/.pigo/config.json), with working hooks and their scripts (run bit set): block dangerous shell commands, format edited files, run the tests when the agent stops (where the dialect can block there). The canonical dialects also get "$schema", its schema file and an audit log. Writes nothing when any of these files exists (exit 1). Prints what it wrote.'
  ),
  Command.withShortDescription("Scaffold a settings file with working example hooks")
)

/**
 * `agent-hooks test FILE...`: fixture cases (event, payload, expected outcome fields) run against
 * the real hooks of the settings, reported like a test runner; exit 1 when a case fails.
 *
 * @since 0.2.0
 * @category commands
 */
export const test = Command.make(
  "test",
  {
    files: Argument.String("file").pipe(
      Argument.withDescription(
        'A fixture file: a JSON array of {"name", "event", "payload", "expect": {"blocked", "decision", "reason", "additionalContext"}}.'
      ),
      Argument.atLeast(1)
    ),
    settings,
    projectDir,
    plugin,
    managedDir,
    preset: presetFlag,
    agent: agentFlag,
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("Print one JSON object: passed, failed and every case with its Outcome."),
      Flag.withDefault(false)
    )
  },
  (options) =>
    Effect.flatMap(checkPreset(options.preset), (preset) =>
      Effect.flatMap(
        Effect.promise(() => import("./internal/test.ts")),
        (m) => m.test({ ...options, preset })
      )
    )
).pipe(
  Command.withDescription(
    "Runs each case of the fixture files against the real hooks of the settings and prints one line per case and a summary (N passed, N failed). Exit 1 when a case fails. For CI."
  ),
  Command.withShortDescription("Check the hooks against fixture cases (for CI)")
)

const hostFlag = Flag.Literals("host", hostNames).pipe(Flag.withDescription("The agent whose own hook config is meant."))
const userFlag = Flag.Boolean("user").pipe(
  Flag.withDescription(
    "The agent's user config (~/.claude/settings.json, ~/.codex/hooks.json, ~/.cursor/hooks.json...: docs/cli/install.md lists each agent's file). The default."
  ),
  Flag.withDefault(false)
)
const projectFlag = Flag.Boolean("project").pipe(
  Flag.withDescription(
    "The project's shared config (.claude/settings.json, never settings.local.json; .codex/hooks.json; .cursor/hooks.json; .github/hooks/agent-hooks-copilot.json...: docs/cli/install.md)."
  ),
  Flag.withDefault(false)
)
const dryRun = Flag.Boolean("dry-run").pipe(Flag.withDescription("Show the change as a diff; write nothing."), Flag.withDefault(false))

/**
 * `agent-hooks install --host <agent>`: writes the agent's own hook config so that each of its events
 * calls `agent-hooks hook --host <agent>`. Keeps every entry already there. See docs/cli/install.md.
 *
 * @since 0.2.0
 * @category commands
 */
export const install = Command.make(
  "install",
  {
    host: hostFlag,
    user: userFlag,
    project: projectFlag,
    projectDir,
    dryRun,
    timeout: Flag.Int("timeout").pipe(
      Flag.withMetavar("SECONDS"),
      Flag.withDescription(
        `The hook timeout written in the agent's config and passed to hook --timeout (host mode answers within a budget below it). Default: the agent's own (${AgentHelp.timeoutDefaults(Agents.profiles)}).`
      ),
      Flag.optional
    ),
    home: Flag.String("home").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "agent-hooks' user folder for host mode, written into the command as hook --home (host mode ignores AGENT_HOOKS_HOME, which a project can set). Default: $AGENT_HOOKS_HOME of this shell, if set."
      ),
      Flag.optional
    ),
    managedDir: Flag.String("managed-dir").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "The managed settings folder for host mode, written into the command as hook --managed-dir (host mode ignores AGENT_HOOKS_MANAGED_DIR). Default: $AGENT_HOOKS_MANAGED_DIR of this shell, if set."
      ),
      Flag.optional
    ),
    tab: Flag.Boolean("tab").pipe(
      Flag.withDescription(
        "Cursor only: register its Tab (inline completion) events too, beforeTabFileRead and afterTabFileEdit, so that the policy's Read rules see what Tab reads. Off by default: they fire on every file Tab reads, a process each."
      ),
      Flag.withDefault(false)
    ),
    native: Flag.Boolean("native").pipe(
      Flag.withDescription(
        "Build the native client (C, with the machine's cc) into ~/.local/share/agent-hooks/native and write it as the command: a call the per-user daemon answers then starts no Node. Any problem runs the call through Node, as without it. Without a C compiler, Node's client is written, said so."
      ),
      Flag.withDefault(false)
    ),
    policy: Flag.Literals("policy", ["recommended", "none"]).pipe(
      Flag.withDescription(
        "When no agent-hooks policy exists yet (host mode then blocks every call): recommended writes one that extends agent-hooks:recommended into the scope's settings file (the user's ~/.agent-hooks/settings.json, or the project's .agent-hooks/settings.json with --project); none writes nothing. Without it, install asks in a terminal and writes nothing otherwise."
      ),
      Flag.optional
    )
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/install.ts")),
      (m) => m.install(options)
    )
).pipe(
  Command.withDescription(
    "Writes the agent's own hook config (user by default, or the project's shared file) so that every event of the agent calls agent-hooks hook --host <agent>, with the agent's hook timeout above host mode's budget. Keeps every entry already there and its comments; writes atomically; idempotent; refuses a symlink that leads out of the config's folder. Says what the agent still needs (trust, review)."
  ),
  Command.withShortDescription("Wire agent-hooks into an agent's own hook config")
)

/**
 * `agent-hooks uninstall --host <agent>`: removes what install wrote, leaving the config as it was.
 *
 * @since 0.2.0
 * @category commands
 */
export const uninstall = Command.make(
  "uninstall",
  { host: hostFlag, user: userFlag, project: projectFlag, projectDir, dryRun },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/install.ts")),
      (m) => m.uninstall(options)
    )
).pipe(
  Command.withDescription(
    "Removes the entries agent-hooks install wrote from the agent's config (at any path or timeout) and nothing else; a file install created is removed."
  ),
  Command.withShortDescription("Take agent-hooks out of an agent's own hook config")
)

/**
 * `agent-hooks doctor --host <agent>`: is the agent wired up, and would a dangerous shell call be
 * blocked? Exit 1 when not.
 *
 * @since 0.2.0
 * @category commands
 */
export const doctor = Command.make(
  "doctor",
  {
    host: hostFlag,
    user: userFlag,
    project: projectFlag,
    projectDir,
    testCommand: Flag.String("test-command").pipe(
      Flag.withMetavar("COMMAND"),
      Flag.withDescription("The shell command of the test call. Default: rm -rf /"),
      Flag.withDefault("rm -rf /")
    ),
    agentManagedDir: Flag.String("agent-managed-dir").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "The agent's own managed (system) settings folder, where doctor looks for switches that skip the agent-hooks entry. Default: the one the agent documents (Claude Code /etc/claude-code, Codex /etc/codex, Gemini CLI /etc/gemini-cli, Qwen Code /etc/qwen-code)"
      ),
      Flag.optional
    )
  },
  (options) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/doctor.ts")),
      (m) => m.doctor(options)
    )
).pipe(
  Command.withDescription(
    "Says whether the agent's config calls agent-hooks on each of its events, then sends the command found there the agent's own PreToolUse payload for its shell tool running a dangerous command, as the agent would, and says whether the agent would block it. Exit 1 when not wired up or when the call would go through."
  ),
  Command.withShortDescription("Check an agent's wiring and that a dangerous call is blocked")
)

/**
 * The root command.
 *
 * @since 0.1.0
 * @category commands
 */
export const cli = Command.make("agent-hooks").pipe(
  Command.withDescription(
    "Lifecycle hooks for AI agents: runs Claude Code-style hooks (JSON on stdin, exit 2 blocks, JSON on stdout steers) for any host."
  ),
  Command.withSubcommands([run, hook, install, uninstall, doctor, serve, validate, list, migrate, trust, audit, schema, init, test])
)
