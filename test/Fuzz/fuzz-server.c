/*===-- fuzz-server.c - fa-opt as a fork server for the fuzzer ------------===*\
|* fuzz.py runs every mutant through fa-opt three or four times; starting    *|
|* fa-opt (LLVM's static initialisers, libMLIR) costs more than most of      *|
|* those runs. This server starts once and forks a child per run: the child  *|
|* calls faOptMain, the same driver fa-opt is, with the request's arguments  *|
|* and the mutant on its stdin, so a run means exactly what `fa-opt ARGS -`  *|
|* means, and a crash or hang stays in the child.                            *|
|*                                                                           *|
|* Protocol (stdin -> stdout of the server), one request at a time:          *|
|*   request:  "<argc>\n" <argc lines, one argument each> "<bytes>\n" <input> *|
|*   reply:    "<kind> <code> <out bytes> <err bytes>\n" <stdout> <stderr>    *|
|* kind is `exit` (code = exit status), `signal` (code = signal number) or   *|
|* `timeout` (the child ran past --timeout seconds and was killed).          *|
\*===----------------------------------------------------------------------===*/
/* Tests (lit runs this file):
 * fa-fuzz-server (fuzz-server.c): fa-opt's driver forked per request, as
 * fuzz.py --server uses it. Each reply says how the run ended, then carries
 * its stdout and stderr.
 *
 * A run that exits 0, and its stdout.
 * RUN: printf '1\n--version\n0\n' | fa-fuzz-server | FileCheck %s --check-prefix=VERSION
 * VERSION: exit 0 {{[1-9][0-9]*}} 0
 * VERSION-NEXT: fa-opt (fa-mlir
 *
 * A run that fails: the exit status and stderr come back, and the server
 * goes on to the next request (here: the input on the child's stdin, fused).
 * RUN: printf '1\n--bogus\n0\n2\n--fa-fuse-attention\n-\n' > %t.req
 * RUN: wc -c < %S/../../examples/attention_linalg_named.mlir >> %t.req
 * RUN: cat %S/../../examples/attention_linalg_named.mlir >> %t.req
 * RUN: fa-fuzz-server < %t.req | FileCheck %s --check-prefix=TWO
 * TWO: exit 1 0 {{[1-9][0-9]*}}
 * TWO-NEXT: fa-opt: error: {{.*}}'bogus' does not refer to a registered pass
 * TWO: exit 0 {{[1-9][0-9]*}} 0
 * TWO: fa.gridwise_attention
 *
 * A run past the server's timeout is killed and reported as such.
 * RUN: printf '2\n--fa-to-cpu\n-\n' > %t.slow
 * RUN: wc -c < %S/../../test/Models/bert_layer.linalg.mlir >> %t.slow
 * RUN: cat %S/../../test/Models/bert_layer.linalg.mlir >> %t.slow
 * RUN: fa-fuzz-server 0.001 < %t.slow | FileCheck %s --check-prefix=SLOW
 * SLOW: timeout 9
 *
 * A malformed request ends the server with status 0 and no reply.
 * RUN: printf 'x\n' | fa-fuzz-server | count 0
 */

#define _GNU_SOURCE
#include "fa-c/OptMain.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  int argc;
  char **argv; /* argv[0] = "fa-opt", then the request's arguments */
  char *input;
  size_t inputLen;
} Request;

static void requestFree(Request *r) {
  for (int i = 0; i < r->argc; ++i)
    free(r->argv[i]);
  free(r->argv);
  free(r->input);
  memset(r, 0, sizeof(*r));
}

static char *readLine(FILE *in) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, in);
  if (n <= 0) {
    free(line);
    return NULL;
  }
  if (line[n - 1] == '\n')
    line[n - 1] = '\0';
  return line;
}

static bool readCount(FILE *in, long *count) {
  char *line = readLine(in);
  char *end = NULL;
  *count = line ? strtol(line, &end, 10) : -1;
  bool ok = line && end != line && *end == '\0' && *count >= 0;
  free(line);
  return ok;
}

