import type { JudgeContext, Judgment, ToolCall } from "../PermissionRule.ts"
import type { RecommendedRule } from "../Recommended.ts"
import type { Word } from "../ShellLexer.ts"
import { type Analysis, DOWNLOADERS, type FileAccess, type Invocation, normalizePath, resolvePath } from "./commandModel.ts"
import { parse } from "./permissionRule.ts"
import picomatch from "picomatch"
import { analysisOf, RUNS_PROGRAMS } from "./ruleJudge.ts"

// ---------------------------------------------------------------------------------------------
// Helpers over the command model
// ---------------------------------------------------------------------------------------------

const NO: Judgment = { match: false }
const quote = (text: string): string => `\`${text.length > 120 ? `${text.slice(0, 117)}...` : text}\``

const commandOf = (call: ToolCall): string | undefined => {
  if (call.toolName !== "Bash" || typeof call.toolInput !== "object" || call.toolInput === null) return undefined
  const command = (call.toolInput as Record<string, unknown>).command
  return typeof command === "string" ? command : undefined
}

/** Runs `check` on the analysis of a Bash call; other tools are not shell commands. */
const onShell =
  (check: (analysis: Analysis, ctx: JudgeContext) => Judgment) =>
  (call: ToolCall, ctx: JudgeContext): Judgment => {
    const command = commandOf(call)
    return command === undefined ? NO : check(analysisOf(command, ctx), ctx)
  }

const isOption = (w: Word): boolean => !w.dynamic && w.text.length > 1 && w.text.startsWith("-")

/** The short letters and long names of an invocation's options (`-rf` → r, f; `--force` → --force). */
/** Long options the rules look for: getopt_long and git accept any unambiguous prefix (`--forc`, `--recur`). */
const LONG_OPTIONS = [
  "--dry-run",
  "--recursive",
  "--force",
  "--force-with-lease",
  "--force-if-includes",
  "--mirror",
  "--delete",
  "--prune",
  "--hard",
  "--list"
]

const optionSet = (inv: Invocation): Set<string> => {
  const out = new Set<string>()
  for (const a of inv.args) {
    if (!isOption(a)) continue
    if (a.text === "--") break
    if (a.text.startsWith("--")) {
      const name = a.text.includes("=") ? a.text.slice(0, a.text.indexOf("=")) : a.text
      out.add(name)
      // a prefix of several options may mean any of them: each counts (`--force-w` is a force either way)
      if (name.length >= 4) for (const long of LONG_OPTIONS) if (long.startsWith(name)) out.add(long)
    } else for (const c of a.text.slice(1)) out.add(c)
  }
  return out
}

const operandsOf = (inv: Invocation): Array<Word> => {
  const out: Array<Word> = []
  let ended = false
  for (const a of inv.args) {
    if (!ended && a.text === "--" && !a.dynamic) {
      ended = true
      continue
    }
    if (ended || !isOption(a)) out.push(a)
  }
  return out
}

