# Helpers sourced by the example hooks. POSIX sh; JSON is read with `node -e` (no jq needed).

# The hook's input, read once from stdin.
HOOK_INPUT=$(cat)

# json_get PATH: prints the value at PATH (dot-separated, e.g. tool_input.command) of the input;
# strings as they are, other values as JSON, nothing when missing.
json_get() {
  printf '%s' "$HOOK_INPUT" | node -e '
    let text = ""
    process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
      let value = JSON.parse(text || "{}")
      for (const key of process.argv[1].split(".")) value = value == null ? undefined : value[key]
      if (value != null) process.stdout.write(typeof value === "string" ? value : JSON.stringify(value))
    })' "$1"
}

# json_string TEXT: TEXT as a JSON string literal.
json_string() {
  node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$1"
}

# Where the examples may write: $AGENT_HOOKS_EXAMPLE_LOG_DIR, else <project>/.agent-hooks-tmp (git-ignored).
log_dir() {
  dir=${AGENT_HOOKS_EXAMPLE_LOG_DIR:-${AGENT_HOOKS_PROJECT_DIR:-.}/.agent-hooks-tmp}
  mkdir -p "$dir"
  printf '%s' "$dir"
}
