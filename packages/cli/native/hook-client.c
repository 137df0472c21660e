/*
 * The native client of the per-user daemon of `agent-hooks hook` (portable POSIX C99, no
 * dependencies; `agent-hooks install --host <agent> --native` builds it with the machine's `cc`,
 * nothing of it is committed but this source).
 *
 *   hook-client hook --host <agent> ...   (the same arguments as `agent-hooks hook`)
 *
 * It speaks the daemon's own protocol, exactly as the Node client does (packages/cli/src/internal/
 * hookClient.ts): it finds the same socket (the same folder rules and name), checks the same things
 * (the folder is the user's own, mode 0700, not a symlink; the socket is the user's, mode 0600),
 * sends one JSON line (argv, the whole environment, cwd, umask, whether stdin is a terminal, the
 * payload's length) and the payload's bytes, says `go` after `accepted`, and writes the `done`
 * answer (stdout, stderr, exit status) as its own.
 *
 * It is never needed for correctness: on any problem (no socket, refused, busy, fallback, no answer
 * in time, a daemon that died, an answer it cannot read) it runs the call in-process, by exec'ing the
 * Node program (AH_NODE AH_BIN, compiled in) with the same argv and the same stdin bytes (an
 * unlinked temp file on fd 0, or a pipe, when it read them already). A call the daemon refused or
 * could not finish tells the program to skip the daemon (AGENT_HOOKS_DAEMON_TRIED=1, which the
 * program removes before anything reads the environment), so it runs once more, not twice.
 *
 * Strings go to the daemon as Node's JSON.stringify would send them after Node read them: bytes that
 * are not UTF-8 become U+FFFD (maximal subparts, as V8 decodes), so the daemon's hooks see exactly
 * what the in-process call's hooks would see.
 */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE
#else
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The Node program the call runs in when the daemon does not answer it (absolute paths), and the
 * version of that Node: the daemon's socket name is made of them. */
#ifndef AH_NODE
#error "build with -DAH_NODE=\"/path/to/node\" (agent-hooks install --native does)"
#endif
#ifndef AH_BIN
#error "build with -DAH_BIN=\"/path/to/@agent-hooks/cli/dist/bin.js\""
#endif
#ifndef AH_NODE_VERSION
#error "build with -DAH_NODE_VERSION=\"v22.0.0\" (the version of AH_NODE)"
#endif

/* Read by `agent-hooks doctor` from the binary: what this client runs. */
const char ah_client_config[] = "agent-hooks-native-client\n" AH_NODE "\n" AH_BIN "\n" AH_NODE_VERSION "\n";

/* How long the daemon has to accept (or refuse) a call before it runs in-process (ACCEPT_MS). */
#define ACCEPT_MS 1500
/* A Unix socket path longer than this cannot be bound on Linux (108 bytes with the NUL) nor macOS (104). */
#define MAX_SOCKET_PATH 100
/* The longest request line and payload the daemon takes (MAX_HEADER, MAX_STDIN); larger runs in-process. */
#define MAX_HEADER (8u * 1024u * 1024u)
#define MAX_STDIN (256u * 1024u * 1024u)
/* The longest answer line read from the daemon: longer is not an answer. */
#define MAX_LINE (128u * 1024u * 1024u)
#define MAX_DEPTH 64

/* What stderr says when the daemon went away with the call (the Node client's `lostLine`): whether its hooks may run twice. */
static const char DIED_STARTED[] =
    "agent-hooks: warning: the agent-hooks daemon stopped after it had started this call's hooks; the call ran again in-process, so "
    "its hooks may have run twice\n";
static const char DIED_BEFORE[] = "agent-hooks: warning: the agent-hooks daemon stopped before it started any hook of this call; the call "
                                  "ran in-process (no hook ran twice)\n";

/* ---- growable bytes ---------------------------------------------------------------------------- */

typedef struct {
  unsigned char *data;
  size_t len, cap;
  int failed;
} Buf;

static int buf_reserve(Buf *b, size_t more) {
  if (b->failed) return 0;
  if (more > SIZE_MAX / 2 - b->len) return (b->failed = 1, 0);
  if (b->len + more <= b->cap) return 1;
  size_t cap = b->cap < 256 ? 256 : b->cap;
  while (cap < b->len + more) cap *= 2;
  unsigned char *data = realloc(b->data, cap);
  if (data == NULL) return (b->failed = 1, 0);
  b->data = data;
  b->cap = cap;
  return 1;
}
static void buf_add(Buf *b, const void *bytes, size_t n) {
  if (n == 0 || !buf_reserve(b, n)) return;
  memcpy(b->data + b->len, bytes, n);
  b->len += n;
}
static void buf_str(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }
static void buf_byte(Buf *b, unsigned char c) { buf_add(b, &c, 1); }

/* ---- UTF-8 as Node reads it -------------------------------------------------------------------- */

/* Decodes `s` (n bytes) as V8 does (WHATWG: each maximal subpart of an ill-formed sequence is one
 * U+FFFD) and calls `emit` with each code point. Returns 0 when a byte was replaced. */
