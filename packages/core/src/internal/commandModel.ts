/**
 * What a shell command does, for permission rules used as policy (`PermissionRule.judge`): every
 * program it runs (through wrappers, `sh -c`, `eval`, `xargs`, `find -exec`, `$(…)`), where each
 * runs (a `cd` earlier in the command moves later relative paths), the files it names or
 * redirects to, and the parts no static reading can judge (`eval "$X"`, a variable as program,
 * `xargs` arguments from stdin, a shell reading its stdin).
 *
 * The core has no file system: symlinks are resolved by the caller's `realpath`, when given.
 */
import type { Redirect, Word } from "../ShellLexer.ts"
import { codeArguments } from "./placeholder.ts"
import { SHELL_PROGRAMS, shellCode, split, wrappedProgram } from "./shellLexer.ts"

/** Where paths are resolved. @internal */
export interface ModelContext {
  readonly cwd: string
  readonly projectDir: string
  readonly home?: string | undefined
  /** Resolves symlinks of an existing path (`undefined` when it does not exist). */
  readonly realpath?: ((path: string) => string | undefined) | undefined
}

/** One program run by the command, after wrappers and path/escape spelling are removed. @internal */
export interface Invocation {
  /** The program's name (`rm` for `/bin/rm`, `\rm`, `command rm`, `busybox rm`). */
  readonly program: string
  /** Its arguments (expansions kept as written in `text`, `dynamic` set). */
  readonly args: ReadonlyArray<Word>
  /** More arguments come from stdin (`xargs`): unknown here. */
  readonly openTail: boolean
  /** The directory relative paths resolve against; `undefined` after a `cd` to an unknown place. */
  readonly cwd: string | undefined
  /** The simple command as written (for reasons). */
  readonly source: string
  /** This invocation's number, and the invocation that started it (a wrapper, `sh -c`, `eval`, `find -exec`). */
  readonly id: number
  readonly parent: number | undefined
}

/** A part of the command that cannot be judged statically. @internal */
export interface Unjudgeable {
  readonly reason: string
  /** The program it may run, when known (`rm` for `xargs rm`); `undefined`: any program. */
  readonly program: string | undefined
  /** Inline code of an interpreter (`python -c CODE`): a rule "could match" when it names the program. */
  readonly code?: string | undefined
  readonly source: string
}

/** A file a command names. @internal */
export interface FileAccess {
  /** `write`: redirected to or changed by a known writer; `read`: read by a known reader; `named`: an operand of another program. */
  readonly access: "read" | "write" | "named"
  /** The absolute, normalized path (symlinks resolved where known); `undefined` when it is computed at run time. */
  readonly path: string | undefined
  /** Holds an unquoted glob the shell expands (`*.pem`). */
  readonly glob: boolean
  /** The word as written. */
  readonly raw: string
  /** Computed by a command substitution (`$(…)`, backticks): may name any file. */
  readonly substituted: boolean
  readonly program: string
  readonly source: string
}

/** @internal */
export interface Analysis {
  readonly invocations: ReadonlyArray<Invocation>
  readonly unjudgeable: ReadonlyArray<Unjudgeable>
  readonly files: ReadonlyArray<FileAccess>
}

const MAX_DEPTH = 8
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/
const KEYWORDS = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "coproc", "time", "[[", "]]"])

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/** Resolves `.` and `..`, collapses repeated slashes; `\` is a path separator too. @internal */
export const normalizePath = (path: string): string => {
  const p = path.replace(/\\/g, "/")
  const drive = /^[A-Za-z]:\//.test(p) ? p.slice(0, 2) : ""
  const stack: Array<string> = []
  for (const segment of p.slice(drive.length).split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      stack.pop()
      continue
    }
    stack.push(segment)
  }
  return `${drive}/${stack.join("/")}`
}

/** Joins a path to a directory unless it is absolute; `~` and `~/x` go to `home`. @internal */
export const resolvePath = (path: string, cwd: string, home: string | undefined): string | undefined => {
  let p = path
  if (p === "~" || p.startsWith("~/")) {
    if (home === undefined) return undefined
    p = home + p.slice(1)
  } else if (p.startsWith("~")) {
    // ~user: that user's home, beside ours (`~root` is /root)
    const m = /^~([A-Za-z0-9._-]+)(\/.*)?$/.exec(p)
    if (m === null || home === undefined) return undefined
    const base = m[1] === "root" ? "/root" : `${home.replace(/\/+$/, "").slice(0, home.replace(/\/+$/, "").lastIndexOf("/"))}/${m[1]}`
    p = base + (m[2] ?? "")
  }
  if (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p)) return normalizePath(p)
  return normalizePath(`${cwd}/${p}`)
}