const unquotedGlob = (raw: string): boolean => /[*?[]/.test(raw.replace(/\\.|'[^']*'|"(?:[^"\\]|\\.)*"/g, ""))

/** System directories whose recursive removal or permission change breaks the machine. */
const SYSTEM_DIRS = new Set(
  [
    "/",
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/Users",
    "/System",
    "/Library",
    "/Applications",
    "/private",
    "/usr/bin",
    "/usr/lib",
    "/usr/local",
    "/usr/share",
    "/var/lib"
  ].map((p) => p)
)

type Target = "root" | "home" | "project"

/** Whether `dir` is `path` or contains it. */
const contains = (dir: string, path: string): boolean => path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`)

/**
 * What a removal of `path` (recursive) destroys: `/` and the system directories, the home directory
 * (or a directory holding it), the project root (or a directory holding it). A glob whose directory
 * is one of those (`/*`, `~/*`, `*` at the project root) counts as that directory.
 */
const protectedTarget = (path: string, glob: boolean, ctx: JudgeContext): Target | undefined => {
  let p = path
  if (glob && !/[*?[]/.test(path.slice(0, path.lastIndexOf("/")))) {
    // `/h*`, `~/p*`: a glob in the last segment that matches a protected directory removes it
    const home = ctx.home === undefined ? undefined : normalizePath(ctx.home)
    const project = normalizePath(ctx.projectDir)
    const ancestors = (dir: string) => dir.split("/").map((_, k, all) => all.slice(0, k + 1).join("/") || "/")
    const candidates: Array<[string, Target]> = [
      ...[...SYSTEM_DIRS].map((d) => [d, "root"] as [string, Target]),
      ...(home === undefined ? [] : ancestors(home).map((d) => [d, "home"] as [string, Target])),
      ...ancestors(project).map((d) => [d, "project"] as [string, Target])
    ]
    for (const [dir, target] of candidates) {
      if (dir !== "/" && picomatch.isMatch(dir, path, { dot: false, windows: false })) return SYSTEM_DIRS.has(dir) ? "root" : target
    }
  }
  if (glob) {
    // the directory part before the first segment with a wildcard: `/*` → `/`, `/home/u/.*` → `/home/u`
    const at = p.search(/\/[^/]*[*?[]/)
    if (at < 0) return undefined
    const rest = p.slice(at + 1)
    // `/*/foo`, `*.pyc`: some files below, not the directory; `*`, `.*`, `.[!.]*` are all of it
    if (rest.includes("/") || /[A-Za-z0-9_-]/.test(rest.replace(/\[[^\]]*\]/g, ""))) return undefined
    p = p.slice(0, at) || "/"
  }
  p = normalizePath(p)
  if (SYSTEM_DIRS.has(p)) return "root"
  if (ctx.home !== undefined && contains(p, normalizePath(ctx.home))) return "home"
  if (contains(p, normalizePath(ctx.projectDir))) return "project"
  return undefined
}

/** A path operand: its absolute path (`undefined` when only the run tells), and whether it is a glob. */
const operandPath = (
  word: Word,
  inv: Invocation,
  ctx: JudgeContext
): { readonly path: string | undefined; readonly glob: boolean; readonly unknownTail: boolean } => {
  const glob = unquotedGlob(word.raw)
  if (word.dynamic) {
    // `"$TMPDIR/build"`: an unknown prefix followed by a literal segment cannot be `/`, home or the project
    const tail = /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?["']?\/+["']?([^/*?[\s$`"']+)\/?["']?$/.exec(word.raw)
    return { path: undefined, glob, unknownTail: tail === null }
  }
  if (inv.cwd === undefined && !word.text.startsWith("/") && !word.text.startsWith("~")) return { path: undefined, glob, unknownTail: true }
  const path = resolvePath(word.text, inv.cwd ?? ctx.cwd, ctx.home)
  if (path === undefined) return { path: undefined, glob, unknownTail: true }
  return { path: realPath(path, ctx), glob, unknownTail: false }
}

const realPath = (path: string, ctx: JudgeContext): string => {
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

const TARGET_WORDS: Readonly<Record<Target, string>> = {
  root: "`/` or a system directory",
  home: "the home directory",
  project: "the project root"
}

/** Recursive removals of a protected target (`rm -r`, `find -delete`, `rm` through wrappers and `sh -c`). */
const recursiveDelete = (target: Target) =>
  onShell((analysis, ctx) => {
    let could: string | undefined
    for (const inv of analysis.invocations) {
      if (!/^(?:rm|trash|trash-put|gio)$/.test(inv.program)) continue
      const options = optionSet(inv)
      const recursive = options.has("r") || options.has("R") || options.has("--recursive") || inv.program !== "rm"
      if (!recursive) continue
      const operands = operandsOf(inv)
      if (operands.length === 0 && inv.openTail) {
        could ??= `xargs gives ${inv.program} paths from its input (${quote(inv.source)})`
        continue
      }
      for (const word of operands) {
        const { path, glob, unknownTail } = operandPath(word, inv, ctx)
        if (path === undefined) {
          if (unknownTail) could ??= `${quote(word.raw)} is only known at run time (${quote(inv.source)})`
          continue
        }
        if (protectedTarget(path, glob, ctx) === target) {
          return {
            match: true,
            reason: `removes ${TARGET_WORDS[target]} (${path}${glob ? ` via ${word.raw}` : ""}) in ${quote(inv.source)}`
          }
        }
      }
      if (inv.openTail) could ??= `xargs adds paths from its input (${quote(inv.source)})`
    }
    return could === undefined ? NO : { match: "unjudgeable", reason: could }
  })

// ---------------------------------------------------------------------------------------------
// git
// ---------------------------------------------------------------------------------------------

const gitSub = (inv: Invocation, sub: string): boolean => inv.program === "git" && operandsOf(inv)[0]?.text === sub

/** `$(git branch --show-current)` and the like: a branch name, never an option or a `+refspec`. */
const BRANCH_SUBSTITUTION = /^["']?\$\((?:git (?:branch --show-current|rev-parse --abbrev-ref HEAD|symbolic-ref --short HEAD))\)["']?$/

const gitPush = (check: (inv: Invocation, options: Set<string>, operands: ReadonlyArray<Word>) => string | undefined) =>
  onShell((analysis) => {
    let could: string | undefined
    for (const inv of analysis.invocations) {
      if (!gitSub(inv, "push")) continue
      const options = optionSet(inv)
      // `--dry-run` / `-n` changes nothing on the remote
      if (options.has("--dry-run") || options.has("n")) continue
      const operands = operandsOf(inv).slice(1)
      const found = check(inv, options, operands)
      if (found !== undefined) return { match: true, reason: `${found} in ${quote(inv.source)}` }
      const unknown = inv.args.find((a) => a.dynamic && !BRANCH_SUBSTITUTION.test(a.raw))
      if (unknown !== undefined) could ??= `git push takes ${quote(unknown.raw)}, only known at run time (${quote(inv.source)})`
      else if (inv.openTail) could ??= `xargs adds arguments to git push (${quote(inv.source)})`
    }
    return could !== undefined ? { match: "unjudgeable", reason: could } : NO
  })

const forcePush = gitPush((_inv, options, operands) => {
  for (const o of ["--force", "--force-with-lease", "--force-if-includes", "--mirror", "f"]) {
    if (options.has(o)) return `force push (${o.length === 1 ? `-${o}` : o})`
  }
  const plus = operands.find((w) => w.text.startsWith("+") || /^[^:]*:\+/.test(w.text))
  if (plus !== undefined) return `force push (the refspec ${quote(plus.text)})`
  return undefined
})

const deleteRemoteBranch = gitPush((_inv, options, operands) => {
  for (const o of ["--delete", "d", "--prune"]) {
    if (options.has(o)) return `deletes remote branches (${o.length === 1 ? `-${o}` : o})`
  }
  const colon = operands.slice(1).find((w) => w.text.startsWith(":"))
  if (colon !== undefined) return `deletes the remote branch ${quote(colon.text.slice(1))} (the refspec ${quote(colon.text)})`
  return undefined
})

/**
 * `git reset --hard` and `git clean -f` run outside the project (the worktree the agent works in):
 * after a `cd` or `git -C` to another directory, or with `--git-dir`/`--work-tree`/`GIT_DIR`/
 * `GIT_WORK_TREE` pointing git elsewhere. They discard work nobody asked the agent to touch.
 */
const discardOutsideWorktree = onShell((analysis, ctx) => {
  let could: string | undefined
  for (const inv of analysis.invocations) {
    const reset = gitSub(inv, "reset") && optionSet(inv).has("--hard")
    const clean = gitSub(inv, "clean") && optionSet(inv).has("f")
    if (!(reset || clean)) continue
    const what = reset ? "git reset --hard" : "git clean -f"
    const elsewhere = analysis.invocations.find(
      (o) =>
        (o.id === inv.parent || o.id === inv.id || o.source === inv.source) &&
        (o.args.some((a) => /^--(?:git-dir|work-tree)/.test(a.text)) || /(?:^|\s)GIT_(?:DIR|WORK_TREE)=/.test(o.source))
    )
    if (elsewhere !== undefined) return { match: true, reason: `${what} with git pointed at another repository in ${quote(inv.source)}` }
    if (inv.cwd === undefined) {
      could ??= `${what} runs in a directory only known at run time (${quote(inv.source)})`
      continue
    }
    if (!contains(normalizePath(ctx.projectDir), inv.cwd)) {
      return { match: true, reason: `${what} outside the project (in ${inv.cwd}) in ${quote(inv.source)}` }
    }
  }
  return could === undefined ? NO : { match: "unjudgeable", reason: could }
})

// ---------------------------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------------------------

const ENV_EXEMPT = /^\.env\.(?:example|sample|template)$/

/** Whether a file path is a secret of this class (`.env.example` is not). */
type SecretClass = (path: string, ctx: JudgeContext) => boolean

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1)
const underHome = (ctx: JudgeContext, sub: string, path: string): boolean =>
  ctx.home !== undefined && contains(normalizePath(`${ctx.home}/${sub}`), path)

const envFile: SecretClass = (path) => {
  const name = baseName(path)
  return (name === ".env" || name.startsWith(".env.")) && !ENV_EXEMPT.test(name)
}
const sshDir: SecretClass = (path, ctx) => underHome(ctx, ".ssh", path)
const cloudCredentials: SecretClass = (path, ctx) =>
  underHome(ctx, ".aws", path) || underHome(ctx, ".config/gcloud", path) || underHome(ctx, ".kube/config", path)
const PRIVATE_KEY = /^(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|.*\.(?:pem|key|p12|pfx))$/
const privateKey: SecretClass = (path) => PRIVATE_KEY.test(baseName(path))

/** Representative file names of each class, to test a glob operand (`cat .en*`) against. */
const SAMPLES: ReadonlyArray<[SecretClass, (dir: string, ctx: JudgeContext) => ReadonlyArray<string>]> = [
  [envFile, (dir) => [`${dir}/.env`, `${dir}/.env.local`, `${dir}/.env.production`]],
  [privateKey, (dir) => [`${dir}/id_rsa`, `${dir}/id_ed25519`, `${dir}/server.pem`, `${dir}/server.key`]],
  [sshDir, (_dir, ctx) => (ctx.home === undefined ? [] : [`${ctx.home}/.ssh/id_rsa`, `${ctx.home}/.ssh/config`])],
  [
    cloudCredentials,
    (_dir, ctx) =>
      ctx.home === undefined
        ? []
        : [`${ctx.home}/.aws/credentials`, `${ctx.home}/.config/gcloud/credentials.db`, `${ctx.home}/.kube/config`]
  ]
]

/** Words in a `$(…)` path that suggest it finds a secret. */
const SECRET_HINT = /\.env|\.ssh|id_rsa|id_ed25519|\.pem|\.key\b|\.aws|gcloud|\.kube|credentials|secret/i

const fileIsSecret = (secret: SecretClass, file: FileAccess, ctx: JudgeContext): boolean | "could" => {
  if (file.path === undefined) return file.substituted && SECRET_HINT.test(file.raw) ? "could" : false
  if (secret(file.path, ctx)) return true
  if (!file.glob) return false
  // a bare wildcard (`rm -rf build/*`) names no file in particular; `.en*`, `*.pem` do
  if (!/[A-Za-z0-9_]/.test(file.path.slice(file.path.lastIndexOf("/") + 1).replace(/\[[^\]]*\]/g, ""))) return false
  const dir = file.path.slice(0, file.path.lastIndexOf("/")) || "/"
  const samples = SAMPLES.find(([c]) => c === secret)?.[1](dir, ctx) ?? []
  if ((file.path.match(/[*?[]/g)?.length ?? 0) > 8) return "could" // bounded backtracking
  // the shell's `*` skips dot files: `cat *` does not read `.env`, `cat .en*` does
  return samples.some((sample) => picomatch.isMatch(sample, file.path!, { dot: false, windows: false }))
}

const FILE_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Grep", "Glob", "LS", "Delete"])

const secretRule =
  (secret: SecretClass, what: string) =>
  (call: ToolCall, ctx: JudgeContext): Judgment => {
    if (FILE_TOOLS.has(call.toolName)) {
      const input = (typeof call.toolInput === "object" && call.toolInput !== null ? call.toolInput : {}) as Record<string, unknown>
      for (const key of ["file_path", "notebook_path", "path"]) {
        const raw = input[key]
        if (typeof raw !== "string" || raw === "") continue
        const resolved = resolvePath(raw, ctx.cwd, ctx.home)
        if (resolved === undefined) continue
        for (const path of new Set([resolved, realPath(resolved, ctx)])) {
          if (secret(path, ctx)) return { match: true, reason: `${call.toolName} of ${what} (${path})` }
        }
      }
      return NO
    }
    const command = commandOf(call)
    if (command === undefined) return NO
    const analysis = analysisOf(command, ctx)
    let could: string | undefined
    for (const file of analysis.files) {
      const m = fileIsSecret(secret, file, ctx)
      if (m === true) {
        const by = file.program === "" ? "a redirection" : file.program
        return {
          match: true,
          reason: `${by} ${file.access === "write" ? "writes" : "reads"} ${what} (${file.path ?? file.raw}) in ${quote(file.source)}`
        }
      }
      if (m === "could") could ??= `${quote(file.raw)} is a path computed at run time (${quote(file.source)})`
    }
    for (const u of analysis.unjudgeable) {
      if (u.code !== undefined && SECRET_HINT.test(u.code)) could ??= `${u.reason}, and the code names a secret (${quote(u.source)})`
    }
    return could === undefined ? NO : { match: "unjudgeable", reason: could }
  }

// ---------------------------------------------------------------------------------------------
// Downloads into a shell, permissions, devices
// ---------------------------------------------------------------------------------------------

const INTERPRETER =
  /^(?:sh|bash|dash|zsh|ksh|ash|fish|python[0-9.]*|node|nodejs|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|bun|deno|pwsh|powershell|source|\.)$/

const downloadToShell = onShell((analysis, ctx) => {
  const download = analysis.invocations.find((inv) => DOWNLOADERS.has(inv.program))
  if (download === undefined) return NO
  // a shell or interpreter that reads its program from stdin or from a run-time file (`<(curl …)`, `"$(curl …)"`)
  const stdin = analysis.unjudgeable.find((u) => /standard input|run time/.test(u.reason) && u.code === undefined)
  if (stdin !== undefined)
    return { match: true, reason: `runs what ${download.program} downloads: ${stdin.reason} (${quote(stdin.source)})` }
  // the files the downloads were saved to (`curl -o f`, `wget -O f`, `curl … > f`)
  const saved = new Set<string>()
  for (const file of analysis.files) {
    if (
      file.access === "write" &&
      file.path !== undefined &&
      file.program === "" &&
      [...DOWNLOADERS].some((d) => new RegExp(`(?:^|[\\s/])${d}\\s`).test(`${file.source} `))
    ) {
      saved.add(file.path)
    }
  }
  for (const inv of analysis.invocations) {
    if (!DOWNLOADERS.has(inv.program)) continue
    inv.args.forEach((a, k) => {
      const next = inv.args[k + 1]
      const output = ["--output", "--output-document"].includes(a.text) || /^-[A-Za-z]*[oO]$/.test(a.text) // -o, -fsSLo, -qO
      if (output && next !== undefined && !next.dynamic && next.text !== "-") {
        const path = resolvePath(next.text, inv.cwd ?? ctx.cwd, ctx.home)
        if (path !== undefined) saved.add(path)
      }
    })
  }
  for (const inv of analysis.invocations) {
    const operands = operandsOf(inv)
    const script = operands[0]
    if (INTERPRETER.test(inv.program)) {
      if (script === undefined || script.text === "-" || (script.dynamic && /<\(|\$\(|`/.test(script.raw))) {
        return { match: true, reason: `${inv.program} runs what ${download.program} downloads (${quote(inv.source)})` }
      }
      const path = script.dynamic ? undefined : resolvePath(script.text, inv.cwd ?? ctx.cwd, ctx.home)
      if (path !== undefined && saved.has(path)) {
        return { match: true, reason: `${inv.program} runs ${path}, which ${download.program} just downloaded (${quote(inv.source)})` }
      }
    }
  }
  // `./install.sh` run by its path after the download
  for (const inv of analysis.invocations) {
    const first = inv.source.split(/\s+/).find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
    if (first === undefined || !first.includes("/")) continue
    const path = resolvePath(first.replace(/^['"]|['"]$/g, ""), inv.cwd ?? ctx.cwd, ctx.home)
    if (path !== undefined && saved.has(path))
      return { match: true, reason: `runs ${path}, which ${download.program} just downloaded (${quote(inv.source)})` }
  }
  return NO
})

const recursivePermissions = onShell((analysis, ctx) => {
  let could: string | undefined
  for (const inv of analysis.invocations) {
    if (!/^(?:chmod|chown|chgrp|setfacl)$/.test(inv.program)) continue
    const options = optionSet(inv)
    if (!(options.has("R") || options.has("--recursive"))) continue
    for (const word of operandsOf(inv).slice(1)) {
      const { path, glob, unknownTail } = operandPath(word, inv, ctx)
      if (path === undefined) {
        if (unknownTail) could ??= `${quote(word.raw)} is only known at run time (${quote(inv.source)})`
        continue
      }
      const target = protectedTarget(path, glob, ctx)
      if (target === "root" || target === "home") {
        return { match: true, reason: `${inv.program} -R on ${TARGET_WORDS[target]} (${path}) in ${quote(inv.source)}` }
      }
    }
  }
  return could === undefined ? NO : { match: "unjudgeable", reason: could }
})

/** Device files a write to is harmless. */
const HARMLESS_DEVICES = /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|full|random|urandom|fd\/\d+|pts\/\d+|shm(?:\/.*)?)$/
const DISK_TOOLS =
  /^(?:mkfs(?:\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|newfs(?:_.+)?|wipefs|blkdiscard|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|badblocks|hdparm|nvme|diskutil|cryptsetup)$/
/** Disk tools that only change something when they name a device (`fdisk -l` lists). */
const NEEDS_DEVICE = /^(?:fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|badblocks|hdparm|nvme|diskutil|cryptsetup)$/

const diskDevices = onShell((analysis) => {
  for (const file of analysis.files) {
    if (file.access === "write" && file.path !== undefined && file.path.startsWith("/dev/") && !HARMLESS_DEVICES.test(file.path)) {
      return { match: true, reason: `writes to the device ${file.path} in ${quote(file.source)}` }
    }
  }
  for (const inv of analysis.invocations) {
    if (!DISK_TOOLS.test(inv.program)) continue
    const listing = optionSet(inv).has("l") || optionSet(inv).has("--list") || inv.args.some((a) => a.text === "list" || a.text === "print")
    const device = inv.args.find((a) => a.text.startsWith("/dev/"))
    if (NEEDS_DEVICE.test(inv.program) && (device === undefined || listing)) continue
    return {
      match: true,
      reason: `${inv.program} changes a disk${device === undefined ? "" : ` (${device.text})`} in ${quote(inv.source)}`
    }
  }
  return NO
})

// ---------------------------------------------------------------------------------------------
// The set
// ---------------------------------------------------------------------------------------------

/**
 * One rule of the set: its predicate, its permission rules (a certain match of one counts), and,
 * for rules about shell programs, the commands that cannot be judged: a program chosen at run
 * time (`eval "$X"`, `$CMD`, `… | sh`) could be any of them, inline code (`python -c`) that names
 * one or runs programs could too.
 */
const entry = (
  id: string,
  rules: ReadonlyArray<string>,
  predicate: (call: ToolCall, ctx: JudgeContext) => Judgment,
  programs: ReadonlyArray<string>,
  stops: string,
  why: string
): RecommendedRule => {
  for (const source of rules) {
    const result = parse(source)
    if (result._tag === "Failure") throw new Error(`recommended rule ${id}: ${result.message}`)
  }
  const names = programs.length === 0 ? undefined : new RegExp(`(?:^|[^A-Za-z0-9_-])(?:${programs.join("|")})(?:$|[^A-Za-z0-9_-])`)
  return {
    id,
    rules,
    stops,
    why,
    judge: (call, ctx) => {
      // the predicate covers what the rule's permission rules name (a test checks it) and knows its
      // exceptions (`.env.example`, `git push --force --dry-run`): the strings are its names
      const own = predicate(call, ctx)
      if (own.match !== false) return own
      const command = names === undefined ? undefined : commandOf(call)
      if (command === undefined) return NO
      for (const u of analysisOf(command, ctx).unjudgeable) {
        if (u.program !== undefined && !programs.includes(u.program)) continue
        if (u.code !== undefined && !(names!.test(u.code) || RUNS_PROGRAMS.test(u.code))) continue
        return { match: "unjudgeable", reason: `${u.reason} (${quote(u.source)})` }
      }
      return NO
    }
  }
}

const secretRules = (paths: ReadonlyArray<string>): ReadonlyArray<string> => paths.flatMap((p) => [`Read(${p})`, `Edit(${p})`])

/** @internal */
export const RULES: ReadonlyArray<RecommendedRule> = [
  entry(
    "rm-root",
    ["Bash(rm -rf /)"],
    recursiveDelete("root"),
    ["rm", "find", "trash"],
    "Recursive deletes of `/`, `/*` and system directories (`/etc`, `/usr`, …), in any spelling: `rm -r -f /`, `sudo /bin/rm -fr //`, `find / -delete`, `find / -exec rm -rf {} +`, through `sh -c`, `xargs`, a `cd`.",
    "Nothing an agent is asked to do needs it; one slip (an empty variable, a stray space) erases the machine."
  ),
  entry(
    "rm-home",
    ["Bash(rm -rf ~)"],
    recursiveDelete("home"),
    ["rm", "find", "trash"],
    "Recursive deletes of the home directory or a directory holding it (`rm -rf ~`, `rm -rf $HOME`, `rm -rf ~/*`, `cd ~ && rm -rf .`).",
    "The home directory holds every project, key and setting of the user."
  ),
  entry(
    "rm-project-root",
    [],
    recursiveDelete("project"),
    ["rm", "find", "trash"],
    'Recursive deletes of the project root or a directory holding it (`rm -rf .` or `rm -rf *` at the root, `rm -rf ../project`, `rm -rf "$PWD"`). Subdirectories (`rm -rf node_modules`, `rm -rf ./build`) are fine.',
    "It erases the work the agent was asked to help with, uncommitted changes included."
  ),
  entry(
    "git-force-push",
    ["Bash(git push --force:*)", "Bash(git push -f:*)", "Bash(git push --force-with-lease:*)"],
    forcePush,
    ["git"],
    "Force pushes in every form: `--force`, `-f` (alone or in a cluster), `--force-with-lease`, `--force-if-includes`, `--mirror`, a `+refspec` (`git push origin +main`), through `git -C`, `sh -c`, `sudo`.",
    "It rewrites shared history on the remote: other people's commits disappear."
  ),
  entry(
    "git-delete-remote-branch",
    ["Bash(git push --delete:*)", "Bash(git push -d:*)"],
    deleteRemoteBranch,
    ["git"],
    "Deleting remote branches: `git push --delete`, `-d`, `git push origin :branch`, `--prune`.",
    "A deleted remote branch may be the only copy of someone's work."
  ),
  entry(
    "git-discard-outside-worktree",
    [],
    discardOutsideWorktree,
    ["git"],
    "`git reset --hard` and `git clean -f…` run outside the project the agent works in (after `cd`, `git -C` or `env -C` to another directory, or with `--git-dir`, `--work-tree`, `GIT_DIR`, `GIT_WORK_TREE`). Inside the project they are allowed.",
    "They discard uncommitted work in a checkout the agent was not asked to touch (another worktree, the main checkout)."
  ),
  entry(
    "env-files",
    secretRules(["**/.env"]),
    secretRule(envFile, "an environment file"),
    [],
    "Reading or writing `.env` and `.env.*` files (`.env.local`, `.env.production`) with a file tool or a shell command (`cat`, `less`, `source`, `cp`, `grep`, `base64`, `< .env`, `> .env`); `.env.example`, `.env.sample` and `.env.template` stay allowed.",
    "They hold the project's secrets; what an agent reads goes to the model provider and into logs."
  ),
  entry(
    "ssh-keys",
    secretRules(["~/.ssh/**"]),
    secretRule(sshDir, "a file in ~/.ssh"),
    [],
    "Reading or writing anything under `~/.ssh` (keys, `config`, `authorized_keys`, `known_hosts`).",
    "Private keys open every server the user can reach; a line added to `authorized_keys` opens the machine."
  ),
  entry(
    "cloud-credentials",
    secretRules(["~/.aws/**", "~/.config/gcloud/**", "~/.kube/config"]),
    secretRule(cloudCredentials, "cloud credentials"),
    [],
    "Reading or writing `~/.aws`, `~/.config/gcloud` and `~/.kube/config`.",
    "They are long-lived keys to the user's cloud accounts and clusters."
  ),
  entry(
    "private-keys",
    secretRules(["**/id_rsa", "**/id_dsa", "**/id_ecdsa", "**/id_ed25519", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx"]),
    secretRule(privateKey, "a private key file"),
    [],
    "Reading or writing private key files anywhere: `id_rsa`, `id_ed25519`, `id_ecdsa`, `id_dsa`, `*.pem`, `*.key`, `*.p12`, `*.pfx` (public `*.pub` keys are fine).",
    "A private key in the model's context is a leaked key."
  ),
  entry(
    "download-to-shell",
    [],
    downloadToShell,
    ["curl", "wget"],
    'Running what was just downloaded: `curl … | sh`, `wget -O- … | sudo bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `curl … | python3`, `source <(curl …)`.',
    "It runs code nobody has read, from a server an attacker may control, with the agent's rights."
  ),
  entry(
    "chmod-recursive-root",
    ["Bash(chmod -R 777 /)"],
    recursivePermissions,
    ["chmod", "chown", "chgrp"],
    "Recursive permission or owner changes of `/`, system directories or the home directory (`chmod -R 777 /`, `sudo chown -R me /usr`, `chmod -R a+rwx ~`).",
    "It breaks `sudo`, `ssh` and the system's services, and opens every file to every user; it cannot be undone."
  ),
  entry(
    "disk-devices",
    ["Bash(mkfs:*)", "Bash(dd of=/dev/*)"],
    diskDevices,
    ["dd", "mkfs", "wipefs", "fdisk", "parted"],
    "Writing to disk devices: `dd of=/dev/sda`, `> /dev/nvme0n1`, `cp x /dev/sdb`, `mkfs*`, `mkswap`, `wipefs`, `blkdiscard`, and `fdisk`/`parted`/`sgdisk` on a `/dev/…` device (`fdisk -l` stays allowed).",
    "It destroys a file system in one call."
  )
]

/** @internal */
export const judge = (
  call: ToolCall,
  ctx: JudgeContext,
  options?: { readonly except?: ReadonlyArray<string> | undefined }
): { readonly id: string; readonly judgment: Judgment & { readonly match: true | "unjudgeable" } } | undefined => {
  const except = new Set(options?.except ?? [])
  let could: { readonly id: string; readonly judgment: Judgment & { readonly match: "unjudgeable" } } | undefined
  for (const rule of RULES) {
    if (except.has(rule.id)) continue
    const judgment = rule.judge(call, ctx)
    if (judgment.match === true) return { id: rule.id, judgment }
    if (judgment.match === "unjudgeable") could ??= { id: rule.id, judgment }
  }
  return could
}
