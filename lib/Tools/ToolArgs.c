/* The command line every fa-mlir tool shares (ToolArgs.h). */
#include "Tools/ToolArgs.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool faToolAnswerInfoOption(const char *tool, const char *arg, FaToolUsageFn usage) {
  if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
    usage(stdout);
  else if (!strcmp(arg, "--version"))
    faToolPrintVersion(tool);
  else
    return false;
  return true;
}

void faToolPrintVersion(const char *tool) { printf("%s (fa-mlir) %s\n", tool, FA_VERSION); }

void faToolPrintInfoOptions(FILE *f, int width) {
  fprintf(f, "  %-*s show this help and exit\n", width, "--help, -h");
  fprintf(f, "  %-*s show the version and exit\n", width, "--version");
}

bool faToolArgError(const char *tool, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", tool);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "; try '%s --help'\n", tool);
  va_end(ap);
  return false;
}

const char *faToolListSeparator(int i, int n) {
  return i == 0 ? "" : i + 1 < n ? ", " : " or ";
}

bool parseIntOption(const char *tool, const char *option, const char *text, int64_t min,
                    int64_t max, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end || errno || v < min || v > max)
    return faToolArgError(tool, "%s: '%s' is not an integer in [%lld, %lld]", option, text,
                          (long long)min, (long long)max);
  *out = v;
  return true;
}

bool parseRealOption(const char *tool, const char *option, const char *text, double min,
                     double *out) {
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end || !isfinite(v) || v < min)
    return faToolArgError(tool, "%s: '%s' is not a finite number >= %g", option, text, min);
  *out = v;
  return true;
}
