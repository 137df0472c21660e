/**
 * Permission rules: the handler-level `if` filter (Claude Code's permission-rule syntax, `Bash(git *)`).
 *
 * A handler's `if` holds exactly one permission rule, written as in Claude Code's
 * `permissions.allow` lists: `Tool` or `Tool(specifier)`. The engine evaluates it only on tool
 * events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); on any
 * other event a handler with `if` never runs. That event check is the engine's job: {@link matches}
 * only compares a tool call with the rule.
 *
 * The filter decides whether a hook *runs*; it grants nothing. So wherever the call cannot be
 * judged precisely the answer is "matches" (fail-open: the hook runs and can decide for itself).
 *
 * **Tool names** are case-sensitive and compared exactly (`Bash` ≠ `bash`). `Task` and `Agent` are
 * the same tool. A rule without a specifier, or with `(*)`, matches every call of the tool.
 * MCP tools: `mcp__srv__tool` matches that tool; `mcp__srv` and `mcp__srv__*` match every tool of
 * the server; `*` anywhere in an `mcp__` name is a wildcard.
 *
 * **Shell tools** (`Bash`, `PowerShell`), specifier matched against the command:
 * - `npm test` is exact; `git *` is a wildcard, `*` matching any text (spaces included); `\*` is a
 *   literal star. A single trailing ` *` is optional, so `Bash(git *)` matches `git` alone and
 *   `git status` but not `gitk` (the space is a word boundary). Without the space, `Bash(ls*)`
 *   also matches `lsof`.
 * - Legacy `prefix:*` (only at the end) equals `prefix *`: `Bash(git push:*)` = `Bash(git push *)`.
 * - The command is split into simple commands by the engine's one shell lexer (`ShellLexer`) on
 *   `&&`, `||`, `;`, `|`, `|&`, `&`, newlines, subshell parentheses and `case` clauses, honouring
 *   single quotes, double quotes, `$'…'`, backslash escapes, comments and here-documents; commands
 *   inside `$(…)`, backticks and `<(…)` are checked too. The rule
 *   matches if ANY simple command matches (or the whole command text does).
 * - Each simple command is compared after removing leading `VAR=val` assignments, redirections
 *   (`> out`, `2>&1`, `<<EOF`), shell keywords (`if`, `then`, `do`, `!`, `{`, …), and is compared
 *   both dequoted (`git push "origin"` → `git push origin`) and as written. It is also compared with
 *   process wrappers removed: `timeout`, `time`, `nice`, `nohup`, `stdbuf`, `env`, `command`,
 *   `exec`, `sudo`, `doas`, `xargs`, `setsid`, `ionice`, `chrt`, `taskset`, `flock`, `busybox`
 *   (with their options), so `sudo rm -rf /` matches `Bash(rm *)`.
 * - Fail-open on expansions: when an argument holds `$VAR`, `${…}`, `$(…)` or backticks, the
 *   rule matches if the literal words before it could start a matching command (`git $SUB origin`
 *   matches `Bash(git push *)`, `ls $HOME` does not). A command name that is itself an expansion
 *   (`$TOOL push`) matches every shell pattern, and so does one the shell still rewrites (a glob
 *   such as `z?p`, a brace expansion).
 * - A program named by its path (`/usr/bin/zap`, `./zap`) is also compared by its name. Code a
 *   command runs is judged like a command, at any depth: `eval`'s arguments, `trap`'s action, a
 *   shell's `-c` code (`sh`, `bash`, `dash`, `zsh`, `ksh`, …), `su`/`script`/`flock -c`, `env -S`,
 *   `watch`, `find -exec`'s command. A shell that runs a script file or its stdin (`… | sh`,
 *   `bash <<EOF`), `source`, an interpreter's inline code (`python -c`, `node -e`, `perl -e`), and
 *   `eval` or `-c` code that is an expansion cannot be judged: they match every shell pattern.
 * - Fail-open on parse errors: unbalanced quotes, unterminated `$(` or backticks, a stray `)` → matches.
 * - Bash matching is case-sensitive. PowerShell matching is case-insensitive (cmdlets are); its
 *   splitter knows `'…'` (with `''`), `"…"`, the backtick escape, `$(…)`, `{…}` script blocks,
 *   here-strings and `<#…#>` comments; aliases (`rm` for `Remove-Item`) are not resolved.
 * - A missing or non-string `command` → matches (fail-open).
 *
 * **File tools** (`Edit`, `Write`, `Read`, `MultiEdit`, `NotebookEdit`, `Glob`, `Grep`, `LS`), glob on
 * `tool_input.file_path`, else `notebook_path`, else `path` (for `Glob`/`Grep`/`LS` without a path:
 * the `cwd`). As in Claude Code, an `Edit(…)` rule also covers `Write`, `MultiEdit` and
 * `NotebookEdit`, and a `Read(…)` rule also covers `Glob`, `Grep` and `LS`.
 * - Globs are parsed by `picomatch`: `**` crosses directories (`a/**\/b` also matches `a/b`), `*` and
 *   `?` do not, `[a-z]`, `[!x]` and `{ts,tsx}` work, `\x` is a literal `x`; `**` also crosses a
 *   newline in a file name. A negated extglob `!(…)` is refused by {@link parse} (it needs a
 *   backtracking matcher).
 * - `//abs/**`: absolute path (`/abs/**`).
 * - `~/x/**`: under `home` (when `home` is not given the rule cannot be judged → matches).
 * - `/x/**`: Claude Code reads this as relative to the project root (`<projectDir>/x/**`). Because
 *   most people writing `Write(/etc/**)` mean the absolute path, it matches BOTH
 *   `<projectDir>/x/**` and the absolute `/x/**` (a deliberate superset: the hook runs in both cases).
 * - `src/**`, `./src/**`: relative to `cwd` (`<cwd>/src/**`, since Claude Code 2.1.214); `../x` works.
 * - `**\/src/**`: any depth, anywhere.
 * - A pattern without `/` (`*.ts`, `.env`) matches the file name at any depth, anywhere (gitignore's
 *   rule for slash-less patterns): `Edit(*.ts)` matches every TypeScript file.
 * - A trailing `/` means "everything below" (`src/` = `src/**`); a pattern whose last segment has no
 *   wildcard also matches everything below it (`Read(~/.ssh)` covers `~/.ssh/id_rsa`).
 * - Paths are normalized first (`\` → `/`, `.` and `..` resolved, relative paths joined to `cwd`);
 *   paths with a drive letter (`C:/…`) compare case-insensitively. A missing path → matches.
 *
 * **Other specifiers**: `WebFetch(domain:example.com)` matches URLs whose host is exactly
 * `example.com` (case-insensitive); `domain:*.example.com` matches its subdomains (not the apex).
 * `Agent(Explore)` / `Task(Explore)` match `subagent_type` (wildcards allowed), `Skill(name)` the
 * skill name, `WebSearch(text *)` the query. A specifier on any other tool (MCP tools, unknown tools)
 * cannot be evaluated: the rule is kind `"opaque"` and matches every call of that tool.
 *
 * **As policy** (`permissions`, `extends`): {@link judge} tells a certain match (`match: true`) from
 * one that cannot be judged before the call runs (`match: "unjudgeable"`, with the reason) and from
 * no match. It judges a shell command on what it runs (every subcommand, through wrappers and
 * `sh -c`, options in any order and spelling, paths normalized, a `cd` earlier in the command, files
 * named by readers, writers and redirections); a deny or ask rule holds on both, an allow rule only
 * on a certain match ({@link allows}).
 *
 * @since 0.1.0
 */
