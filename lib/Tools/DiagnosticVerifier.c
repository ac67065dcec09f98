/* Diagnostics of fa-opt: printed as "file:line:col: severity: message" with
 * the source line, or checked against expected-{error,warning,note,remark}
 * comments (@+N, @-N, @N, @above, @below, @unknown; {{regex}} in messages)
 * as mlir-opt --verify-diagnostics does. */
#include "Tools/Tools.h"

#include "Support/Location.h"
#include "Support/Strings.h"
#include "Support/Text.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct Expectation {
  MlirDiagnosticSeverity kind;
  unsigned line; /* 0: a diagnostic without a file location */
  unsigned directiveLine, directiveCol;
  char *pattern; /* the text between the outer {{ }} */
  regex_t regex;
  bool matched;
} Expectation;

typedef struct Record {
  MlirDiagnosticSeverity kind;
  char *file; /* NULL when the location has no file */
  unsigned line, col;
  char *message;
} Record;

struct FaDiagnostics {
  MlirContext ctx;
  MlirDiagnosticHandlerID handler;
  const FaSource *source;
  bool verify;
  Expectation *exps;
  size_t numExps, capExps;
  Record *recs;
  size_t numRecs, capRecs;
  size_t numDirectiveErrors; /* malformed expected-* comments */
};

static const char *severityName(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  default:
    return "remark";
  }
}

/* Whether `file` names the buffer being processed: the parser names in-memory
 * buffers "-", files parsed from disk keep their path. */
static bool isInputFile(const FaDiagnostics *d, const char *file) {
  return strcmp(file, "-") == 0 || strcmp(file, d->source->name) == 0;
}

/* The parser names its buffer "-"; show the input's real name instead. */
static const char *displayName(const FaDiagnostics *d, const char *file) {
  return strcmp(file, "-") == 0 ? d->source->name : file;
}

static void printSourceLine(const FaDiagnostics *d, unsigned line,
                            unsigned col) {
  const char *p = d->source->data, *end = p + d->source->size;
  for (unsigned l = 1; l < line && p < end; ++l) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    p = eol ? eol + 1 : end;
  }
  if (p >= end)
    return;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  int len = (int)((eol ? eol : end) - p);
  fprintf(stderr, "%.*s\n%*s^\n", len, p, col > 0 ? (int)col - 1 : 0, "");
}

static void printRecord(const FaDiagnostics *d, const Record *r,
                        const char *prefix) {
  if (r->file)
    fprintf(stderr, "%s:%u:%u: ", displayName(d, r->file), r->line, r->col);
  else
    fprintf(stderr, "%s: ", d->source->name);
  fprintf(stderr, "%s: %s%s\n", severityName(r->kind), prefix, r->message);
  if (r->file && isInputFile(d, r->file) && r->line > 0)
    printSourceLine(d, r->line, r->col);
}

/* --- handler --------------------------------------------------------------- */

static Record makeRecord(MlirDiagnostic diag) {
  Record r = {mlirDiagnosticGetSeverity(diag), NULL, 0, 0, NULL};
  MlirStringRef file;
  if (faLocationResolve(mlirDiagnosticGetLocation(diag), &file, &r.line, &r.col))
    r.file = faStringCopy(file.data, file.length);
  FaText msg;
  faTextInit(&msg);
  mlirDiagnosticPrint(diag, faTextAppendStringRef, &msg);
  r.message = msg.data; /* the record owns it */
  return r;
}

static void recordFree(Record *r) {
  free(r->file);
  free(r->message);
}

/* mlir-opt turns "see current operation" notes off when verifying
 * diagnostics; the C API cannot, so they are dropped here. */
static bool isOpDumpNote(const Record *r) {
  return r->kind == MlirDiagnosticNote &&
         strncmp(r->message, "see current operation", 21) == 0;
}

static void handleOne(FaDiagnostics *d, MlirDiagnostic diag) {
  Record r = makeRecord(diag);
  if (!d->verify) {
    printRecord(d, &r, "");
    recordFree(&r);
  } else if (isOpDumpNote(&r)) {
    recordFree(&r);
  } else {
    if (d->numRecs == d->capRecs)
      d->recs = realloc(d->recs, (d->capRecs = d->capRecs * 2 + 8) *
                                     sizeof(Record));
    d->recs[d->numRecs++] = r;
  }
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diag); i < e; ++i)
    handleOne(d, mlirDiagnosticGetNote(diag, i));
}

