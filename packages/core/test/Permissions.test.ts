/**
 * The `permissions` and `extends` settings keys: merged across scopes as Claude Code merges them
 * (deny over ask over allow, managed first), judged in-process before any hook runs (no process
 * is spawned for a deny), an allow that is only "no objection", and bad rules said where they are.
 * The engine runs on the scripted spawner (./harness.ts): every process it would start is recorded.
 */
import * as Plan from "@agent-hooks/core/Plan"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { bash, cmd, group, harness, permission, settings, withEngine } from "./harness.ts"

const USER = "/home/user/.agent-hooks/settings.json"
const PROJECT = "/project/.agent-hooks/settings.json"
const LOCAL = "/project/.agent-hooks/settings.local.json"
const MANAGED = "/managed/managed-settings.json"

/** The engine with its settings found by discovery (user, project, local, managed), on the scripted spawner. */
const scoped = (files: Record<string, unknown>, script: Parameters<typeof harness>[1] = () => ({}), options = {}) =>
  harness(files, script, { settings: undefined, ...options })

describe("permissions", () => {
  it.effect("a deny rule blocks the call before any hook runs: no process starts, the reason names the rule and its file", () => {
    const h = scoped({
      [PROJECT]: settings({ PreToolUse: [group("Bash", cmd("guard"))] }, { permissions: { deny: ["Bash(rm -rf:*)"] } })
    })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        const outcome = yield* engine.dispatch("PreToolUse", bash("cd /tmp && rm -rf /"))
        const reason = 'denied by permissions rule "Bash(rm -rf:*)" (project settings .agent-hooks/settings.json): runs `rm -rf /`'
        expect(outcome).toMatchObject({
          blocked: true,
          decision: "deny",
          reason,
          toModel: [reason],
          hooks: [],
          permission: { list: "deny", rule: "Bash(rm -rf:*)", source: PROJECT, scope: "project", path: "permissions.deny[0]" }
        })
        // a command that cannot be judged before it runs is denied by a deny rule whose program could match, saying so
        const unjudged = yield* engine.dispatch("PreToolUse", bash('eval "$X"'))
        expect(unjudged.blocked).toBe(true)
        expect(unjudged.reason).toContain("cannot be judged before it runs")
        expect(h.spawner.requests).toEqual([])
        // another command is not the rule's: the hook runs as before
        const other = yield* engine.dispatch("PreToolUse", bash("ls"))
        expect(other.blocked).toBe(false)
        expect(other.permission).toBeUndefined()
        expect(h.spawner.requests).toHaveLength(1)
      })
    )
  })

  it.effect("a permissions-only policy blocks through the synchronous path too (wrapped and compound commands)", () => {
    const h = scoped({ [USER]: { permissions: { deny: ["Bash(git push --force:*)", "Read(./.env)"] } } })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        for (const command of [
          "git push --force origin main",
          "sudo git push --force",
          "ls && git push --force",
          "sh -c 'git push --force'"
        ]) {
          const outcome = yield* engine.dispatch("PreToolUse", bash(command))
          expect(outcome.blocked, command).toBe(true)
          expect(outcome.reason, command).toContain('"Bash(git push --force:*)" (user settings')
        }
        const read = yield* engine.dispatch("PreToolUse", {
          tool_name: "Read",
          tool_input: { file_path: "/project/.env" },
          cwd: "/project"
        })
        expect(read).toMatchObject({ blocked: true, permission: { rule: "Read(./.env)" } })
        expect((yield* engine.dispatch("PreToolUse", bash("git push origin feature"))).blocked).toBe(false)
        expect(h.spawner.requests).toEqual([])
      })
    )
  })

  it.effect("a managed deny wins: no allow of the user's or the project's lifts it, and it is the rule named", () => {
    const h = scoped({
      [MANAGED]: { permissions: { deny: ["Bash(curl:*)"] } },
      [USER]: { permissions: { allow: ["Bash(curl:*)", "Bash"] } },
      [PROJECT]: { permissions: { deny: ["Bash(curl https://evil.example:*)"], allow: ["Bash(curl:*)"] } }
    })
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUse", bash("curl https://evil.example/x")), (outcome) => {
        expect(outcome).toMatchObject({ blocked: true, decision: "deny", permission: { scope: "managed", rule: "Bash(curl:*)" } })
        expect(outcome.reason).toContain("(managed settings /managed/managed-settings.json)")
      })
    )
  })

  it.effect("deny over ask over allow, whichever file says it", () => {
    const h = scoped({
      [USER]: { permissions: { ask: ["Bash(git push:*)"], allow: ["Bash(git:*)"] } },
      [LOCAL]: { permissions: { deny: ["Bash(git push --force:*)"], allow: ["Bash(git push:*)"] } }
    })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        const push = yield* engine.dispatch("PreToolUse", bash("git push origin main"))
        expect(push).toMatchObject({ blocked: false, decision: "ask", permission: { list: "ask", scope: "user" } })
        expect(push.toUser).toEqual([
          'asks the user by permissions rule "Bash(git push:*)" (user settings /home/user/.agent-hooks/settings.json): runs `git push origin main`'
        ])
        const force = yield* engine.dispatch("PreToolUse", bash("git push --force origin main"))
        expect(force).toMatchObject({ blocked: true, decision: "deny", permission: { list: "deny", scope: "local" } })
        const status = yield* engine.dispatch("PreToolUse", bash("git status"))
        expect(status).toMatchObject({ blocked: false, decision: null, permission: { list: "allow" } })
      })
    )
  })

  it.effect("an allow is no objection: never an allow answer, never over a hook's deny or ask", () => {
    const h = scoped(
      { [PROJECT]: settings({ PreToolUse: [group("Bash", cmd("deny"))] }, { permissions: { allow: ["Bash(rm:*)", "Bash"] } }) },
      (command) => permission(command, `${command} says so`)
    )
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUse", bash("rm x")), (outcome) => {
        expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "deny says so" })
        expect(h.spawner.requests).toHaveLength(1)
      })
    )
  })

  it.effect("an ask rule joins the hooks: a hook's deny still wins, a hook's allow does not lift the ask", () => {
    const h = scoped(
      {
        [PROJECT]: settings(
          { PreToolUse: [group("Bash", cmd("allow"))], PermissionRequest: [group("Bash", cmd("noop"))] },
          { permissions: { ask: ["Bash(npm publish:*)"] } }
        )
      },
      (command) => (command === "allow" ? permission("allow", "fine") : {})
    )
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        const outcome = yield* engine.dispatch("PreToolUse", bash("npm publish"))
        expect(outcome).toMatchObject({ blocked: false, decision: "ask" })
        expect(outcome.hooks.map((hook) => hook.decision)).toEqual(["allow"])
        // PermissionRequest: the agent is asking already; the ask rule is no objection there
        const request = yield* engine.dispatch("PermissionRequest", bash("npm publish"))
        expect(request).toMatchObject({ blocked: false, decision: null })
      })
    )
  })

  it.effect("PermissionRequest: a deny rule denies; events other than the tool call's are not judged", () => {
    const h = scoped({ [PROJECT]: { permissions: { deny: ["Bash(rm:*)"] } } })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        expect(yield* engine.dispatch("PermissionRequest", bash("rm x"))).toMatchObject({ blocked: true, decision: "deny" })
        expect(yield* engine.dispatch("PostToolUse", bash("rm x"))).toMatchObject({ blocked: false, decision: null })
        expect(yield* engine.dispatch("UserPromptSubmit", { prompt: "rm x" })).toMatchObject({ blocked: false })
      })
    )
  })

  it.effect("extends: the recommended set's rules deny, except leaves one out, each rule names its set and id", () => {
    const h = scoped({
      [USER]: { extends: ["agent-hooks:recommended"] },
      [PROJECT]: { extends: [{ name: "agent-hooks:recommended", except: ["git-force-push"] }] }
    })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        const outcome = yield* engine.dispatch("PreToolUse", bash("rm -rf /"))
        expect(outcome).toMatchObject({ blocked: true, permission: { from: "agent-hooks:recommended#rm-root", path: "extends[0]" } })
        expect(outcome.reason).toContain("agent-hooks:recommended#rm-root")
        // the user's file keeps the rule the project left out
        expect((yield* engine.dispatch("PreToolUse", bash("git push --force"))).permission).toMatchObject({ scope: "user" })
      })
    )
  })

  it.effect("bad rules are said with the file, the JSON path and what was expected; the good ones still hold", () => {
    const h = scoped({
      [PROJECT]: {
        permissions: { deny: ["Bash(rm -rf:*)", "bash(ls)", 42, "Bash(unclosed"], allow: "Bash", mode: "x" },
        extends: ["agent-hooks:recomended", { name: "agent-hooks:recommended", except: ["no-such-id"] }]
      }
    })
    return Effect.gen(function* () {
      const plan = yield* Plan.make({ projectDir: "/project", env: { HOME: "/home/user" }, managedDir: "/managed" }).pipe(
        Effect.provide(h.files)
      )
      const lines = plan.settings.warnings.join("\n")
      expect(lines).toContain(`${PROJECT} at permissions.deny[1]:`)
      expect(lines).toContain(
        `${PROJECT} at permissions.deny[2]: expected a permission rule (a string such as "Bash(rm -rf:*)"), got number 42; ignored`
      )
      expect(lines).toContain(`${PROJECT} at permissions.deny[3]:`)
      expect(lines).toContain(`${PROJECT} at permissions.allow: expected an array of permission rules`)
      expect(lines).toContain(`${PROJECT} at permissions.mode: unknown key`)
      expect(lines).toContain(
        `${PROJECT} at extends[0]: unknown rule set "agent-hooks:recomended" (did you mean "agent-hooks:recommended"?)`
      )
      expect(lines).toContain(`${PROJECT} at extends[1].except[0]: "agent-hooks:recommended" has no rule "no-such-id"`)
      expect(plan.settings.errors.length).toBe(5)
      expect(plan.permissions?.rules.map(({ entry }) => entry.rule)).toContain("Bash(rm -rf:*)")
      // strict mode fails the load on them
      const strict = yield* Effect.exit(
        Plan.make({ projectDir: "/project", env: { HOME: "/home/user" }, managedDir: "/managed", strict: true }).pipe(
          Effect.provide(h.files)
        )
      )
      expect(Exit.isFailure(strict)).toBe(true)
    })
  })

  it.effect("with the runtime's realpath, a path rule judges the file a link leads to (Read tool and shell alike)", () => {
    const links: Record<string, string> = { "/project/notes.txt": "/project/.env", "/project": "/project" }
    const h = scoped({ [PROJECT]: { permissions: { deny: ["Read(./.env)"] } } }, () => ({}), {
      realpath: (path: string) => links[path] ?? (path.startsWith("/project") ? path : undefined)
    })
    return withEngine(h, (engine) =>
      Effect.gen(function* () {
        const read = yield* engine.dispatch("PreToolUse", {
          tool_name: "Read",
          tool_input: { file_path: "/project/notes.txt" },
          cwd: "/project"
        })
        expect(read).toMatchObject({ blocked: true, permission: { rule: "Read(./.env)" } })
        const cat = yield* engine.dispatch("PreToolUse", { ...bash("cat notes.txt"), cwd: "/project" })
        expect(cat.blocked).toBe(true)
        const other = yield* engine.dispatch("PreToolUse", {
          tool_name: "Read",
          tool_input: { file_path: "/project/README.md" },
          cwd: "/project"
        })
        expect(other.blocked).toBe(false)
      })
    )
  })

  it.effect("a plugin cannot bring permission rules", () => {
    const h = harness({ "/plugin/hooks/hooks.json": { permissions: { deny: ["Bash"] } } }, () => ({}), {
      settings: [],
      plugins: ["/plugin"]
    })
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUse", bash("ls")), (outcome) => {
        expect(outcome.blocked).toBe(false)
      })
    )
  })
})