/** Resolves symlinks with `realpath`: the longest existing prefix is resolved, the rest appended. */
const realPath = (path: string, ctx: ModelContext): string => {
  const real = ctx.realpath
  if (real === undefined) return path
  const segments = path.split("/")
  for (let n = segments.length; n > 1; n--) {
    const head = segments.slice(0, n).join("/") || "/"
    let resolved: string | undefined
    try {
      resolved = real(head)
    } catch {
      resolved = undefined
    }
    if (resolved !== undefined) return normalizePath([resolved, ...segments.slice(n)].join("/"))
  }
  return path
}

/** Unquoted glob characters in a word as written. */
const hasGlob = (raw: string): boolean =>
  /[*?[]/.test(
    raw
      .replace(/\\./g, "")
      .replace(/'[^']*'/g, "")
      .replace(/"(?:[^"\\]|\\.)*"/g, "")
  )

const HOME_VAR = /\$(?:HOME\b|\{HOME\})/g
const PWD_VAR = /\$(?:PWD\b|\{PWD\})/g

// ---------------------------------------------------------------------------------------------
// Programs and the files they name
// ---------------------------------------------------------------------------------------------

/** Programs that read the files they name. */
const READERS = new Set([
  "cat",
  "tac",
  "less",
  "more",
  "most",
  "head",
  "tail",
  "bat",
  "batcat",
  "nl",
  "base64",
  "base32",
  "basenc",
  "xxd",
  "hexdump",
  "od",
  "strings",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "source",
  ".",
  "cp",
  "scp",
  "rsync",
  "sftp",
  "diff",
  "cmp",
  "comm",
  "wc",
  "sort",
  "uniq",
  "cut",
  "paste",
  "awk",
  "gawk",
  "mawk",
  "sed",
  "jq",
  "yq",
  "tr",
  "fold",
  "fmt",
  "rev",
  "iconv",
  "gpg",
  "openssl",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "tar",
  "zip",
  "gzip",
  "bzip2",
  "xz",
  "zstd",
  "7z",
  "nc",
  "ncat",
  "socat",
  "view",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "code",
  "open",
  "xdg-open",
  "dotenv",
  "expand",
  "unexpand",
  "split",
  "csplit",
  "pr",
  "column",
  "look",
  "join"
])
/** Programs that change or remove the files they name. */
const WRITERS = new Set([
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "truncate",
  "touch",
  "tee",
  "chmod",
  "chown",
  "chgrp",
  "ln",
  "mv",
  "install",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "code",
  "trash",
  "trash-put",
  "mkdir",
  "patch",
  "setfacl",
  "chattr"
])
/** Programs that only look at a path's name or metadata. */
const METADATA = new Set([
  "ls",
  "ssh",
  "ssh-add",
  "stat",
  "test",
  "[",
  "[[",
  "echo",
  "printf",
  "which",
  "type",
  "realpath",
  "readlink",
  "dirname",
  "basename",
  "cd",
  "pushd",
  "popd",
  "file",
  "du",
  "df",
  "exa",
  "eza",
  "tree",
  "pwd",
  "export",
  "unset",
  "alias",
  "set",
  "local",
  "declare",
  "true",
  "false",
  "exit",
  "return",
  "wait",
  "kill",
  "sleep",
  "find",
  "fd",
  "mkdir",
  "man",
  "help",
  "npm",
  "pnpm",
  "yarn",
  "npx",
  "pip",
  "pip3",
  "cargo",
  "go",
  "make",
  "docker",
  "kubectl",
  "brew",
  "apt",
  "apt-get",
  "gh",
  "tsc",
  "biome",
  "eslint",
  "prettier",
  "vitest",
  "jest",
  "pytest"
])

/** Download programs: their output piped into a shell runs code from the network. @internal */
export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "https", "aria2c", "lwp-request", "GET", "iwr", "Invoke-WebRequest"])

/** Whether a word is an option (`-x`, `--long`), not an operand. */
const isOption = (text: string): boolean => text.length > 1 && text.startsWith("-")

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