static MlirLogicalResult handleDiagnostic(MlirDiagnostic diag, void *userData) {
  handleOne(userData, diag);
  return mlirLogicalResultSuccess();
}

FaDiagnostics *faDiagnosticsCreate(MlirContext ctx, const FaSource *source,
                                   bool verify) {
  FaDiagnostics *d = calloc(1, sizeof(FaDiagnostics));
  d->ctx = ctx;
  d->source = source;
  d->verify = verify;
  d->handler = mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, d, NULL);
  return d;
}

/* --- expectations ---------------------------------------------------------- */

static void clearChunk(FaDiagnostics *d) {
  for (size_t i = 0; i < d->numExps; ++i) {
    regfree(&d->exps[i].regex);
    free(d->exps[i].pattern);
  }
  for (size_t i = 0; i < d->numRecs; ++i)
    recordFree(&d->recs[i]);
  d->numExps = d->numRecs = d->numDirectiveErrors = 0;
}

/* Literal text is escaped, {{...}} is an extended regular expression. */
static bool compilePattern(const char *pattern, regex_t *out) {
  FaText re;
  faTextInit(&re);
  const char *p = pattern;
  while (*p) {
    const char *open = strstr(p, "{{");
    const char *close = open ? strstr(open + 2, "}}") : NULL;
    const char *lit_end = close ? open : p + strlen(p);
    for (; p < lit_end; ++p)
      faTextAppend(&re, strchr(".[]{}()\\*+?^$|", *p) ? "\\%c" : "%c", *p);
    if (close) {
      faTextAppend(&re, "(%.*s)", (int)(close - open - 2), open + 2);
      p = close + 2;
    }
  }
  bool ok = regcomp(out, re.data, REG_EXTENDED | REG_NOSUB) == 0;
  faTextDestroy(&re);
  return ok;
}

static const struct {
  const char *word;
  MlirDiagnosticSeverity kind;
} kKinds[] = {{"expected-error", MlirDiagnosticError},
              {"expected-warning", MlirDiagnosticWarning},
              {"expected-note", MlirDiagnosticNote},
              {"expected-remark", MlirDiagnosticRemark}};

static void directiveError(FaDiagnostics *d, unsigned line, unsigned col,
                           const char *msg) {
  fprintf(stderr, "%s:%u:%u: error: %s\n", d->source->name, line, col, msg);
  ++d->numDirectiveErrors;
}

/* Parses one directive starting at `at` (inside line `lineNo`). Returns false
 * when the text is not a directive. `*below` is set for @below. */
static bool parseDirective(FaDiagnostics *d, const char *at, const char *eol,
                           unsigned lineNo, unsigned col, unsigned lastPlain,
                           Expectation *e, bool *below) {
  size_t k = 0;
  for (; k < 4; ++k) {
    size_t n = strlen(kKinds[k].word);
    if ((size_t)(eol - at) > n && strncmp(at, kKinds[k].word, n) == 0 &&
        (at[n] == ' ' || at[n] == '@' || at[n] == '{'))
      break;
  }
  if (k == 4)
    return false;
  const char *p = at + strlen(kKinds[k].word);
  *e = (Expectation){kKinds[k].kind, lineNo, lineNo, col, NULL, {0}, false};
  *below = false;
  while (p < eol && *p == ' ')
    ++p;
  if (*p == '@') {
    ++p;
    if (strncmp(p, "above", 5) == 0) {
      e->line = lastPlain, p += 5;
    } else if (strncmp(p, "below", 5) == 0) {
      *below = true, p += 5;
    } else if (strncmp(p, "unknown", 7) == 0) {
      e->line = 0, p += 7;
    } else {
      char *num_end;
      long v = strtol(p, &num_end, 10);
      if (num_end == p) {
        directiveError(d, lineNo, col, "invalid designator in expected-* directive");
        return false;
      }
      e->line = (*p == '+' || *p == '-') ? (unsigned)((long)lineNo + v)
                                         : (unsigned)v;
      p = num_end;
    }
  }
  while (p < eol && *p == ' ')
    ++p;
  const char *close = NULL;
  for (const char *q = eol - 2; q >= p; --q)
    if (q[0] == '}' && q[1] == '}') {
      close = q;
      break;
    }
  if (eol - p < 4 || strncmp(p, "{{", 2) != 0 || !close || close < p + 2) {
    directiveError(d, lineNo, col, "expected-* directive needs a {{message}}");
    return false;
  }
  e->pattern = faStringCopy(p + 2, (size_t)(close - p - 2));
  if (!compilePattern(e->pattern, &e->regex)) {
    directiveError(d, lineNo, col, "invalid regular expression in expected-* directive");
    free(e->pattern);
    return false;
  }
  return true;
}

