/**
 * `agent-hooks:recommended`: what no user wants an agent to do unasked. The rules, their ids, their
 * docs rows and their judgment live in `../recommended.ts` (public: `Recommended.ts`); this is the
 * form the `extends` resolver (`./index.ts`) reads. A rule the permission-rule syntax cannot say
 * (no `rules` of its own) is named by the tool it judges, and judged by its predicate.
 */
import { RULES } from "../recommended.ts"
import type { RuleSet } from "./index.ts"

/** @internal */
export const recommended: RuleSet = {
  name: "agent-hooks:recommended",
  description:
    "Rules for what no user wants an agent to do unasked: recursive deletes of /, ~ and the project, force pushes and remote branch deletes, git resets outside the project, secrets (.env, ~/.ssh, cloud credentials, private keys), downloads piped into a shell, chmod -R of /, writes to disk devices.",
  rules: RULES.map((rule) => ({
    id: rule.id,
    list: "deny" as const,
    rules: rule.rules.length > 0 ? rule.rules : ["Bash"],
    stops: rule.stops,
    why: rule.why,
    judge: rule.judge
  }))
}
