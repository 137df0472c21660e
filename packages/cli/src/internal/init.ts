import { SettingsSchema } from "@agent-hooks/core"
import { Console, Effect, Option } from "effect"
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"

/** Options of `agent-hooks init`. */
export interface InitOptions {
  readonly projectDir: Option.Option<string>
  readonly preset: string
}

/** Where each dialect `init` can write keeps its project settings, and the variable naming the project. */
// A project file may log only inside <project>/.agent-hooks/logs/ (the log-path rule), whatever its dialect.
const layouts: Record<string, { readonly dir: string; readonly projectVar: string; readonly auditLog: string }> = {
  "agent-hooks": { dir: ".agent-hooks", projectVar: "AGENT_HOOKS_PROJECT_DIR", auditLog: "logs/audit.jsonl" },
  claude: { dir: ".claude", projectVar: "CLAUDE_PROJECT_DIR", auditLog: "../.agent-hooks/logs/audit.jsonl" }
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
if [ -f package.json ] && grep -q '"test"' package.json; then
  out=$(npm test --silent 2>&1) || { printf 'The tests fail; fix them before stopping:\\n%s\\n' "$(printf '%s' "$out" | tail -n 30)" >&2; exit 2; }
fi
exit 0
`

const settings = (projectVar: string, dir: string, auditLog: string): string =>
  JSON.stringify(
    {
      $schema: "./settings.schema.json",
      auditLog,
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command", command: `"$${projectVar}"/${dir}/hooks/block-dangerous.sh`, timeout: 10 }]
        }],
        PostToolUse: [{
          matcher: "Edit|Write|MultiEdit",
          hooks: [{ type: "command", command: `"$${projectVar}"/${dir}/hooks/format.sh`, timeout: 60 }]
        }],
        Stop: [{
          hooks: [{ type: "command", command: `"$${projectVar}"/${dir}/hooks/run-tests.sh`, timeout: 600, statusMessage: "Running the tests" }]
        }]
      }
    },
    null,
    2
  ) + "\n"

/**
 * `agent-hooks init`: writes a starting settings file with working hooks and their scripts. Writes
 * nothing when any of the files exists already.
 *
 * @internal
 */
export const init = (options: InitOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const layout = layouts[options.preset]
    if (layout === undefined) {
      return yield* new Failed({
        message: `init writes the agent-hooks and claude dialects only, not ${options.preset}: run agent-hooks init, then use the canonical file (every preset reads it with --settings)`
      })
    }
    const projectDir = resolve(process.cwd(), Option.getOrElse(options.projectDir, () => "."))
    const base = join(projectDir, layout.dir)
    const files: ReadonlyArray<readonly [string, string, boolean]> = [
      [join(base, "settings.json"), settings(layout.projectVar, layout.dir, layout.auditLog), false],
      [join(base, "settings.schema.json"), JSON.stringify(SettingsSchema.jsonSchema(), null, 2) + "\n", false],
      [join(base, "hooks", "block-dangerous.sh"), blockDangerous, true],
      [join(base, "hooks", "format.sh"), format, true],
      [join(base, "hooks", "run-tests.sh"), runTests, true]
    ]
    const existing = files.filter(([path]) => existsSync(path)).map(([path]) => relative(projectDir, path))
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
    for (const [path] of files) yield* Console.log(`wrote ${relative(projectDir, path)}`)
    yield* Console.log(
      `Hooks: block dangerous Bash commands (PreToolUse), format edited files (PostToolUse), run the tests on Stop; audit log in .agent-hooks/logs/. Check with: agent-hooks validate${options.preset === "agent-hooks" ? "" : ` --preset ${options.preset}`}`
    )
  })
