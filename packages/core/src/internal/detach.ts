/**
 * Detaching a process (`ProcessRequest.detached`): the launcher every spawner starts instead of the
 * request, as data (a POSIX shell script), so that no executor and no runtime knows about setsid.
 *
 * The launcher (`/bin/sh -c LAUNCHER`) reads the payload (stdin) whole and copies the value files
 * the spawner wrote into a folder of the hook's own, starts a runner in a session of its own
 * (`setsid`; else perl's setsid; else job control where it is on) and exits 0: the host sees the
 * launcher's exit, never the hook's. It exits 126 with a line on stderr when it cannot detach.
 *
 * The runner (in the new session) starts the hook in a process group of its own, payload on stdin,
 * stdout to /dev/null, the last bytes of stderr kept (through a FIFO to `tail`, so a hook printing
 * without end fills no disk), SIGHUP and SIGINT ignored; a watchdog ends the hook's group at the
 * cap (TERM, then KILL 2 s later). When the hook ends the runner kills what it left in its group
 * and, given a log, appends one JSON line to it: the engine's fields, then how the hook really
 * ended (exit code or signal, duration, status, whether the cap ended it, the stderr tail). The
 * runner does it itself, so it is written after the host has exited; the stderr tail is made valid
 * UTF-8 and escaped for JSON whatever bytes the hook wrote (a payload value a hook echoes can
 * neither forge a line nor make the log unreadable to a strict reader).
 *
 * @internal
 */

/** How many bytes of a detached hook's stderr its end record keeps (the last ones). */
export const STDERR_TAIL_BYTES = 1024

/**
 * The runner, in the new session: `$0` is its name; `$1` cap seconds, `$2` the hook's folder, `$3`
 * how to start a group (`setsid`, `perl` or `jobs`), `$4` the log (or empty), `$5` the record's
 * start (a JSON object's text without its closing brace); then the hook's file and arguments.
 */
const RUNNER = String.raw`cap=$1; d=$2; group=$3; log=$4; record=$5; shift 5
trap '' HUP INT
ms() { n=$(date +%s%N 2>/dev/null); case $n in ''|*[!0-9]*) n=$(date +%s 2>/dev/null)000 ;; *) n=${"$"}{n%??????} ;; esac; echo "$n"; }
t0=$(ms)
err=/dev/null; t=
if [ -n "$log" ] && command -v mkfifo >/dev/null 2>&1 && command -v tail >/dev/null 2>&1 && mkfifo "$d/err" 2>/dev/null; then
  tail -c ${STDERR_TAIL_BYTES} <"$d/err" >"$d/tail" 2>/dev/null & t=$!; err=$d/err
fi
case $group in
setsid) setsid "$@" <"$d/stdin" >/dev/null 2>"$err" & ;;
perl) perl -e 'use POSIX (); POSIX::setsid(); exec @ARGV or exit($!{ENOENT} ? 127 : 126)' "$@" <"$d/stdin" >/dev/null 2>"$err" & ;;
*) "$@" <"$d/stdin" >/dev/null 2>"$err" & ;;
esac
c=$!
(trap '' TERM; sleep "$cap"; : >"$d/capped"
  kill -TERM -$c 2>/dev/null || kill -TERM $c; sleep 2; kill -KILL -$c 2>/dev/null || kill -KILL $c) </dev/null >/dev/null 2>&1 &
wait "$c"; rc=$?
kill -KILL -$c 2>/dev/null
if [ -n "$t" ]; then (sleep 2; kill -KILL $t) </dev/null >/dev/null 2>&1 & k=$!; wait "$t"; kill -KILL $k 2>/dev/null; fi
if [ -n "$log" ]; then
  t1=$(ms); code=$rc; signal=null; timedout=false
  if [ "$rc" -gt 128 ] && name=$(kill -l "$rc" 2>/dev/null) && [ -n "$name" ]; then code=null; signal="\"SIG${"$"}{name#SIG}\""; fi
  if [ -e "$d/capped" ]; then timedout=true; status=cancelled; why="timed out after $cap s: its process group was killed"
  elif [ "$code" = 0 ]; then status=success; why=
  elif [ "$code" = 2 ]; then status=blocking-error; why="exit 2"
  elif [ "$code" = null ]; then status=non-blocking-error; why="killed by SIG${"$"}{name#SIG}"
  else status=non-blocking-error; why="exit $code"; fi
  text=; bsn='\n'; first=1
  if [ -n "$t" ] && [ -n "$why" ]; then
    # Valid UTF-8 only (the tail may begin inside a character): iconv drops what is not, else every non-ASCII byte goes.
    utf8() { if command -v iconv >/dev/null 2>&1; then iconv -c -f UTF-8 -t UTF-8 2>/dev/null; else LC_ALL=C tr -d '\200-\377'; fi; }
    escaped=$(utf8 <"$d/tail" | tr -d '\000-\010\013-\037\177' 2>/dev/null | tr '\t' ' ' 2>/dev/null | sed 's/[\\"]/\\&/g' 2>/dev/null)
    while IFS= read -r line; do
      if [ -z "$first" ]; then text="$text$bsn"; fi
      first=; text="$text$line"
    done <<EOF
$escaped
EOF
  fi
  if [ -z "$why" ]; then error=null; elif [ -z "$text" ]; then error="\"$why\""; else error="\"$why: $text\""; fi
  case $log in */*) dir=${"$"}{log%/*}; [ -z "$dir" ] || [ -d "$dir" ] || mkdir -p "$dir" 2>/dev/null ;; esac
  printf '%s,"exitCode":%s,"signal":%s,"duration_ms":%s,"status":"%s","timedOut":%s,"blocked":false,"error":%s,"detached":"ended"}\n' \
    "$record" "$code" "$signal" "$((t1 - t0))" "$status" "$timedout" "$error" >>"$log"
fi
rm -rf "$d"
kill -KILL 0`