static int utf8_each(const unsigned char *s, size_t n, void (*emit)(void *, uint32_t), void *ctx) {
  int clean = 1;
  uint32_t cp = 0;
  unsigned needed = 0, seen = 0;
  unsigned char lower = 0x80, upper = 0xBF;
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (needed == 0) {
      i++;
      if (c < 0x80) emit(ctx, c);
      else if (c >= 0xC2 && c <= 0xDF) needed = 1, cp = c & 0x1F;
      else if (c >= 0xE0 && c <= 0xEF) {
        if (c == 0xE0) lower = 0xA0;
        if (c == 0xED) upper = 0x9F;
        needed = 2, cp = c & 0x0F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        if (c == 0xF0) lower = 0x90;
        if (c == 0xF4) upper = 0x8F;
        needed = 3, cp = c & 0x07;
      } else emit(ctx, 0xFFFD), clean = 0;
      continue;
    }
    if (c < lower || c > upper) {
      /* the sequence so far is one U+FFFD; this byte starts again (not consumed) */
      cp = 0, needed = 0, seen = 0, lower = 0x80, upper = 0xBF;
      emit(ctx, 0xFFFD), clean = 0;
      continue;
    }
    i++;
    lower = 0x80, upper = 0xBF;
    cp = (cp << 6) | (c & 0x3F);
    if (++seen == needed) emit(ctx, cp), cp = 0, needed = 0, seen = 0;
  }
  if (needed != 0) emit(ctx, 0xFFFD), clean = 0;
  return clean;
}

static void ignore_cp(void *ctx, uint32_t cp) {
  (void)ctx;
  (void)cp;
}

/* Whether Node reads `s` as the same bytes (it is UTF-8). */
static int utf8_valid(const char *s) { return utf8_each((const unsigned char *)s, strlen(s), ignore_cp, NULL); }

static void utf8_put(Buf *b, uint32_t cp) {
  unsigned char o[4];
  if (cp < 0x80) o[0] = (unsigned char)cp, buf_add(b, o, 1);
  else if (cp < 0x800) o[0] = (unsigned char)(0xC0 | cp >> 6), o[1] = (unsigned char)(0x80 | (cp & 0x3F)), buf_add(b, o, 2);
  else if (cp < 0x10000) {
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD; /* a lone surrogate: Buffer.from writes U+FFFD */
    o[0] = (unsigned char)(0xE0 | cp >> 12), o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), o[2] = (unsigned char)(0x80 | (cp & 0x3F));
    buf_add(b, o, 3);
  } else {
    o[0] = (unsigned char)(0xF0 | cp >> 18), o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    buf_add(b, o, 4);
  }
}

/* One code point as JSON.stringify writes it in a string. */
static void json_char(void *ctx, uint32_t cp) {
  Buf *b = ctx;
  static const char hex[] = "0123456789abcdef";
  switch (cp) {
    case '"': buf_str(b, "\\\""); return;
    case '\\': buf_str(b, "\\\\"); return;
    case '\b': buf_str(b, "\\b"); return;
    case '\f': buf_str(b, "\\f"); return;
    case '\n': buf_str(b, "\\n"); return;
    case '\r': buf_str(b, "\\r"); return;
    case '\t': buf_str(b, "\\t"); return;
    default: break;
  }
  if (cp < 0x20) {
    char e[7] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15], 0};
    buf_str(b, e);
  } else utf8_put(b, cp);
}

static void json_string(Buf *b, const char *s, size_t n) {
  buf_byte(b, '"');
  utf8_each((const unsigned char *)s, n, json_char, b);
  buf_byte(b, '"');
}

/* ---- the daemon's socket name (daemonSocket in hookClient.ts) ---------------------------------- */

typedef struct {
  uint32_t a, b;
} Hash;

static void hash_unit(Hash *h, uint32_t c) {
  h->a = (h->a ^ c) * 0x01000193u;
  h->b = ((h->b ^ c) * 0x01000193u) ^ (h->b >> 15);
}
/* The hash runs over UTF-16 code units (charCodeAt), of the string Node decoded. */
static void hash_cp(void *ctx, uint32_t cp) {
  Hash *h = ctx;
  if (cp >= 0x10000) {
    cp -= 0x10000;
    hash_unit(h, 0xD800 + (cp >> 10));
    hash_unit(h, 0xDC00 + (cp & 0x3FF));
  } else hash_unit(h, cp);
}
static void hash_str(Hash *h, const char *s) { utf8_each((const unsigned char *)s, strlen(s), hash_cp, h); }