interface State {
  readonly ctx: ModelContext
  cwd: string | undefined
  /** Variables assigned a literal value earlier in the command (`F=.env; cat $F`). */
  readonly vars: Map<string, string | undefined>
  /** Aliases defined earlier in the command (`alias r=rm; r -rf /`). */
  readonly aliases: Map<string, string>
  /** Loop variables and their literal values (`for d in a b; do rm -rf "$d"; done`): judged once per value. */
  readonly lists: Map<string, ReadonlyArray<string>>
  /** The invocation whose code or wrapped program is being walked. */
  parent: number | undefined
  readonly out: {
    invocations: Array<Invocation>
    unjudgeable: Array<Unjudgeable>
    files: Array<FileAccess>
  }
}

const source = (words: ReadonlyArray<Word>): string => words.map((w) => w.raw).join(" ")

/**
 * bash's brace expansion of an unquoted `{a,b}` in a word (`/{bin,usr}`, `{/,}`): one word per
 * alternative, at most 64; other words as they are.
 */
const braceExpand = (word: Word): Array<Word> => {
  if (word.dynamic || !/\{[^{}]*,[^{}]*\}/.test(word.raw) || /['"\\]/.test(word.raw)) return [word]
  const out: Array<string> = []
  const expand = (text: string): void => {
    if (out.length >= 64) return
    const m = /\{([^{}]*,[^{}]*)\}/.exec(text)
    if (m === null) {
      out.push(text)
      return
    }
    for (const alt of m[1]!.split(",")) expand(text.slice(0, m.index) + alt + text.slice(m.index + m[0].length))
  }
  expand(word.raw)
  return out.map((text) => ({ text, raw: text, dynamic: false }))
}

/** Programs that run the program after their options, besides the lexer's process wrappers. */
const MORE_WRAPPERS: Readonly<Record<string, { readonly argFlags: ReadonlyArray<string>; readonly positional?: number }>> = {
  chroot: { argFlags: ["--userspec", "--groups"], positional: 1 },
  unshare: { argFlags: ["--propagation", "--setgroups", "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"] },
  nsenter: { argFlags: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "--root", "-w", "--wd"] },
  strace: { argFlags: ["-o", "-e", "-p", "-s", "-u", "-E", "-P", "-a", "-b", "-I", "-O", "-S", "-X"] },
  ltrace: { argFlags: ["-o", "-e", "-p", "-s", "-u", "-n", "-a"] },
  setpriv: {
    argFlags: ["--reuid", "--regid", "--groups", "--inh-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile"]
  },
  torsocks: { argFlags: ["-u", "-p", "-a", "-P"] },
  proxychains: { argFlags: ["-f"] },
  proxychains4: { argFlags: ["-f"] },
  firejail: { argFlags: [] },
  valgrind: { argFlags: [] },
  caffeinate: { argFlags: ["-t", "-w"] },
  "systemd-run": { argFlags: ["-p", "--property", "-u", "--unit", "-E", "--setenv", "--uid", "--gid", "--slice", "-M", "--machine"] },
  sg: { argFlags: [], positional: 1 },
  chronic: { argFlags: [] },
  ifne: { argFlags: [] },
  unbuffer: { argFlags: [] },
  faketime: { argFlags: ["-f"], positional: 1 },
  fakeroot: { argFlags: ["-l", "--lib", "--faked", "-s", "-i"] },
  "run-one": { argFlags: [] },
  tsp: { argFlags: [] },
  pkexec: { argFlags: ["--user"] },
  runuser: { argFlags: ["-u", "-g", "-G", "--user", "--group"] }
}

const moreWrapped = (name: string, words: ReadonlyArray<string>): number | undefined => {
  if (!Object.hasOwn(MORE_WRAPPERS, name)) return undefined
  const wrapper = MORE_WRAPPERS[name]!
  let k = 1
  while (k < words.length) {
    const word = words[k]!
    if (word === "--") {
      k++
      break
    }
    if (word.startsWith("-") && word.length > 1) {
      k += wrapper.argFlags.includes(word) ? 2 : 1
      continue
    }
    break
  }
  return k + (wrapper.positional ?? 0)
}

/**
 * The text a word stands for when its only expansions are known: `$HOME`, `$PWD` and variables
 * assigned a literal earlier in the command. `undefined` when it depends on the run time.
 */
const staticText = (word: Word, st: State): string | undefined => {
  if (!word.dynamic) return word.text
  let text = word.text
  if (st.ctx.home !== undefined) text = text.replace(HOME_VAR, st.ctx.home)
  if (st.cwd !== undefined) text = text.replace(PWD_VAR, st.cwd)
  text = text.replace(/\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g, (m, a: string | undefined, b: string | undefined) => {
    const name = a ?? b!
    const value = st.vars.get(name)
    return value === undefined ? m : value
  })
  return /\$|`/.test(text) || /[<>]\(/.test(word.raw) ? undefined : text
}

/** A word with its known expansions substituted (still `dynamic` when something is unknown). */
const resolveWord = (word: Word, st: State): Word => {
  if (!word.dynamic) return word
  const text = staticText(word, st)
  return text === undefined ? word : { text, raw: word.raw, dynamic: false }
}

const addFile = (st: State, access: FileAccess["access"], word: Word, program: string, src: string): void => {
  const text = staticText(word, st)
  const substituted = word.dynamic && /\$\(|`|<\(/.test(word.raw)
  let path: string | undefined
  if (text !== undefined && text !== "" && text !== "-" && st.cwd !== undefined) {
    const resolved = resolvePath(text, st.cwd, st.ctx.home)
    path = resolved === undefined ? undefined : realPath(resolved, st.ctx)
  }
  st.out.files.push({ access, path, glob: text !== undefined && hasGlob(word.raw), raw: word.raw, substituted, program, source: src })
}

const redirectAccess = (r: Redirect): FileAccess["access"] | undefined => {
  const op = r.operator
  if (op === "<<<") return undefined
  if ((op === ">&" || op === "<&") && /^(?:\d+-?|-)$/.test(r.target.text)) return undefined // fd duplication
  if (op.startsWith("<") && op !== "<>") return "read"
  return "write"
}

/** The files a program's operands name, by what the program does with them. */
const fileOperands = (st: State, program: string, args: ReadonlyArray<Word>, src: string): void => {
  if (METADATA.has(program) && !READERS.has(program) && !WRITERS.has(program)) return
  // dd names its files as if=/of=
  if (program === "dd") {
    for (const a of args) {
      const m = /^(if|of)=(.*)$/s.exec(a.text)
      if (m !== null)
        addFile(st, m[1] === "if" ? "read" : "write", { ...a, text: m[2]!, raw: a.raw.replace(/^(?:if|of)=/, "") }, program, src)
    }
    return
  }
  if (DOWNLOADERS.has(program)) {
    // curl -F f=@path, -d @path, --data-binary @path: uploads the file
    for (const a of args) {
      const m = /(?:^|=)[@<]([^;]+)/.exec(a.text)
      if (m !== null && !a.text.startsWith("-")) addFile(st, "read", { ...a, text: m[1]!, raw: m[1]! }, program, src)
    }
  }
  let operands = args.filter((a, k) => !isOption(a.text) || args[k - 1]?.text === "--")
  // --opt=path values
  for (const a of args) {
    const m = /^--[A-Za-z-]+=(.+)$/s.exec(a.text)
    if (m !== null && /[/.~]/.test(m[1]!)) addFile(st, "named", { ...a, text: m[1]! }, program, src)
  }
  if (program === "grep" || program === "egrep" || program === "fgrep" || program === "rg" || program === "ag" || program === "ack") {
    if (!args.some((a) => /^-(?:e|f)$|^--(?:regexp|file)=?/.test(a.text))) operands = operands.slice(1) // the pattern
  } else if (program === "sed" || program === "awk" || program === "gawk" || program === "mawk" || program === "jq" || program === "yq") {
    if (!args.some((a) => /^-(?:e|f)$/.test(a.text))) operands = operands.slice(1) // the script or filter
  } else if (program === "chmod" || program === "chown" || program === "chgrp" || program === "setfacl" || program === "chattr") {
    operands = operands.slice(1) // the mode or owner
  } else if (program === "tr") {
    return
  }
  const writes = WRITERS.has(program)
  const copies =
    program === "cp" || program === "scp" || program === "rsync" || program === "install" || program === "mv" || program === "ln"
  operands.forEach((word, k) => {
    if (copies) {
      const last = k === operands.length - 1 && operands.length > 1
      addFile(st, last || program === "mv" ? "write" : "read", word, program, src)
      if (program === "mv" && !last) addFile(st, "read", word, program, src)
      return
    }
    if (program === "tee") return addFile(st, "write", word, program, src)
    if (program === "sed" && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a.text))) addFile(st, "write", word, program, src)
    addFile(st, writes ? "write" : READERS.has(program) ? "read" : "named", word, program, src)
  })
}

