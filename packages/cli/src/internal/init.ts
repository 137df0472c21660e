import * as Presets from "@agent-hooks/core/Presets"
import * as SettingsSchema from "@agent-hooks/core/SettingsSchema"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { Failed } from "../ExitCode.ts"

/** Options of `agent-hooks init`. */
export interface InitOptions {
  readonly projectDir: Option.Option<string>
  readonly preset: string
}

const blockDangerous = `#!/bin/sh
# PreToolUse (Bash): refuses commands that destroy a machine or rewrite shared history.
# Exit 2 blocks the tool call; stderr is the reason the agent sees.
payload=$(cat)
if printf '%s' "$payload" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*[rRf][a-zA-Z]*[[:space:]]+(-[a-zA-Z]+[[:space:]]+)*(/|~|\\$HOME)([[:space:]"*]|$)'; then
  echo "Blocked: rm -rf on / or the home folder. Delete specific paths instead." >&2
  exit 2
fi
if printf '%s' "$payload" | grep -Eq 'git[[:space:]]+push[[:space:]].*(--force|-f)([[:space:]"]|$)|mkfs|dd[[:space:]]+if=.*of=/dev/'; then
  echo "Blocked: force push, mkfs or dd onto a device. Ask the user to run it." >&2
  exit 2
fi
exit 0
`

const format = `#!/bin/sh
# PostToolUse (Edit|Write|MultiEdit): formats the edited file with the formatter its type has, when installed.
file=$(cat | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p' | head -n 1)
[ -n "$file" ] && [ -f "$file" ] || exit 0
case "$file" in
  *.go) command -v gofmt >/dev/null && gofmt -w "$file" ;;
  *.py) command -v black >/dev/null && black -q "$file" ;;
  *.rs) command -v rustfmt >/dev/null && rustfmt "$file" ;;
  *.js|*.jsx|*.ts|*.tsx|*.json|*.css|*.md)
    [ -x ./node_modules/.bin/prettier ] && ./node_modules/.bin/prettier --write --log-level warn "$file" ;;
esac
exit 0
`

const runTests = `#!/bin/sh
# Stop: runs the project's tests; when they fail, exit 2 keeps the agent working (stderr says why).
# stop_hook_active is true when the agent is already continuing because of this hook: then let it stop.
payload=$(cat)
printf '%s' "$payload" | grep -Eq '"stop_hook_active"[[:space:]]*:[[:space:]]*true' && exit 0
# npm init's placeholder ("Error: no test specified" && exit 1) is no test suite: nothing to run.
if [ -f package.json ] && grep -q '"test"' package.json && ! grep -q 'Error: no test specified' package.json; then
  out=$(npm test --silent 2>&1) || { printf 'The tests fail; fix them before stopping:\\n%s\\n' "$(printf '%s' "$out" | tail -n 30)" >&2; exit 2; }
fi
exit 0
`

type Script = "block-dangerous.sh" | "format.sh" | "run-tests.sh"

/**
 * What `init` writes for one dialect: the settings file where that dialect's own discovery reads it
 * (the preset's project file, or its user file when the dialect has no project file), in the
 * dialect's own shape, and the scripts it names. `script` gives the command text for a script.
 */
interface Starter {
  /** The scope of the discovered file to write: the dialect's project file, else its user file. */
  readonly scope: "project" | "user"
  /** Whether the file gets `"$schema"` and its schema copy: only the canonical dialects, whose loader knows the key. */
  readonly schema: boolean
  readonly scripts: ReadonlyArray<Script>
  readonly document: (script: (name: Script) => string) => unknown
  readonly summary: string
  /** An event of the dialect and a payload with which the starter's guard blocks (the tests run it). */
  readonly check: { readonly event: string; readonly payload: Readonly<Record<string, unknown>> }
}

/**
 * The settings that block dangerous calls in agent-hooks' own files: the recommended rule set,
 * judged in-process (no script). The docs' "block dangerous commands" recipe uses the same
 * (packages/cli/test/Init.test.ts checks they decide the same on the recommended set's tables).
 * @internal
 */
export const RECOMMENDED_POLICY = { extends: ["agent-hooks:recommended"] } as const

const canonical = (projectVar: string, dir: string, auditLog: string, rules: boolean): Starter => ({
  scope: "project",
  schema: true,
  scripts: rules ? ["format.sh", "run-tests.sh"] : ["block-dangerous.sh", "format.sh", "run-tests.sh"],
  document: () => ({
    $schema: "./settings.schema.json",
    auditLog,
    ...(rules ? RECOMMENDED_POLICY : {}),
    hooks: {
      ...(rules
        ? {}
        : {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: `"$${projectVar}"/${dir}/hooks/block-dangerous.sh`, timeout: 10 }] }
            ]
          }),
      PostToolUse: [
        { matcher: "Edit|Write|MultiEdit", hooks: [{ type: "command", command: `"$${projectVar}"/${dir}/hooks/format.sh`, timeout: 60 }] }
      ],
      Stop: [
        {
          hooks: [
            { type: "command", command: `"$${projectVar}"/${dir}/hooks/run-tests.sh`, timeout: 600, statusMessage: "Running the tests" }
          ]
        }
      ]
    }
  }),
  summary: rules
    ? `block dangerous calls (the agent-hooks:recommended rules), format edited files (PostToolUse), run the tests on Stop; audit log in .agent-hooks/logs/`
    : `block dangerous Bash commands (PreToolUse), format edited files (PostToolUse), run the tests on Stop; audit log in .agent-hooks/logs/`,
  check: { event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } } }
})

