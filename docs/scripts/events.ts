/**
 * Generates one page per catalog event, `docs/events/<Event>.md`, from two sources:
 * - the core's event catalog (`HookEvent.catalog`): matcher field, how the event blocks, who sees
 *   exit 2's stderr and a JSON reason, the `hookSpecificOutput` fields it accepts, the default
 *   timeout, whether `continue: false` is honoured; and an example hook chosen by how it blocks;
 * - the hand-written prose of `docs/events.md`: the event's `### <Event>` section (when it fires,
 *   its payload fields, the details the catalog does not hold).
 *
 *   node docs/scripts/events.ts           write the pages (after `npm run build`: it reads the built core)
 *   node docs/scripts/events.ts --check   exit 1 when a page is missing or differs from what would be written
 *
 * The docs tests check that every catalog event has its page and that the pages are current, and
 * run each page's example hook with the built CLI.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { HookEvent } from "@agent-hooks/core"

type Spec = HookEvent.HookEventSpec

export const docsDir = join(dirname(fileURLToPath(import.meta.url)), "..")

/** The `### <name>` section of events.md, without its heading, links rewritten for docs/events/. */
export const proseFor = (eventsMd: string, name: string): string | undefined => {
  const lines = eventsMd.split("\n")
  const start = lines.findIndex((l) => l.trim() === `### ${name}`)
  if (start < 0) return undefined
  let end = start + 1
  while (end < lines.length && !/^#{1,3} /.test(lines[end] ?? "")) end++
  const body = lines
    .slice(start + 1, end)
    .join("\n")
    .trim()
  // Relative links of events.md point from docs/; the page lives one folder down. Same-page
  // anchors (`#summary`) point to events.md.
  return body.replace(/\]\((?![a-z]+:|\/|#)([^)]+)\)/gi, "](../$1)").replace(/\]\(#([^)]+)\)/g, "](../events.md#$1)")
}

const audience = (a: HookEvent.Audience): string =>
  a === "model" ? "the model (`toModel`)" : a === "user" ? "the user (`toUser`)" : "nobody (it is only in the hook's result)"

const blockingText: Record<HookEvent.BlockingRule, string> = {
  permission:
    "by a permission decision: `hookSpecificOutput.permissionDecision` `deny` (or exit 2) blocks; `ask`, `defer` and `allow` are passed to the host",
  "permission-request": 'only by `hookSpecificOutput.decision` with `behavior: "deny"`; exit 2 is ignored',
  decision: 'by exit 2 (stderr is the reason) or by top-level `decision: "block"` with a `reason`',
  none: "cannot block: exit 2 is reported as a `blocking-error` of that hook, and the action goes ahead"
}

/** What each `hookSpecificOutput` field does (the catalog lists the names, this says what they mean). */
const specificFieldText: Record<string, string> = {
  permissionDecision: "`allow`, `deny`, `ask` or `defer`; several hooks: `deny` > `defer` > `ask` > `allow`; `deny` blocks",
  permissionDecisionReason: "the reason for the decision: a deny reason goes to the model, an `ask` or `allow` reason to the user",
  updatedInput: "replaces fields of the tool input (several hooks: shallow-merged in config order); the Outcome's `updatedInput`",
  additionalContext: "text added to the model's context (the Outcome's `additionalContext` and `toModel`)",
  decision: '`{"behavior": "allow", "updatedInput"?: {...}}` or `{"behavior": "deny", "message"?: "..."}`; deny blocks',
  retry: "`true` asks the host to let the model retry the denied call (passed through in the Outcome's `hookSpecificOutput`)",
  sessionTitle: "a title for the session (passed through)",
  suppressOriginalPrompt: "the host should not show the original prompt (passed through)",
  updatedToolOutput: "replaces the tool's output the model sees (passed through)",
  updatedMCPToolOutput: "replaces an MCP tool's output the model sees (passed through)",
  classifierContext: "extra context for the host's classifier (passed through)",
  initialUserMessage: "a first user message for the session (passed through)",
  watchPaths: "paths the host should watch and report with FileChanged (passed through)",
  reloadSkills: "the host should reload its skills (passed through)",
  displayContent: "replaces the text the host displays (passed through)",
  action: "`accept`, `decline` or `cancel` for the MCP elicitation (passed through)",
  content: "the form content answering the elicitation (passed through)",
  worktreePath: "the path of the worktree the hook created (the Outcome's `hookSpecificOutput.worktreePath`)"
}

/** A value of the matcher field for the example payload. */
const matcherExample: Record<string, string> = {
  source: "startup",
  trigger: "manual",
  load_reason: "session_start",
  command_name: "review",
  tool_name: "Bash",
  notification_type: "idle_prompt",
  agent_type: "Explore",
  error: "rate_limit",
  file_path: ".env",
  to_model: "opus",
  mcp_server_name: "memory",
  reason: "clear"
}

const examplePayload = (spec: Spec): Record<string, unknown> => {
  const payload: Record<string, unknown> = { session_id: "s1" }
  if (spec.matcherField !== undefined) payload[spec.matcherField] = matcherExample[spec.matcherField] ?? "example"
  if (spec.matcherField === "tool_name") payload.tool_input = { command: "rm -rf build" }
  return payload
}

const slug = (name: string): string => name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase()

interface Example {
  readonly intro: string
  readonly script: string
  readonly output: ReadonlyArray<string>
  readonly exit: number
  readonly after?: { readonly command: string; readonly output: ReadonlyArray<string> }
}

const exampleFor = (spec: Spec): Example => {
  const name = spec.name
  switch (spec.blocking) {
    case "permission":
      return {
        intro: `The hook answers with a permission decision in JSON on stdout: \`deny\`, with a reason. The Outcome is blocked and \`agent-hooks run\` exits 2.`,
        script: [
          "#!/bin/sh",
          "cat > /dev/null  # the payload (unused here)",
          `echo '{"hookSpecificOutput":{"hookEventName":"${name}","permissionDecision":"deny","permissionDecisionReason":"not in this project"}}'`
        ].join("\n"),
        output: [`{"event":"${name}","blocked":true,"decision":"deny","reason":"not in this project",...}`],
        exit: 2
      }
    case "permission-request":
      return {
        intro: `On ${name} only the JSON \`decision\` counts (exit 2 is ignored): \`behavior: "deny"\` blocks, with the \`message\` as the reason.`,
        script: [
          "#!/bin/sh",
          "cat > /dev/null",
          `echo '{"hookSpecificOutput":{"hookEventName":"${name}","decision":{"behavior":"deny","message":"ask a human first"}}}'`
        ].join("\n"),
        output: [`{"event":"${name}","blocked":true,"decision":"deny","reason":"ask a human first",...}`],
        exit: 2
      }
    case "decision":
      return {
        intro: `The hook blocks with exit 2; its stderr is the reason${spec.exit2StderrTo === "none" ? "" : `, and goes to ${audience(spec.exit2StderrTo)}`}.`,
        script: ["#!/bin/sh", "cat > /dev/null", `echo "${name} refused by the example hook" >&2`, "exit 2"].join("\n"),
        output: [`{"event":"${name}","blocked":true,"decision":"block","reason":"${name} refused by the example hook",...}`],
        exit: 2
      }
    case "none":
      return {
        intro: `${name} cannot block, so the example hook records the payload it received in a log file. The Outcome is not blocked and \`agent-hooks run\` exits 0.`,
        script: [
          "#!/bin/sh",
          `cat >> "$AGENT_HOOKS_PROJECT_DIR/${slug(name)}.log"`,
          `echo >> "$AGENT_HOOKS_PROJECT_DIR/${slug(name)}.log"`
        ].join("\n"),
        output: [`{"event":"${name}","blocked":false,...}`],
        exit: 0,
        after: { command: `cat ${slug(name)}.log`, output: [`{...,"hook_event_name":"${name}"...}`] }
      }
  }
}

export const renderEventPage = (spec: Spec, prose: string | undefined): string => {
  const name = spec.name
  const example = exampleFor(spec)
  const script = `hooks/${slug(name)}.sh`
  const group: Record<string, unknown> = { hooks: [{ type: "command", command: `"$AGENT_HOOKS_PROJECT_DIR"/${script}` }] }
  if (spec.matcherField !== undefined) {
    group.matcher = matcherExample[spec.matcherField] ?? "example"
  }
  const settings = JSON.stringify(
    { hooks: { [name]: [spec.matcherField !== undefined ? { matcher: group.matcher, hooks: group.hooks } : group] } },
    null,
    2
  )
  const jsonRows: Array<string> = [
    `| \`continue: false\` | ${spec.continueHonored ? "the agent stops after this event; the Outcome's `continue` is `false` and `stopReason` goes to the user" : "discarded on this event"} |`,
    "| `stopReason` | shown to the user when `continue` is `false` |",
    `| \`systemMessage\` | ${
      !spec.systemMessageShown
        ? "discarded on this event (Claude Code reads nothing of the JSON answer here but `terminalSequence`), and named in `warnings`"
        : spec.name === "DirectoryAdded"
          ? "a message for Claude (`systemMessages`, `toModel`)"
          : "a message for the user (`systemMessages`, `toUser`)"
    } |`,
    "| `suppressOutput` | accepted, no effect |",
    spec.blocking === "decision"
      ? `| \`decision: "block"\`, \`reason\` | blocks; the reason goes to ${audience(spec.reasonTo)} |`
      : spec.blocking === "permission"
        ? `| \`decision: "approve"\` / \`"block"\` | legacy spellings of \`allow\` / \`deny\` |`
        : "| `decision`, `reason` (top level) | no effect on this event |",
    ...(spec.specificOutput.length === 0
      ? ["| `hookSpecificOutput` | not accepted on this event: its presence is a validation error (the hook's JSON is discarded) |"]
      : [
          ...spec.specificOutput.map(
            (f) => `| \`hookSpecificOutput.${f}\` | ${specificFieldText[f] ?? "passed through in the Outcome's `hookSpecificOutput`"} |`
          ),
          "| any other `hookSpecificOutput` field | not read on this event (not delivered): each one is named in the hook's messages and the Outcome's `warnings` |"
        ])
  ]
  const payload = JSON.stringify(examplePayload(spec))
  const lines: Array<string> = [
    "---",
    `title: ${name}`,
    "---",
    "",
    "<!-- Generated by docs/scripts/events.ts from the core's event catalog and the prose of docs/events.md. Edit those, then run `node docs/scripts/events.ts`. -->",
    "",
    `# ${name}`,
    "",
    "## At a glance",
    "",
    "| Property | " + name + " |",
    "| --- | --- |",
    `| Matcher field | ${spec.matcherField === undefined ? "none: every group runs (a `matcher` is ignored)" : `\`${spec.matcherField}\` (see [Matchers](../matchers.md))`} |`,
    `| Can block | ${blockingText[spec.blocking]} |`,
    `| Exit 2's stderr goes to | ${audience(spec.exit2StderrTo)} |`,
    `| A JSON \`reason\` goes to | ${audience(spec.reasonTo)} |`,
    `| Plain stdout on exit 0 | ${spec.plainStdoutToContext ? "added to the model's context" : "not context (use `additionalContext`)"} |`,
    `| Default timeout | ${spec.defaultTimeout} s (command, http and mcp_tool hooks) |`,
    `| \`prompt\` and \`agent\` handlers | ${spec.promptHandlers ? "allowed" : "not allowed"} |`,
    "",
    "## Exit codes",
    "",
    "| Exit | Effect |",
    "| --- | --- |",
    "| 0 | success; stdout is read as JSON when it starts with `{` |",
    `| 2 | ${spec.blocking === "permission-request" ? "ignored on this event (use the JSON `decision`)" : spec.blocking === "none" ? "reported as the hook's `blocking-error`; the event does not block" : "blocks; stderr is the reason"} |`,
    "| other | a non-blocking error: the action goes ahead, the error is in the hook's result |",
    "",
    "## JSON fields",
    "",
    "| Field | Effect on " + name + " |",
    "| --- | --- |",
    ...jsonRows,
    "",
    "## Details",
    "",
    prose ?? `${name} has no hand-written section in [Events](../events.md) yet.`,
    "",
    "## Example hook",
    "",
    example.intro,
    "",
    `\`\`\`sh file=${script}`,
    example.script,
    "```",
    "",
    "```json file=.agent-hooks/settings.json",
    settings,
    "```",
    "",
    "```console run",
    `$ chmod +x ${script}`,
    `$ echo '${payload}' | agent-hooks run ${name}`,
    ...example.output,
    "$ echo $?",
    String(example.exit),
    ...(example.after ? [`$ ${example.after.command}`, ...example.after.output] : []),
    "```",
    "",
    "The docs tests run this example with the built CLI in a fresh folder.",
    ""
  ]
  return lines.join("\n")
}

export const renderAll = (eventsMd: string): Map<string, string> =>
  new Map(HookEvent.catalog.map((spec) => [join("events", `${spec.name}.md`), renderEventPage(spec, proseFor(eventsMd, spec.name))]))

const main = (): number => {
  const check = process.argv.includes("--check")
  const eventsMd = readFileSync(join(docsDir, "events.md"), "utf8")
  let stale = 0
  for (const [file, content] of renderAll(eventsMd)) {
    const path = join(docsDir, file)
    const current = existsSync(path) ? readFileSync(path, "utf8") : undefined
    if (current === content) continue
    if (check) {
      stale++
      process.stderr.write(`docs/${file} is ${current === undefined ? "missing" : "out of date"}\n`)
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, content)
      process.stderr.write(`wrote docs/${file}\n`)
    }
  }
  if (stale > 0) process.stderr.write(`${stale} event page(s) to regenerate: run \`node docs/scripts/events.ts\` (after npm run build)\n`)
  return stale > 0 ? 1 : 0
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main()