/** Options of git before its subcommand that take a value; `-C dir` also moves git's directory. */
const GIT_VALUE_OPTIONS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"])

const changeDirectory = (st: State, args: ReadonlyArray<Word>): void => {
  const operands = args.filter((a) => !isOption(a.text))
  const target = operands[0]
  if (target === undefined) {
    st.cwd = st.ctx.home
    return
  }
  const text = staticText(target, st)
  if (text === undefined || text === "-" || st.cwd === undefined) {
    st.cwd = undefined
    return
  }
  const resolved = resolvePath(text, st.cwd, st.ctx.home)
  st.cwd = resolved === undefined ? undefined : realPath(resolved, st.ctx)
}

/** Narrowing tests of `find`: with one, `-delete` and `-exec` act on some files below the start path, not on it. */
const FIND_NARROWING = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-regex",
  "-iregex",
  "-wholename",
  "-iwholename",
  "-lname",
  "-ilname"
])

const walkFind = (st: State, words: ReadonlyArray<Word>, depth: number, openTail: boolean): void => {
  const args = words.slice(1)
  let k = 0
  while (k < args.length && /^-[HLP]$|^-D$|^-O\d$/.test(args[k]!.text)) k += args[k]!.text === "-D" ? 2 : 1
  const starts: Array<Word> = []
  while (k < args.length && !isOption(args[k]!.text) && args[k]!.text !== "(" && args[k]!.text !== "!") starts.push(args[k++]!)
  if (starts.length === 0) starts.push({ text: ".", raw: ".", dynamic: false })
  const expr = args.slice(k)
  const narrowed = expr.some((w) => FIND_NARROWING.has(w.text))
  const src = source(words)
  // what `{}` stands for below the start path: the `-name` pattern when there is one
  const nameAt = expr.findIndex((w) => w.text === "-name" || w.text === "-iname")
  const name = nameAt >= 0 && expr[nameAt + 1] !== undefined && !expr[nameAt + 1]!.dynamic ? expr[nameAt + 1]!.text : "{}"
  const below = (start: Word): Word => {
    const text = `${start.text.replace(/\/+$/, "")}/${name}`
    return { ...start, text, raw: text.replace(/\{\}$/, "'{}'") }
  }
  for (let j = 0; j < expr.length; j++) {
    const w = expr[j]!.text
    if (w === "-delete") {
      for (const start of starts) {
        const target = narrowed ? below(start) : start
        st.out.invocations.push({
          program: "rm",
          args: [{ text: "-r", raw: "-r", dynamic: false }, { text: "-f", raw: "-f", dynamic: false }, resolveWord(target, st)],
          openTail: false,
          cwd: st.cwd,
          source: src,
          id: st.out.invocations.length,
          parent: st.parent
        })
        addFile(st, "write", target, "find", src)
      }
    } else if (w === "-exec" || w === "-execdir" || w === "-ok" || w === "-okdir") {
      const rest = expr.slice(j + 1)
      const end = rest.findIndex((x) => x.text === ";" || x.text === "+")
      const command = end < 0 ? rest : rest.slice(0, end)
      for (const start of starts) {
        const target = narrowed ? below(start) : start
        walkWords(
          st,
          command.map((x) => (x.text === "{}" ? target : x)),
          depth + 1,
          openTail
        )
      }
      j += end < 0 ? rest.length : end + 1
    }
  }
  if (!narrowed) for (const start of starts) addFile(st, "named", start, "find", src)
}