/**
 * The launcher, as the spawner starts it: `$0` its name; `$1` the runner's script, `$2` cap
 * seconds, `$3` the names of the variables that hold value files (the spawner's own, checked), `$4`
 * the log (or empty), `$5` the record's start; then the hook's file and arguments.
 */
const LAUNCHER = String.raw`runner=$1; cap=$2; vars=$3; log=$4; record=$5; shift 5
d=$(mktemp -d) || exit 126
# The payload is read whole before the launcher exits: the host stops writing stdin when it has.
cat > "$d/stdin" || { rm -rf "$d"; exit 126; }
for v in $vars; do eval "cp -- \"\$$v\" \"\$d/$v\"" || { rm -rf "$d"; exit 126; }; eval "$v=\$d/$v; export $v"; done
# setsid where it exists (a new session and group), else perl's setsid(2), else job control where it
# is on (a terminal); else the hook would stay in the launcher's group and die with it unseen.
if command -v setsid >/dev/null 2>&1; then group=setsid
elif command -v perl >/dev/null 2>&1; then group=perl
else
  set -m 2>/dev/null
  case $- in
  *m*) group=jobs ;;
  *) rm -rf "$d"
    echo "agent-hooks: the hook cannot be detached here (no setsid, no perl, and no job control without a terminal);" \
      "the detached hook did not start" >&2
    exit 126 ;;
  esac
fi
# The runner is out of the launcher's group before the launcher exits (setsid runs in the
# foreground; job control sets the group at the fork): the host kills the launcher's group as soon
# as it exits, and a runner still on its way out of it would die unseen.
start='r=$0; /bin/sh -c "$r" agent-hooks-detached "$@" </dev/null >/dev/null 2>&1 &'
case $group in
setsid) setsid /bin/sh -c "$start" "$runner" "$cap" "$d" "$group" "$log" "$record" "$@" </dev/null >/dev/null 2>&1 ;;
perl) perl -e 'use POSIX (); POSIX::setsid(); exec @ARGV or exit 127' \
  /bin/sh -c "$start" "$runner" "$cap" "$d" "$group" "$log" "$record" "$@" </dev/null >/dev/null 2>&1 ;;
*) /bin/sh -c "$start" "$runner" "$cap" "$d" "$group" "$log" "$record" "$@" </dev/null >/dev/null 2>&1 & ;;
esac`

/** A shell variable name: what the launcher may `eval` (the spawner's value-file variables). */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The longest record start handed to the launcher: an argument stays far below the system's limits. */
export const MAX_RECORD_CHARS = 8 * 1024

/**
 * The request the spawner starts for a detached `request`: the launcher, with the hook's file and
 * arguments. `undefined` when a value-file variable is not a plain name (never the engine's).
 *
 * @internal
 */
export const launcherArgs = (request: {
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly files?: ReadonlyArray<{ readonly env: string }> | undefined
  readonly detached: { readonly capSeconds: number; readonly logTo?: { readonly file: string; readonly record: string } | undefined }
}): { readonly file: string; readonly args: ReadonlyArray<string> } | undefined => {
  const vars = (request.files ?? []).map((file) => file.env)
  if (vars.some((name) => !VARIABLE.test(name))) return undefined
  const { capSeconds, logTo } = request.detached
  const record = logTo === undefined || logTo.record.length > MAX_RECORD_CHARS || !logTo.record.startsWith("{") ? "" : logTo.record
  return {
    file: "/bin/sh",
    args: [
      "-c",
      LAUNCHER,
      "agent-hooks-detach",
      RUNNER,
      String(Math.max(1, Math.ceil(capSeconds))),
      vars.join(" "),
      record === "" ? "" : logTo!.file,
      record,
      request.file,
      ...request.args
    ]
  }
}
