/**
 * Permission rules as policy: `judge` says whether a rule certainly matches a tool call, does
 * not, or cannot tell (the `if` filter's `matches` folds the last into "matches"). Shell commands
 * are judged on what they run (`commandModel.ts`): every program, options in any order and
 * spelling, paths normalized, files named by readers, writers and redirections.
 */
import type { JudgeContext, Judgment, PermissionRule, ToolCall } from "../PermissionRule.ts"
import type { Word } from "../ShellLexer.ts"
import picomatch from "picomatch"
import { type Analysis, analyze, type FileAccess, type Invocation, normalizePath, resolvePath } from "./commandModel.ts"
import {
  EDIT_TOOLS,
  globRegex,
  judge as judgeShellText,
  pathGlobs,
  pathOf,
  READ_TOOLS,
  SHELL_TOOLS,
  type TextPattern,
  textPattern,
  toolCovers
} from "./permissionRule.ts"

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/** Long options (and upper-case short ones) that mean a short option, per program. */
const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rm: { "--recursive": "r", R: "r", "--force": "f", "--dir": "d", "--verbose": "v", "--interactive": "i" },
  cp: { "--recursive": "r", R: "r", "--force": "f", "--archive": "a" },
  mv: { "--force": "f" },
  chmod: { "--recursive": "R" },
  chown: { "--recursive": "R" },
  chgrp: { "--recursive": "R" },
  git: { "--force": "f", "--delete": "d", "--hard": "--hard", "--all": "--all" },
  shred: { "--remove": "u", "--force": "f", "--zero": "z" },
  rsync: { "--recursive": "r", "--archive": "a" }
}

/** The canonical spellings of an option word: `-rf` is `r` and `f`, `--recursive` (rm) is `r`. */
const optionKeys = (program: string, word: string): Array<string> => {
  const aliases = ALIASES[program] ?? {}
  if (word.startsWith("--")) {
    let name = word.includes("=") ? word.slice(0, word.indexOf("=")) : word
    // getopt_long and git take an unambiguous prefix of a long option (`--recur` is `--recursive`)
    const longs = Object.keys(aliases).filter((long) => long.startsWith("--") && long.startsWith(name))
    if (name.length >= 4 && longs.length === 1) name = longs[0]!
    const alias = aliases[name]
    return word.includes("=") ? [alias ?? name, word] : [alias ?? name]
  }
  if (/^-[A-Za-z0-9]+$/.test(word)) return [...word.slice(1)].map((c) => aliases[c] ?? c)
  return [word]
}

// ---------------------------------------------------------------------------------------------
// Shell rules
// ---------------------------------------------------------------------------------------------

interface ShellSpec {
  readonly pattern: TextPattern
  /** The rule's words when it is a plain command with at most a trailing wildcard. */
  readonly words: ReadonlyArray<string> | undefined
  /** Ends in ` *` or `:*`: more arguments may follow. */
  readonly open: boolean
}

const dequote = (word: string): string => word.replace(/^'(.*)'$/s, "$1").replace(/^"(.*)"$/s, "$1")

const shellSpec = (specifier: string, ignoreCase: boolean): ShellSpec => {
  const pattern = textPattern(specifier, { shell: true, ignoreCase })
  let body = specifier.replace(/\s+/g, " ").trim()
  let open = false
  if (body.endsWith(":*")) {
    open = true
    body = body.slice(0, -2).trimEnd()
  } else if (body.endsWith(" *")) {
    open = true
    body = body.slice(0, -2).trimEnd()
  }
  const plain = !/(?<!\\)\*/.test(body) && body !== ""
  return { pattern, words: plain ? body.split(" ").map(dequote) : undefined, open }
}

type Verdict = { readonly match: true } | { readonly match: false } | { readonly match: "could"; readonly why: string }
const NO: Verdict = { match: false }
const YES: Verdict = { match: true }

const looksLikePath = (text: string): boolean => text.startsWith("/") || text.startsWith("~") || text.startsWith(".") || text.includes("/")