/** One simple command (its words after redirections are taken out). */
const walkWords = (st: State, start: ReadonlyArray<Word>, depth: number, openTail: boolean): void => {
  let words = start
  // leading assignments (remembered for later commands when the command is nothing else) and keywords
  let k = 0
  const assigned: Array<[string, string | undefined]> = []
  while (k < words.length) {
    const w = words[k]!
    const m = ASSIGNMENT.exec(w.raw)
    if (m !== null) {
      const raw = w.raw.slice(w.raw.indexOf("=") + 1)
      // `T=$(mktemp -d)`: a new path in the temporary folder, never `/`, home or the project
      const value = /^"?\$\(mktemp(?: [^)$`]*)?\)"?$/.test(raw)
        ? "/tmp/mktemp.XXXXXX"
        : staticText({ ...w, text: w.text.slice(w.text.indexOf("=") + 1) }, st)
      assigned.push([m[1]!, value])
      k++
    } else if (KEYWORDS.has(w.raw)) k++
    else break
  }
  words = words.slice(k)
  // `function f { …` / `function f() { …`: the body's commands follow
  if (words[0]?.raw === "function" && words.length >= 2) {
    words = words.slice(2).filter((w, j) => !(j === 0 && (w.raw === "{" || w.raw === "()")))
    while (words[0]?.raw === "{" || words[0]?.raw === "()") words = words.slice(1)
  }
  if (words.length === 0) {
    for (const [name, value] of assigned) {
      st.vars.set(name, value)
      st.lists.delete(name)
    }
    return
  }
  // `for NAME in WORDS`: the loop's body sees NAME as each word (unknown when one is computed at run time)
  if (words[0]!.raw === "for" && words[1] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(words[1].raw)) {
    const name = words[1].raw
    const items = words[2]?.raw === "in" ? words.slice(3).map((w) => staticText(w, st)) : []
    st.lists.delete(name)
    st.vars.set(name, undefined)
    if (items.length > 0 && items.length <= 16 && items.every((t) => t !== undefined)) st.lists.set(name, items as ReadonlyArray<string>)
    return
  }
  // a word naming a loop variable: the command once per value
  for (const [name, values] of st.lists) {
    const uses = new RegExp(`\\$(?:${name}\\b|\\{${name}\\})`)
    if (!words.some((w) => uses.test(w.raw))) continue
    st.lists.delete(name)
    try {
      for (const value of values) {
        st.vars.set(name, value)
        walkWords(st, words, depth, openTail)
      }
    } finally {
      st.lists.set(name, values)
      st.vars.set(name, undefined)
    }
    return
  }
  const src = source(start)
  if (depth > MAX_DEPTH) {
    st.out.unjudgeable.push({ reason: `commands nested more than ${MAX_DEPTH} deep`, program: undefined, source: src })
    return
  }
  const first = resolveWord(words[0]!, st)
  if (
    first.dynamic ||
    (hasGlob(first.raw) && first.raw !== "[" && first.raw !== "[[") ||
    /\{[^}]*(?:,|\.\.)[^}]*\}/.test(first.raw.replace(/'[^']*'|"[^"]*"/g, ""))
  ) {
    st.out.unjudgeable.push({
      reason: `the program is chosen at run time (${first.raw})`,
      program: undefined,
      source: src
    })
    return
  }
  const name = first.text.slice(first.text.lastIndexOf("/") + 1)
  // an alias defined earlier in the command runs its text
  const alias = st.aliases.get(first.raw)
  if (alias !== undefined && depth <= MAX_DEPTH) {
    const rest = words
      .slice(1)
      .map((w) => w.raw)
      .join(" ")
    st.aliases.delete(first.raw)
    try {
      walkCommand(st, `${alias} ${rest}`, depth + 1, src)
    } finally {
      st.aliases.set(first.raw, alias)
    }
    return
  }
  const args = words
    .slice(1)
    .flatMap(braceExpand)
    .map((w) => resolveWord(w, st))
  if (name === "alias") {
    for (const a of args) {
      const m = /^([^=\s]+)=(.*)$/s.exec(a.text)
      if (m !== null) st.aliases.set(m[1]!, m[2]!)
    }
  }
  if (name === "export" || name === "declare" || name === "local" || name === "readonly" || name === "typeset") {
    for (const a of args) {
      const m = ASSIGNMENT.exec(a.raw)
      if (m !== null) st.vars.set(m[1]!, staticText({ ...a, text: a.text.slice(a.text.indexOf("=") + 1) }, st))
    }
  }
  const id = st.out.invocations.length
  st.out.invocations.push({ program: name, args, openTail, cwd: st.cwd, source: src, id, parent: st.parent })
  const outer = st.parent
  st.parent = id
  try {
    walkProgram(st, name, [words[0]!, ...args], args, depth, openTail, src)
  } finally {
    st.parent = outer
  }
}