import * as internal from "./internal/permissionRule.ts"
import * as judging from "./internal/ruleJudge.ts"

/**
 * Where a rule's file patterns and the tool call's relative paths are resolved.
 *
 * @since 0.1.0
 * @category models
 */
export interface MatchOptions {
  /** The session's current directory (the input's `cwd`): base of relative patterns. */
  readonly cwd: string
  /** The project root (`CLAUDE_PROJECT_DIR`): base of `/x` patterns. */
  readonly projectDir: string
  /** The user's home directory: base of `~/x` patterns. */
  readonly home?: string | undefined
}

/**
 * A parsed permission rule.
 *
 * `kind`: `"tool"` (no specifier, or `(*)`), `"shell"` (Bash, PowerShell), `"path"` (file tools),
 * `"domain"` (WebFetch), `"text"` (Agent/Task, Skill, WebSearch), `"opaque"` (a specifier that is not
 * evaluated: matches every call of the tool).
 *
 * @since 0.1.0
 * @category models
 */
export interface PermissionRule {
  /** The rule as written. */
  readonly source: string
  /** The tool name as written (`Bash`, `mcp__srv__*`). */
  readonly toolName: string
  /** The text between the parentheses, `undefined` for a bare tool name or `(*)`. */
  readonly specifier: string | undefined
  readonly kind: "tool" | "shell" | "path" | "domain" | "text" | "opaque"
  /** Whether the rule matches a tool call; same as {@link matches}. */
  readonly test: (toolName: string, toolInput: unknown, options: MatchOptions) => boolean
}