/* False at the end of the requests (or on a malformed one). */
static bool requestRead(FILE *in, Request *r) {
  long argc = 0, bytes = 0;
  if (!readCount(in, &argc) || argc > 64)
    return false;
  r->argv = calloc((size_t)argc + 2, sizeof(char *));
  r->argv[r->argc++] = strdup("fa-opt");
  for (long i = 0; i < argc; ++i)
    if (!(r->argv[r->argc++] = readLine(in)))
      return false;
  if (!readCount(in, &bytes))
    return false;
  r->input = malloc((size_t)bytes + 1);
  r->inputLen = fread(r->input, 1, (size_t)bytes, in);
  return r->inputLen == (size_t)bytes;
}

static int memfdWith(const char *name, const char *data, size_t len) {
  int fd = memfd_create(name, 0);
  if (fd >= 0 && len && write(fd, data, len) != (ssize_t)len) {
    close(fd);
    return -1;
  }
  if (fd >= 0)
    lseek(fd, 0, SEEK_SET);
  return fd;
}

static void childRun(Request *r, int in, int out, int err) {
  dup2(in, 0);
  dup2(out, 1);
  dup2(err, 2);
  int status = faOptMain(r->argc, r->argv);
  fflush(NULL);
  _exit(status & 0xff);
}

/* Waits for the child at most `seconds`; kills it past that. */
static void childWait(pid_t pid, double seconds, const char **kind, int *code) {
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  struct pollfd p = {pidfd, POLLIN, 0};
  int ready = pidfd >= 0 ? poll(&p, 1, (int)(seconds * 1000)) : 1;
  if (ready == 0)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (pidfd >= 0)
    close(pidfd);
  *kind = ready == 0 ? "timeout" : WIFSIGNALED(status) ? "signal" : "exit";
  *code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
}

static size_t fdSize(int fd) {
  off_t end = lseek(fd, 0, SEEK_END);
  lseek(fd, 0, SEEK_SET);
  return end > 0 ? (size_t)end : 0;
}

static void copyFd(int fd, size_t len, FILE *to) {
  char buf[65536];
  while (len) {
    ssize_t n = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf));
    if (n <= 0)
      break;
    fwrite(buf, 1, (size_t)n, to);
    len -= (size_t)n;
  }
}

static bool serveOne(Request *r, double seconds, FILE *to) {
  int in = memfdWith("in", r->input, r->inputLen);
  int out = memfd_create("out", 0), err = memfd_create("err", 0);
  if (in < 0 || out < 0 || err < 0)
    return false;
  fflush(to);
  pid_t pid = fork();
  if (pid == 0)
    childRun(r, in, out, err);
  const char *kind = "exit";
  int code = 127;
  if (pid > 0)
    childWait(pid, seconds, &kind, &code);
  size_t outLen = fdSize(out), errLen = fdSize(err);
  fprintf(to, "%s %d %zu %zu\n", kind, code, outLen, errLen);
  copyFd(out, outLen, to);
  copyFd(err, errLen, to);
  fflush(to);
  close(in);
  close(out);
  close(err);
  return pid > 0;
}

/* Runs the driver once in the server on a trivial module, for each kind of
   run the fuzzer asks for: what MLIR initialises lazily on first use (dialect
   and pass registries, pipelines) is then done once, not in every child. */
static void warmUp(void) {
  static const char module[] = "func.func @f() { return }\n";
  int fd = memfdWith("warm-up", module, sizeof(module) - 1);
  if (fd < 0)
    return;
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  const char *passes[] = {"--fa-fuse-attention=explain", "--fa-verify", "--fa-to-cpu"};
  for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]); ++i) {
    char *args[] = {"fa-opt", (char *)passes[i], path, "-o", "/dev/null", NULL};
    faOptMain(5, args);
  }
  close(fd);
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 20;
  if (argc > 2 || seconds <= 0) {
    fprintf(stderr, "usage: fa-fuzz-server [TIMEOUT-SECONDS]\n");
    return 2;
  }
  warmUp();
  struct rlimit noCore = {0, 0};
  setrlimit(RLIMIT_CORE, &noCore);
  /* Requests come on a stream of their own: the children's stdin (fd 0,
     their input) must not share a buffer with it. */
  FILE *requests = fdopen(dup(0), "r");
  Request r = {0};
  while (requests && requestRead(requests, &r)) {
    if (!serveOne(&r, seconds, stdout))
      return 1;
    requestFree(&r);
  }
  requestFree(&r);
  return 0;
}