const walkProgram = (
  st: State,
  name: string,
  words: ReadonlyArray<Word>,
  args: ReadonlyArray<Word>,
  depth: number,
  openTail: boolean,
  src: string
): void => {
  const texts = [name, ...args.map((a) => a.text)]

  if (name === "cd" || name === "pushd" || name === "chdir") {
    changeDirectory(st, args)
    return
  }
  if (name === "popd") {
    st.cwd = undefined
    return
  }
  fileOperands(st, name, args, src)

  // a process wrapper starts the program after its options
  const wrapped =
    name === "command" && args.some((a) => a.text === "-v" || a.text === "-V")
      ? undefined
      : (wrappedProgram(name, texts) ??
        (name === "runuser" && !args.some((a) => a.text === "-c")
          ? moreWrapped(name, texts)
          : name !== "runuser"
            ? moreWrapped(name, texts)
            : undefined))
  if (wrapped !== undefined) {
    const opts = args.slice(0, wrapped - 1)
    const inner = words.slice(wrapped)
    const saved = st.cwd
    // env -C DIR, sudo -D DIR: the program runs there
    const chdir = opts.findIndex((a) => ["-C", "--chdir", "-D"].includes(a.text) && (name === "env" || name === "sudo"))
    if (chdir >= 0 && opts[chdir + 1] !== undefined) changeDirectory(st, [opts[chdir + 1]!])
    if (name === "env" && opts.some((a) => /^(?:-S|--split-string)/.test(a.text))) {
      const at = opts.findIndex((a) => /^(?:-S|--split-string)/.test(a.text))
      const a = opts[at]!
      const code =
        a.text === "-S" || a.text === "--split-string" ? opts[at + 1] : { ...a, text: a.text.replace(/^(?:-S|--split-string=)/, "") }
      if (code !== undefined) walkCode(st, code, depth, "env -S", src)
    }
    if (name === "xargs") {
      const fromFile = opts.some((a) => /^(?:-a|--arg-file)/.test(a.text))
      if (inner.length === 0) {
        st.out.unjudgeable.push({ reason: "xargs runs a program named by its input", program: undefined, source: src })
      } else {
        if (fromFile) {
          const at = opts.findIndex((a) => /^(?:-a|--arg-file)/.test(a.text))
          if (opts[at + 1] !== undefined) addFile(st, "read", opts[at + 1]!, "xargs", src)
        }
        walkWords(st, inner, depth + 1, true)
      }
    } else if (inner.length > 0) {
      walkWords(st, inner, depth + 1, openTail)
    }
    st.cwd = saved
    return
  }
  if (name === "git") {
    // git's own options before the subcommand (`git -C dir -c k=v push`): judged as `git push`, run in dir
    let k = 0
    let dir: Word | undefined
    while (k < args.length && isOption(args[k]!.text)) {
      if (args[k]!.text === "-C") dir = args[k + 1]
      k += GIT_VALUE_OPTIONS.has(args[k]!.text) ? 2 : 1
    }
    if (k > 0) {
      const saved = st.cwd
      if (dir !== undefined) changeDirectory(st, [dir])
      st.out.invocations.push({
        program: "git",
        args: args.slice(k),
        openTail,
        cwd: st.cwd,
        source: src,
        id: st.out.invocations.length,
        parent: st.parent
      })
      st.cwd = saved
    }
    return
  }
  if (name === "eval") {
    if (args.some((a) => a.dynamic)) {
      st.out.unjudgeable.push({ reason: `eval runs text computed at run time (${source(args)})`, program: undefined, source: src })
      return
    }
    walkCode(st, { text: args.map((a) => a.text).join(" "), raw: "", dynamic: false }, depth, "eval", src)
    return
  }
  if (name === "source" || name === ".") {
    // a script file run by name is judged as that program; its contents are not visible here
    const script = args[0]
    if (script?.dynamic === true) {
      st.out.unjudgeable.push({ reason: `${name} runs a script computed at run time (${script.raw})`, program: undefined, source: src })
    }
    return
  }
  const shell = SHELL_PROGRAMS.has(name)
  if (shell) {
    const code = shellCode(
      args.map((a) => a.text),
      (j) => args[j]!.dynamic
    )
    if (code === "script") {
      const script = args.find((a) => !isOption(a.text))
      if (script === undefined || script.text === "-" || openTail) {
        st.out.unjudgeable.push({ reason: `${name} runs commands from its standard input`, program: undefined, source: src })
      } else if (script.dynamic) {
        st.out.unjudgeable.push({
          reason: `${name} runs a script computed at run time (${script.raw})`,
          program: undefined,
          source: src
        })
      } else {
        addFile(st, "read", script, name, src)
      }
      return
    }
    if (code === "dynamic") {
      st.out.unjudgeable.push({ reason: `${name}'s options are computed at run time`, program: undefined, source: src })
      return
    }
    if (code !== undefined) walkCode(st, args[code]!, depth, `${name} -c`, src)
    return
  }
  if (name === "trap") {
    const operand = args.find((a) => !isOption(a.text))
    if (operand !== undefined && args.length >= 2) walkCode(st, operand, depth, "trap", src)
    return
  }
  if (name === "watch" || name === "ssh") {
    let j = 0
    while (j < args.length && isOption(args[j]!.text)) j += /^-[nplioLRJWbBcDeEFIm]$/.test(args[j]!.text) ? 2 : 1
    const rest = args.slice(j + (name === "ssh" ? 1 : 0))
    if (rest.length > 0) {
      if (name === "ssh") {
        // runs on another machine: its paths are not this machine's, but its programs are judged
        const saved = st.cwd
        st.cwd = undefined
        walkCode(st, { text: rest.map((a) => a.text).join(" "), raw: source(rest), dynamic: rest.some((a) => a.dynamic) }, depth, name, src)
        st.cwd = saved
      } else {
        walkCode(st, { text: rest.map((a) => a.text).join(" "), raw: source(rest), dynamic: rest.some((a) => a.dynamic) }, depth, name, src)
      }
    }
    return
  }
  if (name === "su" || name === "script" || name === "runuser" || name === "flock") {
    const at = args.findIndex((a) => a.text === "-c" || a.text === "--command")
    if (at >= 0 && args[at + 1] !== undefined) walkCode(st, args[at + 1]!, depth, `${name} -c`, src)
    return
  }
  if (name === "find") {
    walkFind(st, words, depth, openTail)
    return
  }
  // an interpreter's inline code: it may run anything, unseen here
  const code = codeArguments(
    name,
    args.map((a) => a.text)
  ).find((c) => c.language === "other")
  if (code !== undefined && code.index >= 0) {
    st.out.unjudgeable.push({
      reason: `${name} runs inline code that is not shell`,
      program: undefined,
      code: args[code.index]?.text ?? "",
      source: src
    })
  }
}