/* A double as JavaScript's Number#toString writes it (the shortest digits that read back the same). */
static void js_number(double x, char *out, size_t cap) {
  char e[40], digits[24];
  int p, exp10 = 0, k = 0;
  if (x == 0) {
    snprintf(out, cap, "0");
    return;
  }
  const char *sign = x < 0 ? "-" : "";
  if (x < 0) x = -x;
  for (p = 1; p <= 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, x);
    if (strtod(e, NULL) == x) break;
  }
  for (const char *c = e; *c != 0 && *c != 'e'; c++)
    if (*c >= '0' && *c <= '9' && k < (int)sizeof digits - 1) digits[k++] = *c;
  digits[k] = 0;
  while (k > 1 && digits[k - 1] == '0') digits[--k] = 0;
  const char *at = strchr(e, 'e');
  if (at != NULL) exp10 = atoi(at + 1);
  int n = exp10 + 1;
  if (k <= n && n <= 21) snprintf(out, cap, "%s%s%.*s", sign, digits, n - k, "000000000000000000000");
  else if (0 < n && n <= 21) snprintf(out, cap, "%s%.*s.%s", sign, n, digits, digits + n);
  else if (-6 < n && n <= 0) snprintf(out, cap, "%s0.%.*s%s", sign, -n, "000000", digits);
  else if (k == 1) snprintf(out, cap, "%s%se%c%d", sign, digits, n - 1 < 0 ? '-' : '+', abs(n - 1));
  else snprintf(out, cap, "%s%c.%se%c%d", sign, digits[0], digits + 1, n - 1 < 0 ? '-' : '+', abs(n - 1));
}

/* path.join(base, rest...) for an absolute base: the normalized path ('.', '..', '//' resolved). */
static int join_path(char *out, size_t cap, const char *base, const char *rest) {
  char all[4096];
  if (snprintf(all, sizeof all, "%s/%s", base, rest) >= (int)sizeof all) return 0;
  const char *seg[512];
  size_t len[512];
  int count = 0;
  for (const char *p = all; *p != 0;) {
    while (*p == '/') p++;
    if (*p == 0) break;
    const char *end = p;
    while (*end != 0 && *end != '/') end++;
    size_t n = (size_t)(end - p);
    if (n == 1 && p[0] == '.') {
    } else if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (count > 0) count--;
    } else {
      if (count == 512) return 0;
      seg[count] = p, len[count] = n, count++;
    }
    p = end;
  }
  size_t at = 0;
  if (count == 0) {
    if (cap < 2) return 0;
    out[0] = '/', out[1] = 0;
    return 1;
  }
  for (int i = 0; i < count; i++) {
    if (at + 1 + len[i] + 1 > cap) return 0;
    out[at++] = '/';
    memcpy(out + at, seg[i], len[i]);
    at += len[i];
  }
  out[at] = 0;
  return 1;
}

/* daemonFolder: $XDG_RUNTIME_DIR/agent-hooks, else $XDG_CACHE_HOME/agent-hooks/daemon, else ~/.cache/agent-hooks/daemon. */
static int daemon_folder(char *out, size_t cap) {
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  if (runtime != NULL && runtime[0] == '/') return join_path(out, cap, runtime, "agent-hooks");
  const char *cache = getenv("XDG_CACHE_HOME");
  if (cache != NULL && cache[0] == '/') return join_path(out, cap, cache, "agent-hooks/daemon");
  const char *home = getenv("HOME");
  if (home == NULL || home[0] == 0) {
    struct passwd *pw = getpwuid(getuid());
    home = pw != NULL ? pw->pw_dir : NULL;
  }
  if (home == NULL || home[0] != '/') return 0;
  return join_path(out, cap, home, ".cache/agent-hooks/daemon");
}

#if defined(__APPLE__)
#define MTIME_NSEC(st) ((st).st_mtimespec.tv_nsec)
#else
#define MTIME_NSEC(st) ((st).st_mtim.tv_nsec)
#endif

/* daemonSocket: the folder and the socket named by this build of the CLI and this Node. 0: none. */
static int daemon_socket(char *folder, size_t folder_cap, char *sock, size_t sock_cap) {
  char bundle[4096], num[64];
  const char *slash = strrchr(AH_BIN, '/');
  if (slash == NULL || (size_t)(slash - AH_BIN) + sizeof "/agent-hooks.mjs" > sizeof bundle) return 0;
  memcpy(bundle, AH_BIN, (size_t)(slash - AH_BIN));
  strcpy(bundle + (slash - AH_BIN), "/agent-hooks.mjs");
  struct stat st;
  if (stat(bundle, &st) != 0) return 0;
  /* names Node would read differently (bytes that are not UTF-8): the Node program decides */
  const char *options = getenv("NODE_OPTIONS"), *certs = getenv("NODE_EXTRA_CA_CERTS");
  if (!daemon_folder(folder, folder_cap) || !utf8_valid(folder) || !utf8_valid(bundle)) return 0;
  Hash h = {0x811c9dc5u, 0x01000193u ^ 0x5bd1e995u};
  /* [bundle \0 size \0 mtimeMs \0 ino, execPath, version, ...execArgv (none), NODE_OPTIONS, NODE_EXTRA_CA_CERTS].join("\0") */
  hash_str(&h, bundle);
  hash_unit(&h, 0);
  js_number((double)st.st_size, num, sizeof num);
  hash_str(&h, num);
  hash_unit(&h, 0);
  js_number((double)st.st_mtime * 1000.0 + (double)MTIME_NSEC(st) / 1e6, num, sizeof num);
  hash_str(&h, num);
  hash_unit(&h, 0);
  js_number((double)st.st_ino, num, sizeof num);
  hash_str(&h, num);
  hash_unit(&h, 0);
  hash_str(&h, AH_NODE);
  hash_unit(&h, 0);
  hash_str(&h, AH_NODE_VERSION);
  hash_unit(&h, 0);
  hash_str(&h, options != NULL ? options : "");
  hash_unit(&h, 0);
  hash_str(&h, certs != NULL ? certs : "");
  int n = snprintf(sock, sock_cap, "%s/%08x%08x.sock", folder, (unsigned)h.a, (unsigned)h.b);
  return n > 0 && (size_t)n < sock_cap && n <= MAX_SOCKET_PATH;
}

