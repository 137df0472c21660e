// Kilo CLI (`@kilocode/cli`), a fork of opencode, driven as opencode (lib/agent-opencode.mjs): the
// same opencode.json, `kilo run`; agent-hooks' plugin in `.kilo/plugin/` (Kilo ignores `.opencode/`).
import { opencodeLike } from "./agent-opencode.mjs"

export const kilo = opencodeLike({
  name: "kilo",
  title: "Kilo CLI",
  pkg: "@kilocode/cli",
  bin: "kilo",
  folder: ".kilo",
  userFolder: "kilo",
  // Kilo's own switches for what reaches models.dev, its telemetry and its service on start; its
  // service's address (KILO_API_URL, asked for its models at start) is the model server's
  env: (url) => ({
    KILO_API_URL: url,
    KILO_DISABLE_MODELS_FETCH: "1",
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_DISABLE_SHARE: "1",
    KILO_DISABLE_SESSION_INGEST: "1",
    KILO_DISABLE_PRESENCE: "1",
    KILO_DISABLE_CODEBASE_INDEXING: "1",
    KILO_TELEMETRY_LEVEL: "off",
    KILO_NO_DAEMON: "1"
  })
})
