/**
 * The host agent interface: what each agent host mode speaks for supplies (`Agent`: its event,
 * tool and field names and its answers) and what a call and its answer are (`HostCall`, `Answer`,
 * `HostReply`).
 *
 * A bottom floor of the core: this module imports no other module of the package, so every agent's
 * module can name these types without importing `HostMode`, which lists the agents. `HostMode`
 * re-exports every name.
 *
 * @since 0.2.0
 */
/**
 * The agents host mode speaks for (`agent-hooks hook --host <name>`).
 *
 * @since 0.2.0
 * @category models
 */
export type HostName =
  | "claude"
  | "codex"
  | "gemini"
  | "qwen"
  | "kiro"
  | "windsurf"
  | "cline"
  | "antigravity"
  | "antigravity-1.0"
  | "cursor"
  | "copilot"
  | "vscode"
  | "factory"
  | "codebuddy"
  | "auggie"
  | "pi"
  | "opencode"
  | "kilo"

/**
 * One tool of an agent and the Claude Code tool that does the same thing.
 *
 * @since 0.2.0
 * @category models
 */
export interface ToolMapping {
  /** The agent's own tool name (`run_shell_command`). */
  readonly host: string
  /** Claude Code's name for the same action (`Bash`). */
  readonly claude: string
  /**
   * The agent's input field → Claude Code's field (`absolute_path` → `file_path`). Fields not named
   * keep their name; a rewrite is mapped back the other way.
   */
  readonly fields?: Readonly<Record<string, string>> | undefined
  /**
   * The tool reads only the fields `fields` names (Copilot CLI's `view` reads `path`): a field the
   * input also gives under Claude Code's name (`file_path`) is a decoy the tool never uses, and is
   * not judged. Without it, two fields of one meaning with different values are not judged at all
   * (the call is refused).
   *
   * @since 0.2.0
   */
  readonly ignoresOthers?: boolean | undefined
}

/**
 * One thing a tool call does, in Claude Code's names: `Bash` with `command` as a string, `Read`,
 * `Write`, `Edit` with one `file_path`, `WebFetch` with `url`, `mcp__server__tool`. Host mode turns
 * each agent tool call into its actions and judges each one: a Codex `apply_patch` that adds one
 * file and deletes another is a `Write` and a `Write` with `agent_hooks_operation: "delete"`.
 *
 * @since 0.2.0
 * @category models
 */
export interface Action {
  readonly tool_name: string
  readonly tool_input: Readonly<Record<string, unknown>>
}

/**
 * How one of the agent's tools becomes actions: `actions` reads the agent's own input (an object)
 * and gives one action or more, or `refuse`: why the call cannot be judged (a patch that cannot be
 * read, two fields of one meaning with different values); such a call is blocked.
 *
 * @since 0.2.0
 * @category models
 */
export interface ToolActions {
  /** The agent's own tool name (`read_many_files`). */
  readonly host: string
  /** The Claude Code tool names its actions can have (`["Write", "Edit"]` for a patch): `migrate` reads which guards a tool reaches. */
  readonly gives: ReadonlyArray<string>
  readonly actions: (input: Readonly<Record<string, unknown>>) => ReadonlyArray<Action> | { readonly refuse: string }
}

/**
 * What host mode does with an answer the agent cannot take as it is.
 * - `ask`: `host` uses the agent's own ask where it has one that works (Claude Code, Qwen Code),
 *   else denies with a reason saying approval is needed; `deny` always denies.
 * - `rewrite`: `host` maps an `updatedInput` back to the agent's tool input where the agent applies
 *   it, else denies with the rewrite in the reason (the original call never runs silently); `deny`
 *   always denies a rewritten call; `original` lets the original call run (said on stderr).
 *
 * @since 0.2.0
 * @category models
 */
export interface AnswerOptions {
  readonly ask?: "host" | "deny" | undefined
  readonly rewrite?: "host" | "deny" | "original" | undefined
}

/**
 * An agent as a host: its names, its fields, and how it reads a hook's answer.
 *
 * @since 0.2.0
 * @category models
 */