/** Code run by `eval`, `sh -c`, `trap`, `env -S`: judged as a command of its own (its `cd` stays inside). */
const walkCode = (st: State, code: Word, depth: number, by: string, src: string): void => {
  if (code.dynamic && staticText(code, st) === undefined) {
    st.out.unjudgeable.push({ reason: `${by} runs code computed at run time (${code.raw})`, program: undefined, source: src })
    return
  }
  const text = staticText(code, st) ?? code.text
  const saved = st.cwd
  walkCommand(st, text, depth + 1, src)
  st.cwd = saved
}

const walkCommand = (st: State, command: string, depth: number, src: string): void => {
  const commands = split(command, "posix")
  if (commands === undefined) {
    st.out.unjudgeable.push({
      reason: "the command does not parse (an unbalanced quote, parenthesis or substitution)",
      program: undefined,
      source: src
    })
    return
  }
  for (const c of commands) {
    for (const r of c.redirects ?? []) {
      const access = redirectAccess(r)
      if (access !== undefined) addFile(st, access, r.target, "", source(c.words) || r.target.raw)
    }
    if (c.words.length > 0) walkWords(st, c.words, depth, false)
  }
}

/** What a shell command runs and names. @internal */
export const analyze = (command: string, ctx: ModelContext): Analysis => {
  const st: State = {
    ctx,
    cwd: realPath(normalizePath(ctx.cwd), ctx),
    vars: new Map(),
    aliases: new Map(),
    lists: new Map(),
    parent: undefined,
    out: { invocations: [], unjudgeable: [], files: [] }
  }
  walkCommand(st, command, 0, command)
  return st.out
}