/* ---- running the call in-process --------------------------------------------------------------- */

static char **g_args; /* the arguments after argv[0] */
static int g_nargs;

/* exec's the Node program with this call's arguments; `stdin_bytes` (when not NULL) become its fd 0. */
static void in_process(const Buf *stdin_bytes, int skip_daemon) {
  if (stdin_bytes != NULL) {
    int fd = -1;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    if (tmp == NULL || tmp[0] != '/' || snprintf(path, sizeof path, "%s/agent-hooks-stdin-XXXXXX", tmp) >= (int)sizeof path)
      snprintf(path, sizeof path, "/tmp/agent-hooks-stdin-XXXXXX");
    fd = mkstemp(path);
    if (fd >= 0) {
      unlink(path);
      size_t at = 0;
      while (at < stdin_bytes->len) {
        ssize_t w = write(fd, stdin_bytes->data + at, stdin_bytes->len - at);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        at += (size_t)w;
      }
      if (at != stdin_bytes->len || lseek(fd, 0, SEEK_SET) != 0) close(fd), fd = -1;
    }
    if (fd < 0) {
      /* no temp file: a pipe, written by a child of its own */
      int p[2];
      if (pipe(p) == 0) {
        pid_t writer = fork();
        if (writer == 0) {
          close(p[0]);
          size_t at = 0;
          while (at < stdin_bytes->len) {
            ssize_t w = write(p[1], stdin_bytes->data + at, stdin_bytes->len - at);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            at += (size_t)w;
          }
          _exit(0);
        }
        close(p[1]);
        if (writer > 0) fd = p[0];
        else close(p[0]);
      }
    }
    if (fd < 0) {
      fprintf(stderr, "agent-hooks: cannot hand the payload over to %s (no temp file, no pipe): %s; the call did not run\n", AH_BIN,
              strerror(errno));
      exit(2);
    }
    if (fd != 0) {
      dup2(fd, 0);
      close(fd);
    }
  }
  if (skip_daemon) setenv("AGENT_HOOKS_DAEMON_TRIED", "1", 1);
  char **argv = calloc((size_t)g_nargs + 3, sizeof *argv);
  if (argv != NULL) {
    argv[0] = (char *)AH_NODE;
    argv[1] = (char *)AH_BIN;
    for (int i = 0; i < g_nargs; i++) argv[i + 2] = g_args[i];
    execv(AH_NODE, argv);
  }
  fprintf(stderr, "agent-hooks: cannot start %s %s: %s; the call did not run (install agent-hooks again: agent-hooks install --native)\n",
          AH_NODE, AH_BIN, strerror(errno));
  exit(2);
}

/* ---- the answer -------------------------------------------------------------------------------- */

static void write_all(int fd, const unsigned char *data, size_t n) {
  size_t at = 0;
  while (at < n) {
    ssize_t w = write(fd, data + at, n - at);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) {
      struct pollfd p = {fd, POLLOUT, 0};
      poll(&p, 1, -1);
      continue;
    }
    if (w <= 0) return;
    at += (size_t)w;
  }
}

static void answer(const Buf *out, const Buf *err, long long code) {
  /* Node ignores SIGPIPE: a host that closed stdout does not change the exit status */
  signal(SIGPIPE, SIG_IGN);
  write_all(1, out->data, out->len);
  write_all(2, err->data, err->len);
  exit((int)(code & 0xFF));
}

/* ---- the daemon's replies (one JSON object a line) ---------------------------------------------- */

typedef struct {
  const unsigned char *p, *end;
} Cursor;

static void ws(Cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static int hex4(Cursor *c, uint32_t *out) {
  if (c->end - c->p < 4) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    unsigned char h = *c->p++;
    v <<= 4;
    if (h >= '0' && h <= '9') v |= h - '0';
    else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
    else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
    else return 0;
  }
  *out = v;
  return 1;
}

static void put_cp(void *ctx, uint32_t cp) { utf8_put(ctx, cp); }

