/**
 * `agent-hooks:recommended`: what no user wants an agent to do unasked. The set's data (its rules,
 * ids and docs rows) is owned by the command matcher's work; this file is where it lives, read by
 * the `extends` resolver (`./index.ts`).
 */
import type { RuleSet } from "./index.ts"

/** @internal */
export const recommended: RuleSet = {
  name: "agent-hooks:recommended",
  description: "Rules for what no user wants an agent to do unasked: recursive deletes of / and ~, force pushes, secrets.",
  rules: [
    {
      id: "rm-root",
      list: "deny",
      rules: ["Bash(rm -rf /)", "Bash(rm -rf /*)", "Bash(rm -rf ~)", "Bash(rm -rf ~/*)", "Bash(rm -rf $HOME)", "Bash(rm -fr /)"],
      stops: "recursive deletes of `/`, `/*`, `~` and `$HOME`",
      why: "one command destroys the machine or the user's files"
    },
    {
      id: "git-force-push",
      list: "deny",
      rules: [
        "Bash(git push --force:*)",
        "Bash(git push -f:*)",
        "Bash(git push --force-with-lease:*)",
        "Bash(git push * --force*)",
        "Bash(git push * -f*)"
      ],
      stops: "force pushes",
      why: "rewrites a shared branch's history; others lose work"
    },
    {
      id: "env-files",
      list: "deny",
      rules: ["Read(.env)", "Read(.env.local)", "Read(.env.production)", "Edit(.env)", "Edit(.env.local)", "Edit(.env.production)"],
      stops: "reading or writing `.env` files",
      why: "they hold secrets the model should not see or change"
    },
    {
      id: "ssh-keys",
      list: "deny",
      rules: ["Read(~/.ssh/**)", "Edit(~/.ssh/**)", "Read(~/.aws/**)", "Edit(~/.aws/**)"],
      stops: "reading or writing `~/.ssh` and `~/.aws`",
      why: "private keys and cloud credentials"
    },
    {
      id: "curl-pipe-shell",
      list: "deny",
      rules: ["Bash(curl * | sh)", "Bash(curl * | bash)", "Bash(wget * | sh)", "Bash(wget * | bash)"],
      stops: "piping a download into a shell",
      why: "runs code nobody has read"
    }
  ]
}