/**
 * One starter per dialect. A project file may log only inside <project>/.agent-hooks/logs/ (the
 * log-path rule), whatever its dialect. Tool names are each agent's own: Gemini CLI's
 * run_shell_command / write_file / replace, Wingman's command_execute / write_file / edit_file,
 * pigo's bash / write / edit, Claude Code's (and Wave's) Bash / Edit / Write.
 */
const starters: Record<string, Starter> = {
  "agent-hooks": canonical("AGENT_HOOKS_PROJECT_DIR", ".agent-hooks", "logs/audit.jsonl", true),
  // Claude Code reads .claude/settings.json itself: it keeps the script guard (no agent-hooks key there)
  claude: canonical("CLAUDE_PROJECT_DIR", ".claude", "../.agent-hooks/logs/audit.jsonl", false),
  // Wave: Claude Code's shape in .wave/settings.json; hooks get WAVE_PROJECT_DIR.
  wave: {
    scope: "project",
    schema: false,
    scripts: ["block-dangerous.sh", "format.sh", "run-tests.sh"],
    document: (script) => ({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script("block-dangerous.sh") }] }],
        PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: script("format.sh") }] }],
        Stop: [{ hooks: [{ type: "command", command: script("run-tests.sh") }] }]
      }
    }),
    summary: "block dangerous Bash commands (PreToolUse), format edited files (PostToolUse), run the tests on Stop",
    check: { event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } } }
  },
  // Gemini CLI: its own event names, tool names, and timeouts in milliseconds.
  gemini: {
    scope: "project",
    schema: false,
    scripts: ["block-dangerous.sh", "format.sh", "run-tests.sh"],
    document: (script) => ({
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [{ name: "block-dangerous", type: "command", command: script("block-dangerous.sh"), timeout: 10000 }]
          }
        ],
        AfterTool: [
          { matcher: "write_file|replace", hooks: [{ name: "format", type: "command", command: script("format.sh"), timeout: 60000 }] }
        ],
        AfterAgent: [{ hooks: [{ name: "run-tests", type: "command", command: script("run-tests.sh"), timeout: 600000 }] }]
      }
    }),
    summary:
      "block dangerous shell commands (BeforeTool), format written files (AfterTool), run the tests when the agent ends its turn (AfterAgent)",
    check: { event: "BeforeTool", payload: { tool_name: "run_shell_command", tool_input: { command: "rm -rf /" } } }
  },
  // Wingman: Claude Code's shape in .wingman/wingman.config.json; PostToolUse and Stop never block
  // there, so the starter has the guard and the formatter.
  wingman: {
    scope: "project",
    schema: false,
    scripts: ["block-dangerous.sh", "format.sh"],
    document: (script) => ({
      hooks: {
        PreToolUse: [{ matcher: "command_execute", hooks: [{ type: "command", command: script("block-dangerous.sh"), timeout: 10 }] }],
        PostToolUse: [{ matcher: "write_file|edit_file", hooks: [{ type: "command", command: script("format.sh"), timeout: 60 }] }]
      }
    }),
    summary: "block dangerous commands (PreToolUse on command_execute), format written files (PostToolUse)",
    check: { event: "PreToolUse", payload: { tool_name: "command_execute", tool_input: { command: "rm -rf /" } } }
  },
  // The orchestration design: Claude Code's files, exec-form handlers (no shell), timeouts in ms.
  orchestration: {
    scope: "project",
    schema: false,
    scripts: ["block-dangerous.sh", "format.sh", "run-tests.sh"],
    document: (script) => ({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: "sh", args: [script("block-dangerous.sh")], timeout: 10000, continueOnError: false }]
          }
        ],
        PostToolUse: [
          {
            matcher: "Edit|Write",
            hooks: [{ type: "command", command: "sh", args: [script("format.sh")], timeout: 60000, continueOnError: true }]
          }
        ],
        Stop: [{ hooks: [{ type: "command", command: "sh", args: [script("run-tests.sh")], timeout: 300000, continueOnError: false }] }]
      }
    }),
    summary: "block dangerous Bash commands (PreToolUse), format edited files (PostToolUse), run the tests on Stop",
    check: { event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } } }
  },
  // pigo: one config per user ($PIGO_HOME/config.json, else ~/.pigo/config.json), a plugins array;
  // only a blocking tool_start hook can stop anything.
  pigo: {
    scope: "user",
    schema: false,
    scripts: ["block-dangerous.sh", "format.sh"],
    document: (script) => ({
      plugins: [
        {
          name: "agent-hooks-starter",
          enabled: true,
          hooks: {
            tool_start: [{ command: script("block-dangerous.sh"), match: { tool: "bash" }, blocking: true, timeout: 10 }],
            tool_end: [{ command: script("format.sh"), match: { tool: "write|edit" }, blocking: false }]
          }
        }
      ]
    }),
    summary: "block dangerous bash commands (blocking tool_start), format written files (tool_end, fire-and-forget)",
    check: { event: "tool_start", payload: { tool_name: "bash", tool_input: { command: "rm -rf /" } } }
  }
}