/* A JSON string at the cursor, as the UTF-8 bytes Buffer.from(string) writes (out may be NULL: skipped). */
static int json_parse_string(Cursor *c, Buf *out) {
  if (c->p >= c->end || *c->p != '"') return 0;
  c->p++;
  while (c->p < c->end) {
    unsigned char ch = *c->p++;
    if (ch == '"') return 1;
    if (ch < 0x20) return 0;
    if (ch >= 0x80) {
      /* a run of non-ASCII bytes: decoded as Node decodes the line (each ill-formed subpart one U+FFFD) */
      const unsigned char *run = c->p - 1;
      while (c->p < c->end && *c->p >= 0x80) c->p++;
      if (out != NULL) utf8_each(run, (size_t)(c->p - run), put_cp, out);
      continue;
    }
    if (ch != '\\') {
      if (out != NULL) buf_byte(out, ch);
      continue;
    }
    if (c->p >= c->end) return 0;
    unsigned char e = *c->p++;
    uint32_t cp;
    switch (e) {
      case '"': cp = '"'; break;
      case '\\': cp = '\\'; break;
      case '/': cp = '/'; break;
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        if (!hex4(c, &cp)) return 0;
        if (cp >= 0xD800 && cp <= 0xDBFF && c->end - c->p >= 6 && c->p[0] == '\\' && c->p[1] == 'u') {
          Cursor look = {c->p + 2, c->end};
          uint32_t low;
          if (hex4(&look, &low) && low >= 0xDC00 && low <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            c->p = look.p;
          }
        }
        break;
      default: return 0;
    }
    if (out != NULL) utf8_put(out, cp);
  }
  return 0;
}

static int json_parse_number(Cursor *c, double *out) {
  const unsigned char *start = c->p;
  if (c->p < c->end && *c->p == '-') c->p++;
  if (c->p >= c->end) return 0;
  if (*c->p == '0') c->p++;
  else if (*c->p >= '1' && *c->p <= '9')
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  else return 0;
  if (c->p < c->end && *c->p == '.') {
    c->p++;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  }
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
    c->p++;
    if (c->p < c->end && (*c->p == '+' || *c->p == '-')) c->p++;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  }
  if (out == NULL) return 1;
  /* the whole number, however long it is written (JSON.parse reads all of it: 0.000…2e71 is 2) */
  char small[64], *text = small;
  size_t n = (size_t)(c->p - start);
  if (n >= sizeof small && (text = malloc(n + 1)) == NULL) return 0;
  memcpy(text, start, n);
  text[n] = 0;
  *out = strtod(text, NULL);
  if (text != small) free(text);
  return 1;
}

static int json_skip(Cursor *c, int depth);

static int literal(Cursor *c, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return 0;
  c->p += n;
  return 1;
}

static int json_skip(Cursor *c, int depth) {
  if (depth > MAX_DEPTH) return 0;
  ws(c);
  if (c->p >= c->end) return 0;
  switch (*c->p) {
    case '"': return json_parse_string(c, NULL);
    case 't': return literal(c, "true");
    case 'f': return literal(c, "false");
    case 'n': return literal(c, "null");
    case '[':
      c->p++;
      ws(c);
      if (c->p < c->end && *c->p == ']') return c->p++, 1;
      for (;;) {
        if (!json_skip(c, depth + 1)) return 0;
        ws(c);
        if (c->p >= c->end) return 0;
        if (*c->p == ']') return c->p++, 1;
        if (*c->p++ != ',') return 0;
      }
    case '{':
      c->p++;
      ws(c);
      if (c->p < c->end && *c->p == '}') return c->p++, 1;
      for (;;) {
        ws(c);
        if (!json_parse_string(c, NULL)) return 0;
        ws(c);
        if (c->p >= c->end || *c->p++ != ':') return 0;
        if (!json_skip(c, depth + 1)) return 0;
        ws(c);
        if (c->p >= c->end) return 0;
        if (*c->p == '}') return c->p++, 1;
        if (*c->p++ != ',') return 0;
      }
    default: return json_parse_number(c, NULL);
  }
}

/* The fields of a reply this client reads. A field seen twice counts as its last value (JSON.parse). */
typedef struct {
  Buf t, stdout_, stderr_;
  int has_t, has_stdout, has_stderr, has_code, code_ok;
  double code;
  int has_guard, guard_ok;
  Buf g_stdout, g_stderr;
  double g_code, g_ms;
} Reply;

static void reply_free(Reply *r) {
  free(r->t.data), free(r->stdout_.data), free(r->stderr_.data), free(r->g_stdout.data), free(r->g_stderr.data);
  memset(r, 0, sizeof *r);
}

static int key_is(const Buf *key, const char *name) { return key->len == strlen(name) && memcmp(key->data, name, key->len) == 0; }

/* A string field: its value, or 0 for "something else" (flagged through *ok). */
static int field_string(Cursor *c, Buf *out, int *has, int *ok) {
  ws(c);
  out->len = 0;
  *has = 1;
  if (c->p < c->end && *c->p == '"') return json_parse_string(c, out) && (*ok = 1, 1);
  *ok = 0;
  return json_skip(c, 1);
}

/* An exit status a process can have, 0 to 255, written as any JSON number (2, 2.0, 0.02e2); the Node
 * client's isExitStatus. Anything else (1e400, 256, -1, 2.5) is an answer this client cannot read. */