static void addExpectation(FaDiagnostics *d, const Expectation *e) {
  if (d->numExps == d->capExps)
    d->exps = realloc(d->exps, (d->capExps = d->capExps * 2 + 8) *
                                   sizeof(Expectation));
  d->exps[d->numExps++] = *e;
}

static const char *findInLine(const char *p, const char *eol, const char *s) {
  size_t n = strlen(s);
  for (; p + n <= eol; ++p)
    if (memcmp(p, s, n) == 0)
      return p;
  return NULL;
}

/* Line number of an @below expectation until the next plain line is seen. */
#define PENDING_LINE ((unsigned)-1)

void faDiagnosticsBeginChunk(FaDiagnostics *d, const FaChunk *chunk) {
  clearChunk(d);
  if (!d->verify)
    return;
  const char *p = chunk->begin, *end = chunk->begin + chunk->size;
  unsigned lineNo = chunk->firstLine, lastPlain = 0;
  for (; p < end; ++lineNo) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    const char *at = findInLine(p, eol, "expected-");
    Expectation e;
    bool below;
    if (at && parseDirective(d, at, eol, lineNo, (unsigned)(at - p) + 1,
                             lastPlain, &e, &below)) {
      if (below)
        e.line = PENDING_LINE;
      addExpectation(d, &e);
    } else if (!at) {
      for (size_t i = 0; i < d->numExps; ++i)
        if (d->exps[i].line == PENDING_LINE)
          d->exps[i].line = lineNo;
      lastPlain = lineNo;
    }
    p = eol + 1;
  }
}

static bool recordMatches(const FaDiagnostics *d, const Record *r,
                          const Expectation *e) {
  if (e->matched || e->kind != r->kind)
    return false;
  bool atLine = e->line == 0 ? r->file == NULL
                             : (r->file && isInputFile(d, r->file) &&
                                r->line == e->line);
  return atLine && regexec(&e->regex, r->message, 0, NULL, 0) == 0;
}

bool faDiagnosticsEndChunk(FaDiagnostics *d) {
  if (!d->verify)
    return true;
  bool ok = d->numDirectiveErrors == 0;
  for (size_t i = 0; i < d->numRecs; ++i) {
    size_t j = 0;
    while (j < d->numExps && !recordMatches(d, &d->recs[i], &d->exps[j]))
      ++j;
    if (j < d->numExps) {
      d->exps[j].matched = true;
      continue;
    }
    Record unexpected = d->recs[i];
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "unexpected %s: ",
             severityName(unexpected.kind));
    unexpected.kind = MlirDiagnosticError;
    printRecord(d, &unexpected, prefix);
    ok = false;
  }
  for (size_t j = 0; j < d->numExps; ++j) {
    const Expectation *e = &d->exps[j];
    if (e->matched)
      continue;
    fprintf(stderr, "%s:%u:%u: error: expected %s \"%s\" was not produced\n",
            d->source->name, e->directiveLine, e->directiveCol,
            severityName(e->kind), e->pattern);
    ok = false;
  }
  return ok;
}

void faDiagnosticsDestroy(FaDiagnostics *d) {
  if (!d)
    return;
  clearChunk(d);
  mlirContextDetachDiagnosticHandler(d->ctx, d->handler);
  free(d->exps);
  free(d->recs);
  free(d);
}