/**
 * Alias of {@link PermissionRule}.
 *
 * @since 0.1.0
 * @category models
 */
export type CompiledRule = PermissionRule

/**
 * The outcome of {@link parse}: a rule, or a message for a settings warning saying what is wrong
 * and showing a valid example.
 *
 * @since 0.1.0
 * @category models
 */
export type Result = { readonly _tag: "Success"; readonly rule: PermissionRule } | { readonly _tag: "Failure"; readonly message: string }

/**
 * Parses one permission rule (`Bash(git push *)`, `Edit(src/**)`, `mcp__srv__tool`, …).
 *
 * Wildcards and globs run on RE2 (`re2js`), in time linear in the command or path whatever the rule:
 * a rule may come from a cloned repository, and must not be able to hang a dispatch.
 *
 * Rejected, with a message: a rule longer than 4096 characters, an empty rule, a bare `*`, two rules joined with `&&`/`||`, unbalanced
 * parentheses or text after `)`, empty parentheses, an invalid tool name, a known tool written in
 * the wrong case (`bash(…)`), `:*` anywhere but at the end, and a `WebFetch` specifier other than
 * `domain:<host>`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const parse: (rule: string) => Result = internal.parse

/**
 * Whether a tool call matches a rule. `toolInput` is the input's `tool_input` (any value: a missing
 * or malformed field the rule needs makes it match, fail-open).
 *
 * Only meaningful on tool events; the engine never calls it for other events (a handler with `if`
 * does not run there).
 *
 * @since 0.1.0
 * @category predicates
 */
export const matches: (rule: PermissionRule, toolName: string, toolInput: unknown, options: MatchOptions) => boolean = internal.matches

/**
 * A tool call to judge: the tool's name and its `tool_input`, in Claude Code's names (`Bash` with
 * `command`, `Read`/`Edit`/`Write` with `file_path`, …).
 *
 * @since 0.3.0
 * @category models
 */
export interface ToolCall {
  readonly toolName: string
  readonly toolInput: unknown
}

/**
 * Where {@link judge} resolves paths: {@link MatchOptions}, plus an optional `realpath` that
 * resolves the symlinks of an existing path (return `undefined` when the path does not exist; the
 * core has no file system, so the host passes e.g. Node's `fs.realpathSync.native`). Without it
 * paths are judged as written, normalized.
 *
 * @since 0.3.0
 * @category models
 */
export interface JudgeContext extends MatchOptions {
  readonly realpath?: ((path: string) => string | undefined) | undefined
}

/**
 * The outcome of {@link judge}:
 * - `{ match: true, reason }`: the call certainly does what the rule names (`reason` says which
 *   part: ``runs `rm -rf /` (in `sudo rm -rf /`)``);
 * - `{ match: false }`: it certainly does not;
 * - `{ match: "unjudgeable", reason }`: it may, and only the run would tell (`eval "$X"`, a
 *   variable as the program, `xargs` arguments read from stdin, a shell reading its stdin, a path
 *   computed by `$(…)`).
 *
 * A `deny` or `ask` rule blocks on `true` and on `"unjudgeable"` (with the reason); an `allow`
 * rule counts only on `true` (see {@link allows}).
 *
 * @since 0.3.0
 * @category models
 */
export type Judgment =
  | { readonly match: true; readonly reason: string }
  | { readonly match: false }
  | { readonly match: "unjudgeable"; readonly reason: string }