static int exit_status(double code) { return code >= 0 && code <= 255 && code == (double)(int)code; }

/* The guard: {"stdout": string, "stderr": string, "exitCode": 0 to 255, "ms": a finite number}. */
static int parse_guard(Cursor *c, Reply *r) {
  ws(c);
  r->has_guard = 1;
  r->guard_ok = 0;
  if (c->p >= c->end || *c->p != '{') return json_skip(c, 1);
  int so = 0, se = 0, co = 0, mo = 0;
  c->p++;
  ws(c);
  if (c->p < c->end && *c->p == '}') return c->p++, 1;
  for (;;) {
    Buf key = {0};
    ws(c);
    if (!json_parse_string(c, &key)) return free(key.data), 0;
    ws(c);
    if (c->p >= c->end || *c->p++ != ':') return free(key.data), 0;
    ws(c);
    int ok = 1, has = 0;
    if (key_is(&key, "stdout")) {
      if (!field_string(c, &r->g_stdout, &has, &ok)) return free(key.data), 0;
      so = ok;
    } else if (key_is(&key, "stderr")) {
      if (!field_string(c, &r->g_stderr, &has, &ok)) return free(key.data), 0;
      se = ok;
    } else if (key_is(&key, "exitCode") || key_is(&key, "ms")) {
      double *at = key_is(&key, "ms") ? &r->g_ms : &r->g_code;
      int *flag = key_is(&key, "ms") ? &mo : &co;
      if (c->p < c->end && (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))) {
        if (!json_parse_number(c, at)) return free(key.data), 0;
        *flag = 1;
      } else {
        if (!json_skip(c, 2)) return free(key.data), 0;
        *flag = 0;
      }
    } else if (!json_skip(c, 2)) return free(key.data), 0;
    free(key.data);
    ws(c);
    if (c->p >= c->end) return 0;
    if (*c->p == '}') break;
    if (*c->p++ != ',') return 0;
  }
  c->p++;
  r->guard_ok = so && se && co && mo && exit_status(r->g_code) && r->g_ms - r->g_ms == 0; /* ms finite (inf - inf is NaN) */
  return 1;
}

/* Parses one reply line; 0 when it is not one JSON object. */
static int parse_reply(const unsigned char *line, size_t n, Reply *r) {
  Cursor c = {line, line + n};
  memset(r, 0, sizeof *r);
  ws(&c);
  if (c.p >= c.end || *c.p != '{') return 0;
  c.p++;
  ws(&c);
  if (c.p < c.end && *c.p == '}') {
    c.p++;
  } else
    for (;;) {
      Buf key = {0};
      ws(&c);
      if (!json_parse_string(&c, &key)) return free(key.data), 0;
      ws(&c);
      if (c.p >= c.end || *c.p++ != ':') return free(key.data), 0;
      ws(&c);
      int ok = 1;
      if (key_is(&key, "t")) {
        if (!field_string(&c, &r->t, &r->has_t, &ok)) return free(key.data), 0;
        if (!ok) r->has_t = 0;
      } else if (key_is(&key, "stdout")) {
        if (!field_string(&c, &r->stdout_, &r->has_stdout, &ok)) return free(key.data), 0;
        if (!ok) r->has_stdout = 2;
      } else if (key_is(&key, "stderr")) {
        if (!field_string(&c, &r->stderr_, &r->has_stderr, &ok)) return free(key.data), 0;
        if (!ok) r->has_stderr = 2;
      } else if (key_is(&key, "exitCode")) {
        r->has_code = 1;
        if (c.p < c.end && (*c.p == '-' || (*c.p >= '0' && *c.p <= '9'))) {
          if (!json_parse_number(&c, &r->code)) return free(key.data), 0;
          r->code_ok = 1;
        } else {
          if (!json_skip(&c, 1)) return free(key.data), 0;
          r->code_ok = 0;
        }
      } else if (key_is(&key, "guard")) {
        if (!parse_guard(&c, r)) return free(key.data), 0;
      } else if (!json_skip(&c, 1)) return free(key.data), 0;
      free(key.data);
      ws(&c);
      if (c.p >= c.end) return 0;
      if (*c.p == '}') {
        c.p++;
        break;
      }
      if (*c.p++ != ',') return 0;
    }
  ws(&c);
  return c.p == c.end && !r->t.failed && !r->stdout_.failed && !r->stderr_.failed && !r->g_stdout.failed && !r->g_stderr.failed;
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Padded base64 (the daemon's stdout and stderr), as the Node client's isBase64 takes it: groups of 4
 * of `A-Z a-z 0-9 + /`, the last one ending in `=` or `==`; 0 for anything else (url-safe letters,
 * missing padding, padding inside). */
static int b64_decode(const Buf *in, Buf *out) {
  size_t n = in->len, pad = 0;
  if (n % 4 != 0) return 0;
  if (n > 0 && in->data[n - 1] == '=') pad = in->data[n - 2] == '=' ? 2 : 1;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n - pad; i++) {
    int v = b64_value(in->data[i]);
    if (v < 0) return 0;
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf_byte(out, (unsigned char)(acc >> bits));
      acc &= (1u << bits) - 1;
    }
  }
  return !out->failed;
}

