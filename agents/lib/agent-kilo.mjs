// Kilo CLI (`@kilocode/cli`), a fork of opencode, driven as opencode (lib/agent-opencode.mjs): the
// same opencode.json, `kilo run`; agent-hooks' plugin in `.kilo/plugin/` (Kilo ignores `.opencode/`).
import { opencodeLike } from "./agent-opencode.mjs"

export const kilo = opencodeLike({
  name: "kilo",
  title: "Kilo CLI",
  pkg: "@kilocode/cli",
  bin: "kilo",
  folder: ".kilo",
  userFolder: "kilo"
})