/**
 * Judges a tool call against a rule as a policy would: unlike {@link matches} (the `if` filter,
 * which says "matches" whenever it is unsure), it tells a certain match from one that cannot be
 * judged.
 *
 * Shell commands (`Bash`) are judged on everything they run:
 * - every simple command of a compound command (`a && b`, `a | b`, `a; b`, `(a)`), of `$(…)`,
 *   backticks and `<(…)`, of code run by `sh -c`/`bash -c`/…, `eval`, `trap`, `env -S`, `su -c`,
 *   `watch`, `ssh host cmd`, and the command `find -exec` runs;
 * - through process wrappers (`sudo`, `doas`, `env X=1`, `timeout`, `nice`, `nohup`, `xargs`,
 *   `command`, `exec`, `busybox`, …) and whatever the program is spelled (`/bin/rm`, `\rm`,
 *   `"rm"`): the rule `Bash(rm -rf:*)` matches `sudo /bin/rm -rf x`;
 * - options in any order and spelling: a rule's options must all be present, clustered or not,
 *   long or short (`rm -r -f`, `rm -fr`, `rm --recursive --force`, `rm -Rf` all hold `-rf`);
 *   extra options in the command do not prevent a match; operands must be the rule's, in order
 *   (all of them for an exact rule, a prefix for `prefix:*` / `prefix *`); `rm`-like programs are
 *   also judged once per operand (`rm -rf /tmp/x /` removes `/`);
 * - operands that are paths compare normalized: `~` and `$HOME` are the home directory, `.`,
 *   `..`, `./` and repeated slashes are resolved, symlinks too when `realpath` is given; a `cd`
 *   (or `pushd`, `env -C`, `sudo -D`, `git -C`) earlier in the command moves where later relative
 *   paths are judged (`cd / && rm -rf x` removes `/x`); a glob covering the rule's path counts
 *   (`rm -rf /*` holds `rm -rf /`);
 * - variables assigned a literal earlier in the same command are substituted (`D=/; rm -rf $D`);
 * - `find` with `-delete` removes its start paths (below them only when a `-name`/`-path`/`-regex`
 *   test narrows it); `find -exec cmd {}` runs `cmd` on them;
 * - the text form of the rule (Claude Code's wildcards) is also tried on each program's words.
 *
 * Path rules (`Read(…)`, `Edit(…)`, `Write(…)`) also judge the files a shell command names:
 * `Read` rules every file named by a reader (`cat`, `less`, `head`, `tail`, `grep`, `cp`, `scp`,
 * `base64`, `source`, `dd if=`, …), a writer, a redirection (`< f`, `> f`) or as an operand of any
 * other program; `Edit`/`Write` rules the files written (`> f`, `>> f`, `tee`, `cp`/`mv` targets,
 * `sed -i`, `rm`, `chmod`, `dd of=`, …), and "unjudgeable" where another program names the file. A
 * glob operand counts when it covers a file the rule names (`cat .en*` reads `.env`; `cat *` does
 * not, the shell's `*` skips dot files).
 *
 * Unjudgeable (a deny rule blocks): the program is an expansion (`$CMD x`, `"$@"`) or a glob; `eval`
 * or `sh -c` of run-time text (`eval "$X"`, `sh -c "$(curl …)"`); a shell reading its stdin (`… | sh`,
 * `bash <<EOF`) or a run-time script (`bash <(curl …)`); `xargs`, whose arguments come from stdin
 * (for rules on its program); an interpreter's inline code (`python -c`, `node -e`) that names the
 * rule's program or runs programs; a path computed by `$(…)`; a command that does not parse. A
 * script file run by name (`bash ./x.sh`, `source x`) is judged as that program, not by its contents.
 *
 * PowerShell commands are matched as text: any match is `"unjudgeable"`, never certain.
 *
 * @since 0.3.0
 * @category predicates
 */
export const judge: (rule: PermissionRule, call: ToolCall, ctx: JudgeContext) => Judgment = judging.judge

/**
 * Whether `allow` rules certainly cover a call: a non-shell call matched by one of them, or a shell
 * command whose every simple command is matched by one of them (wrappers that change nothing —
 * `timeout`, `time`, `nice`, `nohup`, `env X=1`, … — are seen through; `sudo` is not). Anything
 * unjudgeable in the command makes it `false`: an allow rule matches only when certain.
 *
 * @since 0.3.0
 * @category predicates
 */
export const allows: (rules: ReadonlyArray<PermissionRule>, call: ToolCall, ctx: JudgeContext) => boolean = judging.allows