/* ---- one call through the daemon --------------------------------------------------------------- */

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
static long long g_start_ms;

static int env_off(const char *v) {
  if (v == NULL) return 0;
  static const char *const words[] = {"0", "false", "no", "off"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
    size_t n = strlen(words[i]), j = 0;
    if (strlen(v) != n) continue;
    while (j < n && (v[j] | 0x20) == words[i][j]) j++;
    if (j == n) return 1;
  }
  return 0;
}

/* The whole of stdin; a terminal counts as empty. 0: it could not be read. */
static int read_stdin(Buf *in, int *is_terminal) {
  *is_terminal = isatty(0);
  if (*is_terminal) return 1;
  for (;;) {
    if (!buf_reserve(in, 65536)) return 0;
    ssize_t r = read(0, in->data + in->len, 65536);
    if (r > 0) {
      /* all of it, even past MAX_STDIN: the call then runs in-process with every byte */
      in->len += (size_t)r;
      continue;
    }
    if (r == 0) return 1;
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      /* a non-blocking pipe with nothing in it yet */
      struct pollfd p = {0, POLLIN, 0};
      poll(&p, 1, -1);
      continue;
    }
    return 0;
  }
}

/* The request line: {"v":1,"argv":[…],"env":{…},"cwd":…,"umask":…,"stdinIsTerminal":…,"stdinLength":…}. */
static void request_line(Buf *b, int is_terminal, size_t length) {
  char num[160];
  buf_str(b, "{\"v\":1,\"argv\":[");
  for (int i = 0; i < g_nargs; i++) {
    if (i > 0) buf_byte(b, ',');
    json_string(b, g_args[i], strlen(g_args[i]));
  }
  buf_str(b, "],\"env\":{");
  int first = 1;
  for (char **e = environ; *e != NULL; e++) {
    const char *eq = strchr(*e, '=');
    if (eq == NULL || eq == *e) continue;
    size_t name = (size_t)(eq - *e);
    /* a name set twice: Node reads its first value */
    int dup = 0;
    for (char **f = environ; f != e && !dup; f++) dup = strncmp(*f, *e, name + 1) == 0;
    if (dup) continue;
    if (!first) buf_byte(b, ',');
    first = 0;
    json_string(b, *e, name);
    buf_byte(b, ':');
    json_string(b, eq + 1, strlen(eq + 1));
  }
  buf_str(b, "},\"cwd\":");
  char cwd[8192];
  if (getcwd(cwd, sizeof cwd) == NULL) b->failed = 1;
  else json_string(b, cwd, strlen(cwd));
  mode_t mask = umask(0);
  umask(mask);
  snprintf(num, sizeof num, ",\"umask\":%u,\"stdinIsTerminal\":%s,\"stdinLength\":%lu,\"started\":true}\n", (unsigned)mask, is_terminal ? "true" : "false",
           (unsigned long)length);
  buf_str(b, num);
}

enum { RUN_PLAIN, RUN_SKIP, RUN_AGAIN };

/* Connects to the socket; -1 when nobody listens there (a daemon that was killed: the Node program starts one). */
static int connect_socket(const char *path, int *stale) {
  *stale = 0;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  fcntl(fd, F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr.sun_path) return close(fd), -1;
  strcpy(addr.sun_path, path);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    if (errno == ECONNREFUSED || errno == ENOENT) *stale = 1;
    if (errno != EINPROGRESS) return close(fd), -1;
    struct pollfd p = {fd, POLLOUT, 0};
    int error = 0;
    socklen_t len = sizeof error;
    if (poll(&p, 1, ACCEPT_MS) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0) {
      if (error == ECONNREFUSED) *stale = 1;
      return close(fd), -1;
    }
  }
  return fd;
}

#ifdef MSG_NOSIGNAL
#define SEND_FLAGS MSG_NOSIGNAL
#else
#define SEND_FLAGS 0
#endif

