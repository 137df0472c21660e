/*
 * The machine's floor for the perf bench (bench/perf.ts builds it into a temporary directory with
 * `cc` when one is installed; nothing of it is committed but this source).
 *
 *   spawn-floor <samples per round> <rounds> <payload>
 *
 * Spawns `/bin/sh -c true` the way every hook is spawned, with nothing of a runtime around it:
 * posix_spawn (vfork, no copy of the parent's memory), a session and process group of its own,
 * the payload on a stdin pipe, stdout and stderr piped and read to their end, the group killed
 * after. Rounds are interleaved like the bench's workers: each round takes one sample of "raw
 * spawn" (one at a time) and of "5 raw spawns at once" in turn. Prints the bench's rows (JSON) on
 * stdout: per-round medians in microseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

static const char *payload = "";

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

struct hook {
  pid_t pid;
  int out, err;
};

static int start(struct hook *h) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
  char *argv[] = {"/bin/sh", "-c", "true", NULL};
  int rc = posix_spawn(&h->pid, "/bin/sh", &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) return -1;
  /* The payload, then EOF (a hook that does not read it makes EPIPE, ignored). */
  size_t left = strlen(payload);
  const char *p = payload;
  while (left > 0) {
    ssize_t n = write(in[1], p, left);
    if (n <= 0) break;
    p += n;
    left -= (size_t)n;
  }
  close(in[1]);
  h->out = out[0];
  h->err = err[0];
  return 0;
}

/* Both pipes of every hook read to their end, then each one reaped and its group killed. */
static int finish(struct hook *hs, int n) {
  struct pollfd fds[16];
  int open = 0;
  for (int i = 0; i < n; i++) {
    fds[2 * i] = (struct pollfd){.fd = hs[i].out, .events = POLLIN};
    fds[2 * i + 1] = (struct pollfd){.fd = hs[i].err, .events = POLLIN};
    open += 2;
  }
  char buf[4096];
  while (open > 0) {
    if (poll(fds, (nfds_t)(2 * n), -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    for (int i = 0; i < 2 * n; i++) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      if (read(fds[i].fd, buf, sizeof buf) <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open--;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    int status;
    if (waitpid(hs[i].pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    kill(-hs[i].pid, SIGKILL);
  }
  return 0;
}

static double sample(int n) {
  struct hook hs[8];
  double t = now_us();
  for (int i = 0; i < n; i++)
    if (start(&hs[i]) != 0) return -1;
  if (finish(hs, n) != 0) return -1;
  return now_us() - t;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *xs, int n) {
  qsort(xs, (size_t)n, sizeof *xs, by_value);
  return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: spawn-floor <samples per round> <rounds> <payload>\n");
    return 2;
  }
  int samples = atoi(argv[1]), rounds = atoi(argv[2]);
  if (samples < 1 || samples > 10000 || rounds < 1 || rounds > 100) return 2;
  payload = argv[3];
  signal(SIGPIPE, SIG_IGN);
  for (int i = 0; i < 10; i++)
    if (sample(1) < 0 || sample(5) < 0) {
      perror("spawn-floor: a spawn of /bin/sh -c true failed");
      return 1;
    }
  /* The resident memory when measuring starts, like the workers' RSS column. */
  long resident = 0, size = 0;
  FILE *statm = fopen("/proc/self/statm", "r");
  if (statm) {
    if (fscanf(statm, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(statm);
  }
  long rss_mb = (resident * sysconf(_SC_PAGESIZE) + (1 << 20) - 1) >> 20;
  double *one = calloc((size_t)samples, sizeof *one), *five = calloc((size_t)samples, sizeof *five);
  double *ones = calloc((size_t)rounds, sizeof *ones), *fives = calloc((size_t)rounds, sizeof *fives);
  if (!one || !five || !ones || !fives) return 1;
  for (int r = 0; r < rounds; r++) {
    for (int s = 0; s < samples; s++) {
      one[s] = sample(1);
      five[s] = sample(5);
      if (one[s] < 0 || five[s] < 0) {
        perror("spawn-floor: a spawn of /bin/sh -c true failed");
        return 1;
      }
    }
    ones[r] = median(one, samples);
    fives[r] = median(five, samples);
  }
  const char *names[] = {"raw spawn", "5 raw spawns at once"};
  double *values[] = {ones, fives};
  printf("[");
  for (int k = 0; k < 2; k++) {
    printf("%s{\"worker\":\"C (posix_spawn)\",\"runtime\":\"c\",\"heapMB\":0,\"set\":\"floor\",\"rssMB\":%ld,\"name\":\"%s\",\"rounds\":[", k ? "," : "", rss_mb, names[k]);
    for (int r = 0; r < rounds; r++) printf("%s%.2f", r ? "," : "", values[k][r]);
    printf("]}");
  }
  printf("]\n");
  return 0;
}