export interface Agent {
  readonly name: HostName
  /** For messages: `Gemini CLI`. */
  readonly displayName: string
  /** Environment variables the agent sets to the project root for its hooks, most specific first. */
  readonly projectDirEnv: ReadonlyArray<string>
  /** The agent's default hook timeout, in seconds (host mode keeps its own budget below it). */
  readonly hookTimeout: number
  /**
   * The agent's event name → Claude Code's (`BeforeTool` → `PreToolUse`); an event without a Claude
   * Code counterpart maps to itself.
   */
  readonly events: Readonly<Record<string, string>>
  /** Events of the agent that have no Claude Code counterpart: declared to the engine, they cannot block (but `ownBlocking`'s). */
  readonly ownEvents: ReadonlyArray<string>
  /**
   * The own events a policy's `decision: "block"` (or exit 2) blocks, as the agent reads a block there
   * (Qwen Code's TodoCreated and TodoCompleted); declared to the engine as blocking by decision.
   */
  readonly ownBlocking?: ReadonlyArray<string> | undefined
  /**
   * The agent's built-in tool names, mapped or not (Gemini CLI's `save_memory` has no Claude Code
   * counterpart); `[]` where they are Claude Code's. Its preset reads them too, to warn about a
   * matcher that names one in the wrong case.
   */
  readonly toolNames: ReadonlyArray<string>
  /** The agent's tools that Claude Code names otherwise. Tools not listed keep their name and input. */
  readonly tools: ReadonlyArray<ToolMapping>
  /**
   * The agent's tools that do more than one thing, or one thing in another shape (an argv array for a
   * command, a list of files, a patch): each call read into its actions in Claude Code's names.
   * A tool not listed is one action: its `tools` mapping (Claude Code's names pass through).
   *
   * @since 0.2.0
   */
  readonly actions?: ReadonlyArray<ToolActions> | undefined
  /** `ask` without options: `host` where the agent's own ask works, else `deny`. */
  readonly askDefault: "host" | "deny"
  /** The agent has a working ask (a prompt, or a refusal that tells the model why). */
  readonly canAsk: boolean
  /** The agent applies a rewritten tool input. */
  readonly canRewrite: boolean
  /**
   * A rewrite is sent as the whole tool input, the call's own fields with the policy's changes
   * over them (Auggie replaces the input with `updatedInput`: a partial one would drop the rest).
   *
   * @since 0.2.0
   */
  readonly rewriteWhole?: boolean | undefined
  /**
   * Input fields the agent names otherwise than Claude Code on an event (Gemini CLI's AfterAgent
   * `prompt_response` is Stop's `last_assistant_message`), set where the payload lacks them; or a
   * tool name the agent gives elsewhere (an MCP tool's server).
   */
  readonly readInput?: ((hostEvent: string, payload: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>) | undefined
  /**
   * For agents whose payload is not Claude Code's shape (Windsurf, Cline, Antigravity): the payload
   * with `hook_event_name` (the agent's own event name), `tool_name` and `tool_input` (the agent's
   * own tool and input) set from the agent's fields. The agent's fields stay.
   */
  readonly normalize?: ((payload: Readonly<Record<string, unknown>>) => Record<string, unknown>) | undefined
  /**
   * The payload field that names the event, where it is not `hook_event_name` (VS Code's
   * `hookEventName`). Copilot CLI names none: its hook command gives `--event`.
   *
   * @since 0.2.0
   */
  readonly eventField?: string | undefined
  /**
   * Writes a decided answer in the agent's format, for the agent's event `hostEvent`; `call` is the
   * call answered, where there is one (a failure before the payload was read has none), for agents
   * whose answer names the call (Cline's block replaces the call's input).
   */
  readonly render: (answer: Answer, hostEvent: string, call?: HostCall | undefined) => HostReply
}

/**
 * One call from an agent, read into Claude Code's names.
 *
 * @since 0.2.0
 * @category models
 */
export interface HostCall {
  readonly agent: Agent
  /** The event as the agent named it (`BeforeTool`). */
  readonly hostEvent: string
  /** Claude Code's name for it (`PreToolUse`), the event the engine dispatches. */
  readonly event: string
  /**
   * The payload the hooks see: the agent's fields as given, `hook_event_name`, `tool_name` and
   * `tool_input` in Claude Code's names, and `host`: `{ name, event, tool_name, tool_input }`, the
   * agent's own names and input.
   */
  readonly payload: Record<string, unknown>
  /** The agent's tool, when the event is about one. */
  readonly tool:
    | { readonly name: string; readonly input: Readonly<Record<string, unknown>>; readonly mapping: ToolMapping | undefined }
    | undefined
  /**
   * What the tool call does, in Claude Code's names (one action for most tools; one per file, per
   * command, per patch operation for the others); each is judged. Empty when the event names no tool.
   *
   * @since 0.2.0
   */
  readonly actions?: ReadonlyArray<Action> | undefined
  /**
   * The actions are not the tool's input as the agent gave it (an argv joined, a list split, a patch
   * read): a rewrite cannot be mapped back, so it is denied (or left out with `rewrite: "original"`).
   *
   * @since 0.2.0
   */
  readonly reshaped?: boolean | undefined
  /**
   * Why the call cannot be judged as sent (a duplicate key in the agent's input, two fields of one
   * meaning with different values, a patch that cannot be read): host mode blocks it with this reason.
   *
   * @since 0.2.0
   */
  readonly refusal?: string | undefined
}

/**
 * The answer host mode gives, before it is written in the agent's format.
 *
 * @since 0.2.0
 * @category models
 */
export interface Answer {
  /** Claude Code's event name. */
  readonly event: string
  /** Block (deny a tool call, block a prompt, keep a Stop going), with this reason. */
  readonly block: string | undefined
  /** Ask the user, with this reason (only where the agent's ask is used). */
  readonly ask: string | undefined
  /** Claude Code only: defer the call (`-p`). */
  readonly defer: boolean
  /** A hook allowed the call explicitly (with its reason, if any). */
  readonly allow: { readonly reason: string | undefined } | undefined
  /** The rewritten tool input, in the agent's own field names. */
  readonly updatedInput: Record<string, unknown> | undefined
  readonly additionalContext: string | undefined
  readonly systemMessage: string | undefined
  /** `continue: false`: the agent stops, with this reason shown to the user. */
  readonly stop: { readonly reason: string | undefined } | undefined
  /** Other `hookSpecificOutput` fields of Claude Code's event (`updatedToolOutput`, `sessionTitle`...). */
  readonly specific: Readonly<Record<string, unknown>> | undefined
  /** Lines for stderr that are not the block reason (a rewrite left out, ask turned into deny). */
  readonly notes: ReadonlyArray<string>
}

/**
 * What the command writes and how it exits.
 *
 * @since 0.2.0
 * @category models
 */
export interface HostReply {
  readonly exitCode: 0 | 1 | 2
  readonly stdout: string
  readonly stderr: string
}