int main(int argc, char **argv) {
  g_start_ms = now_ms();
  g_args = argv + 1;
  g_nargs = argc - 1;
  /* The Node program asks the daemon only for `hook`, never for --help (it reads no stdin). */
  int daemon = g_nargs >= 1 && strcmp(g_args[0], "hook") == 0 && !env_off(getenv("AGENT_HOOKS_DAEMON")) &&
               getenv("AGENT_HOOKS_DAEMON_TRIED") == NULL;
  for (int i = 0; daemon && i < g_nargs; i++)
    if (strcmp(g_args[i], "--help") == 0 || strcmp(g_args[i], "-h") == 0) daemon = 0;
  char folder[4096], sock[4096];
  if (!daemon || !daemon_socket(folder, sizeof folder, sock, sizeof sock)) in_process(NULL, 0);
  /* The folder the user's own, 0700, not a symlink; the socket the user's own with mode 0600. Anything
   * else: the Node program says what is wrong and runs the call (or starts a daemon where there is none). */
  struct stat st;
  if (lstat(folder, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0) in_process(NULL, 0);
  if (lstat(sock, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 0177) != 0) in_process(NULL, 0);
  int stale;
  int fd = connect_socket(sock, &stale);
  if (fd < 0) in_process(NULL, !stale);

  Buf in = {0}, req = {0};
  int is_terminal;
  if (!read_stdin(&in, &is_terminal)) {
    /* stdin cannot be read (closed): the Node program meets the same stdin */
    close(fd);
    in_process(NULL, 1);
  }
  if (in.failed || in.len > MAX_STDIN) {
    close(fd);
    if (in.failed) {
      fprintf(stderr, "agent-hooks: out of memory reading the payload; the call did not run\n");
      exit(2);
    }
    in_process(&in, 1);
  }
  request_line(&req, is_terminal, in.len);
  if (req.failed || req.len > MAX_HEADER) close(fd), in_process(is_terminal ? NULL : &in, 1);

  long long deadline = now_ms() + ACCEPT_MS, guard_at = -1;
  size_t sent = 0, total = req.len + in.len;
  int accepted = 0;
  /* the daemon said the call's first hook started: a call run again may run hooks twice */
  int started = 0;
  Buf line = {0};
  Reply guard = {0};
  for (;;) {
    long long now = now_ms();
    int timeout;
    if (!accepted) {
      if (now >= deadline) break; /* not accepted in time */
      timeout = (int)(deadline - now);
    } else if (guard_at >= 0) {
      if (now >= guard_at) {
        /* the daemon is stuck: the answer the in-process call's last resort writes */
        close(fd);
        answer(&guard.g_stdout, &guard.g_stderr, (long long)guard.g_code);
      }
      timeout = (int)(guard_at - now);
    } else timeout = -1;
    struct pollfd p = {fd, (short)(POLLIN | (sent < total ? POLLOUT : 0)), 0};
    int ready = poll(&p, 1, timeout);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    if (ready == 0) continue;
    if ((p.revents & POLLOUT) && sent < total) {
      const unsigned char *from = sent < req.len ? req.data + sent : in.data + (sent - req.len);
      size_t n = sent < req.len ? req.len - sent : total - sent;
      ssize_t w = send(fd, from, n, SEND_FLAGS);
      if (w > 0) sent += (size_t)w;
      else if (w < 0 && errno != EAGAIN && errno != EINTR && !(p.revents & POLLIN)) break;
    }
    if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
    if (!buf_reserve(&line, 65536)) break;
    ssize_t r = recv(fd, line.data + line.len, 65536, 0);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (r <= 0) break; /* closed, or an error */
    size_t scan = line.len;
    line.len += (size_t)r;
    for (;;) {
      unsigned char *nl = memchr(line.data + scan, '\n', line.len - scan);
      if (nl == NULL) break;
      size_t n = (size_t)(nl - line.data);
      Reply reply;
      int ok = parse_reply(line.data, n, &reply);
      int is = ok && reply.has_t;
      if (is && !accepted && key_is(&reply.t, "accepted")) {
        if (reply.has_guard && !reply.guard_ok) {
          reply_free(&reply);
          goto give_up;
        }
        /* From here this client waits for the daemon's answer (it runs the call): `go` says so. */
        accepted = 1;
        if (send(fd, "go\n", 3, SEND_FLAGS) != 3) {
          reply_free(&reply);
          goto give_up;
        }
        if (reply.has_guard) {
          reply_free(&guard);
          guard = reply;
          double ms = guard.g_ms > 1e12 ? 1e12 : guard.g_ms;
          guard_at = g_start_ms + (long long)(ms < 0 ? 0 : ms);
        } else reply_free(&reply);
      } else if (is && accepted && key_is(&reply.t, "started")) {
        started = 1;
        reply_free(&reply);
      } else if (is && accepted && key_is(&reply.t, "done") && reply.has_stdout == 1 && reply.has_stderr == 1 && reply.has_code &&
                 reply.code_ok && exit_status(reply.code)) {
        /* the Node client's wellFormed: both texts padded base64, an exit status 0 to 255; anything else runs the call again */
        Buf out = {0}, err = {0};
        if (!b64_decode(&reply.stdout_, &out) || !b64_decode(&reply.stderr_, &err)) {
          reply_free(&reply);
          goto give_up;
        }
        close(fd);
        answer(&out, &err, (long long)reply.code);
      } else {
        if (ok) reply_free(&reply);
        goto give_up;
      }
      memmove(line.data, nl + 1, line.len - n - 1);
      line.len -= n + 1;
      scan = 0;
    }
    if (line.len > MAX_LINE) break;
  }
give_up:
  close(fd);
  if (accepted && started) write_all(2, (const unsigned char *)DIED_STARTED, sizeof DIED_STARTED - 1);
  else if (accepted) write_all(2, (const unsigned char *)DIED_BEFORE, sizeof DIED_BEFORE - 1);
  in_process(is_terminal ? NULL : &in, 1);
  return 2;
}