/** Whether a command's operand names the rule's operand (paths compared normalized; a glob covering it counts). */
const operandMatches = (rule: string, word: Word, inv: Invocation, ctx: JudgeContext): boolean | "could" => {
  if (word.dynamic) return "could"
  if (word.text === rule) return true
  if (!(looksLikePath(rule) || looksLikePath(word.text))) return false
  const base = inv.cwd ?? ctx.cwd
  const r = resolvePath(rule, ctx.cwd, ctx.home)
  const resolved = resolvePath(word.text, base, ctx.home)
  if (r === undefined || resolved === undefined) return "could"
  // symlinks resolved where the path exists (the directory a cd moved to already is)
  const w = realPathOf(resolved, ctx)
  if (r === w || r === resolved) return true
  if (/[*?[]/.test(word.raw.replace(/'[^']*'|"[^"]*"|\\./g, ""))) {
    // a glob: `/*` (a bare wildcard) stands for everything in `/`; `/*.log` only for some files there
    const at = w.search(/\/[^/]*[*?[]/)
    const rest = w.slice(at + 1)
    const dir = w.slice(0, at) || "/"
    if (!rest.includes("/") && !/[A-Za-z0-9_-]/.test(rest.replace(/\[[^\]]*\]/g, "")) && normalizePath(dir) === r) return true
    if (picomatch.isMatch(r, w, { dot: false })) return true
  }
  return false
}

/** An invocation's words as one text, made once per invocation (every rule of a policy tests it). */
const texts = new WeakMap<Invocation, string>()
const textOf = (inv: Invocation): string => {
  let text = texts.get(inv)
  if (text === undefined) texts.set(inv, (text = [inv.program, ...inv.args.map((a) => a.text)].join(" ")))
  return text
}

/** Whether an invocation runs what a rule's words name. */
const matchInvocation = (spec: ShellSpec, inv: Invocation, ctx: JudgeContext): Verdict => {
  const text = textOf(inv)
  if (spec.pattern.regex.test(text) && !inv.openTail) return YES
  const words = spec.words
  if (words === undefined || words.length === 0) {
    if (inv.openTail && spec.pattern.regex.test(text)) return { match: "could", why: "xargs adds arguments from its input" }
    return NO
  }
  const ruleProgram = words[0]!.slice(words[0]!.lastIndexOf("/") + 1)
  if (ruleProgram !== inv.program) return NO
  const ruleOptions: Array<string> = []
  const ruleOperands: Array<string> = []
  let ended = false
  for (const w of words.slice(1)) {
    if (!ended && w === "--") ended = true
    else if (!ended && w.length > 1 && w.startsWith("-")) ruleOptions.push(...optionKeys(inv.program, w))
    else ruleOperands.push(w)
  }
  const options = new Set<string>()
  const operands: Array<Word> = []
  let unknown = inv.openTail
  let dashdash = false
  for (const a of inv.args) {
    if (a.dynamic) unknown = true
    if (!dashdash && a.text === "--") {
      dashdash = true
      continue
    }
    if (!dashdash && !a.dynamic && a.text.length > 1 && a.text.startsWith("-")) {
      for (const key of optionKeys(inv.program, a.text)) options.add(key)
    } else {
      operands.push(a)
    }
  }
  let could: string | undefined
  for (const o of ruleOptions) {
    if (!options.has(o)) {
      if (!unknown) return NO
      could = "some of its arguments are only known at run time"
    }
  }
  for (let k = 0; k < ruleOperands.length; k++) {
    const word = operands[k]
    if (word === undefined) {
      if (!unknown) return NO
      could = inv.openTail ? "xargs adds arguments from its input" : "some of its arguments are only known at run time"
      continue
    }
    const m = operandMatches(ruleOperands[k]!, word, inv, ctx)
    if (m === false) return NO
    if (m === "could") could = `\`${word.raw}\` is only known at run time`
  }
  // an exact rule names all the operands (rm-like programs are judged once per operand: `perOperand`)
  if (!spec.open && operands.length > ruleOperands.length && !unknown) return NO
  if (!spec.open && inv.openTail) could ??= "xargs adds arguments from its input"
  return could === undefined ? YES : { match: "could", why: could }
}

/** Programs whose every operand is acted on alone: `rm -rf /tmp/x /` removes `/` as `rm -rf /` does. */
const PER_OPERAND = new Set(["rm", "rmdir", "shred", "unlink", "trash", "trash-put"])

/** An rm-like invocation split into one per operand (`rm -rf a b` = `rm -rf a` + `rm -rf b`). */
const perOperand = (inv: Invocation): ReadonlyArray<Invocation> => {
  if (!PER_OPERAND.has(inv.program)) return [inv]
  const options = inv.args.filter((a) => a.text.startsWith("-") && a.text.length > 1 && !a.dynamic)
  const operands = inv.args.filter((a) => !(a.text.startsWith("-") && a.text.length > 1 && !a.dynamic))
  if (operands.length <= 1) return [inv]
  return [inv, ...operands.map((o) => ({ ...inv, args: [...options, o] }))]
}

const quoteCode = (text: string): string => `\`${text.length > 120 ? `${text.slice(0, 117)}...` : text}\``

/** Generic ways inline code runs a program (`os.system`, `child_process`, `exec`). */
/** @internal */
export const RUNS_PROGRAMS = /\b(?:system|exec\w*|spawn\w*|popen|subprocess|child_process|Command|Process|shell_exec|passthru|eval|`)/

const judgeShellAnalysis = (spec: ShellSpec, analysis: Analysis, ctx: JudgeContext): Judgment => {
  let could: string | undefined
  for (const inv of analysis.invocations) {
    for (const one of perOperand(inv)) {
      const v = matchInvocation(spec, one, ctx)
      if (v.match === true) {
        const runs = [one.program, ...one.args.map((a) => a.raw)].join(" ")
        return {
          match: true,
          reason: runs === inv.source ? `runs ${quoteCode(runs)}` : `runs ${quoteCode(runs)} (in ${quoteCode(inv.source)})`
        }
      }
      if (v.match === "could") could ??= `may run what the rule names: ${v.why} (${quoteCode(inv.source)})`
    }
  }
  const program = spec.words?.[0]
  for (const u of analysis.unjudgeable) {
    if (u.program !== undefined && program !== undefined && u.program !== program) continue
    if (u.code !== undefined) {
      const names =
        program === undefined
          ? undefined
          : new RegExp(`(?:^|[^A-Za-z0-9_-])${program.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:$|[^A-Za-z0-9_-])`)
      if (!(names?.test(u.code) || RUNS_PROGRAMS.test(u.code))) continue
    }
    could ??= `${u.reason} (${quoteCode(u.source)})`
  }
  return could === undefined ? { match: false } : { match: "unjudgeable", reason: could }
}

// ---------------------------------------------------------------------------------------------
// Path rules, on file tools and on the files a shell command names
// ---------------------------------------------------------------------------------------------

type PathTest = (path: string) => boolean

/**
 * The compiled globs of a path rule, kept for the last few sessions' directories: compiling them
 * (picomatch, then RE2) costs about a millisecond, judging a path with them microseconds, and a
 * policy judges every path rule on every call.
 */
const pathTests = new Map<string, PathTest | undefined>()

/** The compiled globs of the last session's directories, by specifier: no key to build for the common case. */
let lastDirs: { cwd: string; projectDir: string; home: string | undefined; tests: Map<string, PathTest | undefined> } | undefined

const pathTest = (specifier: string, ctx: JudgeContext, nocase: boolean): PathTest | undefined => {
  if (lastDirs === undefined || lastDirs.cwd !== ctx.cwd || lastDirs.projectDir !== ctx.projectDir || lastDirs.home !== ctx.home)
    lastDirs = { cwd: ctx.cwd, projectDir: ctx.projectDir, home: ctx.home, tests: new Map() }
  const near = lastDirs.tests
  const short = nocase ? `i${specifier}` : `s${specifier}`
  if (near.has(short)) return near.get(short)
  const test = compiledPathTest(specifier, ctx, nocase)
  if (near.size < 512) near.set(short, test)
  return test
}

const compiledPathTest = (specifier: string, ctx: JudgeContext, nocase: boolean): PathTest | undefined => {
  const key = `${nocase ? 1 : 0}\0${ctx.cwd}\0${ctx.projectDir}\0${ctx.home ?? "\u0001"}\0${specifier}`
  if (pathTests.has(key)) return pathTests.get(key)
  const globs = pathGlobs(specifier, ctx)
  const test = globs === undefined ? undefined : globRegex(globs, nocase)
  if (pathTests.size >= 512) pathTests.delete(pathTests.keys().next().value!)
  pathTests.set(key, test)
  return test
}

/** A concrete path standing for a glob (`*` → `x`), to test a glob operand against a rule. */
const sample = (glob: string): string =>
  glob
    .replace(/\*\*\//g, "")
    .replace(/\*\*/g, "x")
    .replace(/\*/g, "x")
    .replace(/\?/g, "x")
    .replace(/\[\^?([^\]])[^\]]*\]/g, "$1")
    .replace(/\{([^,}]*)[^}]*\}/g, "$1")
    .replace(/\\(.)/g, "$1")

const fileMatches = (specifier: string, file: FileAccess, ctx: JudgeContext): boolean | "could" => {
  if (file.path === undefined) return file.substituted ? "could" : false
  const test = pathTest(specifier, ctx, /^[A-Za-z]:\//.test(file.path))
  if (test === undefined) return "could"
  if (test(file.path)) return true
  if (!file.glob) return false
  // a bare wildcard (`rm -rf build/*`) may or may not expand to the file: only the run tells
  if (!/[A-Za-z0-9_]/.test(file.path.slice(file.path.lastIndexOf("/") + 1).replace(/\[[^\]]*\]/g, ""))) {
    const globs = pathGlobs(specifier, ctx) ?? []
    const dir = file.path.slice(0, file.path.lastIndexOf("/")) || "/"
    return globs.some((g) =>
      picomatch.isMatch(g.startsWith("/**/") ? `${dir}/${sample(g.slice(4))}` : sample(g), file.path!, { dot: false, windows: false })
    )
      ? "could"
      : false
  }
  // a glob operand (`cat .en*`): does it cover a file the rule names? (the shell's `*` skips dot files)
  if ((file.path.match(/[*?[]/g)?.length ?? 0) > 8) return "could" // bounded backtracking
  const globs = pathGlobs(specifier, ctx) ?? []
  const dir = file.path.slice(0, file.path.lastIndexOf("/")) || "/"
  for (const g of globs) {
    const concrete = g.startsWith("/**/") ? `${dir}/${sample(g.slice(4))}` : sample(g)
    if (picomatch.isMatch(concrete, file.path, { dot: false, windows: false })) return true
  }
  return false
}

const judgePathOnShell = (rule: PermissionRule, analysis: Analysis, ctx: JudgeContext): Judgment => {
  const reads = rule.toolName === "Read" || READ_TOOLS.includes(rule.toolName)
  let could: string | undefined
  for (const file of analysis.files) {
    if (!reads && file.access === "read") continue
    const m = fileMatches(rule.specifier!, file, ctx)
    if (m === false) continue
    const what =
      file.program === ""
        ? `${file.access === "read" ? "reads" : "writes"} ${quoteCode(file.raw)} by a redirection`
        : `${file.program} names ${quoteCode(file.raw)}`
    if (m === true && (reads || file.access === "write")) {
      return {
        match: true,
        reason: `${what}${file.path !== undefined && file.path !== file.raw ? ` (${file.path})` : ""} in ${quoteCode(file.source)}`
      }
    }
    could ??=
      m === "could"
        ? `${what}, a path computed at run time, in ${quoteCode(file.source)}`
        : `${what}; whether ${file.program} changes it is not known, in ${quoteCode(file.source)}`
  }
  for (const u of analysis.unjudgeable) {
    if (u.code !== undefined && !/open|read|write|cat|file|fs\.|path|\.env|ssh|key|pem/i.test(u.code)) continue
    if (u.code === undefined && u.program !== undefined) continue
    could ??= `${u.reason} (${quoteCode(u.source)})`
  }
  return could === undefined ? { match: false } : { match: "unjudgeable", reason: could }
}

const judgePathTool = (rule: PermissionRule, call: ToolCall, ctx: JudgeContext): Judgment => {
  const raw = pathOf(call.toolName, call.toolInput, ctx.cwd)
  if (raw === undefined) return { match: "unjudgeable", reason: `the ${call.toolName} call names no path` }
  const resolved = resolvePath(raw, ctx.cwd, ctx.home)
  if (resolved === undefined) return { match: "unjudgeable", reason: `the path ${JSON.stringify(raw)} cannot be resolved` }
  const path = realPathOf(resolved, ctx)
  const test = pathTest(rule.specifier!, ctx, /^[A-Za-z]:\//.test(path))
  if (test === undefined) return { match: "unjudgeable", reason: `${rule.source} cannot be resolved (no home directory)` }
  if (test(path) || test(resolved))
    return { match: true, reason: `${call.toolName} of ${JSON.stringify(raw)}${path !== raw ? ` (${path})` : ""}` }
  return { match: false }
}

const realPathOf = (path: string, ctx: JudgeContext): string => {
  if (ctx.realpath === undefined) return path
  const segments = path.split("/")
  for (let n = segments.length; n > 1; n--) {
    let resolved: string | undefined
    try {
      resolved = ctx.realpath(segments.slice(0, n).join("/") || "/")
    } catch {
      resolved = undefined
    }
    if (resolved !== undefined) return normalizePath([resolved, ...segments.slice(n)].join("/"))
  }
  return path
}

// ---------------------------------------------------------------------------------------------
// judge / allows
// ---------------------------------------------------------------------------------------------

const specs = new Map<string, ShellSpec>()
/** By the rule itself first: a policy's rules are parsed once and judged on every call. */
const specsOfRules = new WeakMap<PermissionRule, ShellSpec>()
const specOf = (rule: PermissionRule): ShellSpec => {
  const known = specsOfRules.get(rule)
  if (known !== undefined) return known
  const key = `${rule.toolName}\0${rule.specifier}`
  let spec = specs.get(key)
  if (spec === undefined) {
    spec = shellSpec(rule.specifier!, rule.toolName === "PowerShell")
    if (specs.size >= 512) specs.delete(specs.keys().next().value!)
    specs.set(key, spec)
  }
  specsOfRules.set(rule, spec)
  return spec
}

const commandOf = (input: unknown): string | undefined => {
  if (typeof input !== "object" || input === null) return undefined
  const command = (input as Record<string, unknown>).command
  return typeof command === "string" ? command : undefined
}

const PATH_RULE_TOOLS = new Set([...EDIT_TOOLS, ...READ_TOOLS])

/** The analysis of the last few commands (a policy judges one call against many rules). */
const analyses = new Map<string, Analysis>()
/** The last command's analysis, told apart by its fields (no key to build: a policy asks once per rule). */
let last:
  | {
      readonly command: string
      readonly cwd: string
      readonly projectDir: string
      readonly home: string | undefined
      readonly realpath: JudgeContext["realpath"]
      readonly analysis: Analysis
    }
  | undefined
/** @internal */
export const analysisOf = (command: string, ctx: JudgeContext): Analysis => {
  // (with a realpath, only the same function: a policy makes one per call, so the file system is asked again on the next)
  if (
    last !== undefined &&
    last.realpath === ctx.realpath &&
    last.command === command &&
    last.cwd === ctx.cwd &&
    last.projectDir === ctx.projectDir &&
    last.home === ctx.home
  )
    return last.analysis
  const key = `${ctx.cwd}\0${ctx.projectDir}\0${ctx.home ?? ""}\0${ctx.realpath === undefined ? 0 : 1}\0${command}`
  let analysis = ctx.realpath === undefined ? analyses.get(key) : undefined
  if (analysis === undefined) {
    analysis = analyze(command, ctx)
    if (ctx.realpath === undefined) {
      if (analyses.size >= 32) analyses.delete(analyses.keys().next().value!)
      analyses.set(key, analysis)
    }
  }
  last = { command, cwd: ctx.cwd, projectDir: ctx.projectDir, home: ctx.home, realpath: ctx.realpath, analysis }
  return analysis
}

/** @internal */
export const judge = (rule: PermissionRule, call: ToolCall, ctx: JudgeContext): Judgment => {
  const { toolName, toolInput } = call
  const shellCall = Object.hasOwn(SHELL_TOOLS, toolName)
  // a path rule (Read/Edit/Write…) also judges the files a shell command names
  if (shellCall && rule.kind === "path" && PATH_RULE_TOOLS.has(rule.toolName) && toolName === "Bash") {
    const command = commandOf(toolInput)
    if (command === undefined) return { match: "unjudgeable", reason: "the Bash call has no command" }
    return judgePathOnShell(rule, analysisOf(command, ctx), ctx)
  }
  if (!toolCovers(rule.toolName)(toolName)) return { match: false }
  switch (rule.kind) {
    case "tool":
      return { match: true, reason: `a ${toolName} call` }
    case "opaque":
      return { match: "unjudgeable", reason: `the specifier of ${rule.source} is not evaluated for ${toolName}` }
    case "path":
      return judgePathTool(rule, call, ctx)
    case "shell": {
      const command = commandOf(toolInput)
      if (command === undefined) return { match: "unjudgeable", reason: `the ${toolName} call has no command` }
      if (toolName !== "Bash") {
        const judged = judgeShellText(specOf(rule).pattern, SHELL_TOOLS[toolName]!, command, 0)
        return judged === false
          ? { match: false }
          : { match: "unjudgeable", reason: `${toolName} commands are matched as text (${quoteCode(command)})` }
      }
      return judgeShellAnalysis(specOf(rule), analysisOf(command, ctx), ctx)
    }
    default: {
      // domain and text rules are exact when the field is present
      if (!rule.test(toolName, toolInput, ctx)) return { match: false }
      return { match: true, reason: `a ${toolName} call` }
    }
  }
}

/** Wrappers that change nothing an allow rule is about (`timeout 60 npm test` is `npm test`). */
const TRANSPARENT = new Set(["timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "ionice", "chrt", "taskset"])

/** @internal */
export const allows = (rules: ReadonlyArray<PermissionRule>, call: ToolCall, ctx: JudgeContext): boolean => {
  const command = call.toolName === "Bash" ? commandOf(call.toolInput) : undefined
  if (call.toolName !== "Bash" || command === undefined) {
    return rules.some((rule) => judge(rule, call, ctx).match === true)
  }
  const shellRules = rules.filter((rule) => rule.kind === "shell" || rule.kind === "tool")
  if (rules.some((rule) => rule.kind === "tool" && rule.test(call.toolName, call.toolInput, ctx))) return true
  const analysis = analysisOf(command, ctx)
  if (analysis.unjudgeable.length > 0) return false
  const covered = (inv: Invocation): boolean => {
    if (shellRules.some((rule) => rule.kind === "shell" && matchInvocation(specOf(rule), inv, ctx).match === true)) return true
    const children = analysis.invocations.filter((child) => child.parent === inv.id)
    return (
      (TRANSPARENT.has(inv.program) || (inv.program === "env" && !inv.args.some((a) => /^-S|^--split/.test(a.text)))) &&
      children.length > 0 &&
      children.every(covered)
    )
  }
  const top = analysis.invocations.filter((inv) => inv.parent === undefined)
  return top.length > 0 && top.every(covered)
}