/** The event and payload with which a preset's starter guard blocks, for the tests and the docs. @internal */
export const starterCheck = (preset: string) => starters[preset]?.check

/**
 * `agent-hooks init`: writes a starting settings file with working hooks and their scripts, in the
 * dialect of `--preset`, where that dialect reads it. Writes nothing when any of the files exists.
 *
 * @internal
 */
export const init = (options: InitOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const starter = starters[options.preset]
    const preset = Presets.byName(options.preset)
    if (starter === undefined || preset === undefined) {
      return yield* new Failed({
        message: `unknown preset ${JSON.stringify(options.preset)}; expected one of ${Object.keys(starters).join(", ")}`
      })
    }
    const projectDir = resolve(
      process.cwd(),
      Option.getOrElse(options.projectDir, () => ".")
    )
    const discovered = preset.discover({ projectDir, cwd: projectDir, env: process.env })
    // When HOME is the project folder, discovery lists the shared file once, as the user's.
    const target =
      discovered.find((file) => file.scope === starter.scope) ??
      discovered.find((file) => starter.scope === "project" && file.scope === "user" && file.path.startsWith(projectDir + sep))
    if (target === undefined) {
      return yield* new Failed({
        message: `init: the ${options.preset} preset reads no ${starter.scope} settings file here (is HOME set?)`
      })
    }
    const base = dirname(target.path)
    const shown = (path: string) => (starter.scope === "project" ? relative(projectDir, path) : path)
    // Commands name the scripts by the variable the dialect sets for the project folder, else by an
    // absolute path for a user-level file, else relative to the project (hooks run there).
    const projectVar = preset.projectDirEnv[0]
    const script = (name: Script): string =>
      starter.scope === "user"
        ? shellQuote(join(base, "hooks", name))
        : options.preset === "orchestration"
          ? join(relative(projectDir, base), "hooks", name)
          : projectVar !== undefined
            ? `"$${projectVar}"/${relative(projectDir, base)}/hooks/${name}`
            : `./${relative(projectDir, base)}/hooks/${name}`
    const scriptText: Record<Script, string> = { "block-dangerous.sh": blockDangerous, "format.sh": format, "run-tests.sh": runTests }
    const files: ReadonlyArray<readonly [string, string, boolean]> = [
      [target.path, JSON.stringify(starter.document(script), null, 2) + "\n", false],
      ...(starter.schema
        ? [[join(base, "settings.schema.json"), JSON.stringify(SettingsSchema.jsonSchema(), null, 2) + "\n", false] as const]
        : []),
      ...starter.scripts.map((name) => [join(base, "hooks", name), scriptText[name], true] as const)
    ]
    // A project's folders may be links (a cloned repository can hold any): a project file is
    // never written through one that leads out of the project.
    if (starter.scope === "project") {
      const root = realpathSync(projectDir)
      const escaping = [...new Set(files.map(([path]) => dirname(path)))].flatMap((folder) => {
        const existing = deepestExisting(folder)
        const real = realpathSync(existing)
        return real === root || real.startsWith(root + sep) ? [] : [`${relative(projectDir, existing) || "."} (-> ${real})`]
      })
      if (escaping.length > 0) {
        return yield* new Failed({
          message: `init: not writing through ${[...new Set(escaping)].join(", ")}: a link to outside the project; nothing written`
        })
      }
    }
    const existing = files.filter(([path]) => existsSync(path)).map(([path]) => shown(path))
    if (existing.length > 0) {
      return yield* new Failed({ message: `not overwriting ${existing.join(", ")}: nothing written (move them away to start afresh)` })
    }
    yield* Effect.try({
      try: () => {
        for (const [path, text, executable] of files) {
          mkdirSync(dirname(path), { recursive: true })
          writeFileSync(path, text, { flag: "wx" })
          if (executable) chmodSync(path, 0o755)
        }
      },
      catch: (error) => new Failed({ message: `init: ${error instanceof Error ? error.message : String(error)}` })
    })
    for (const [path] of files) yield* Console.log(`wrote ${shown(path)}`)
    yield* Console.log(
      `Hooks: ${starter.summary}. Check with: agent-hooks validate${options.preset === "agent-hooks" ? "" : ` --preset ${options.preset}`}`
    )
  })

/** `folder` itself when it exists, else its nearest existing ancestor. */
const deepestExisting = (folder: string): string => {
  let current = folder
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current)
  return current
}

const shellQuote = (text: string): string => (/^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)
