/* Specialising .mlir templates (see Template.h). */
#include "Support/Template.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void faTemplateVarsInit(FaTemplateVars *vars) { vars->size = 0; }

void faTemplateVarsDestroy(FaTemplateVars *vars) {
  for (int i = 0; i < vars->size; ++i)
    free(vars->values[i]);
  vars->size = 0;
}

static int lookup(const FaTemplateVars *vars, const char *name, size_t len) {
  for (int i = 0; i < vars->size; ++i)
    if (strlen(vars->names[i]) == len && strncmp(vars->names[i], name, len) == 0)
      return i;
  return -1;
}

void faTemplateVarsSet(FaTemplateVars *vars, const char *name, const char *fmt, ...) {
  char buf[FA_TEMPLATE_MAX_VALUE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  faTemplateVarsSetText(vars, name, buf);
}

void faTemplateVarsSetText(FaTemplateVars *vars, const char *name, const char *text) {
  int i = lookup(vars, name, strlen(name));
  if (i < 0) {
    if (vars->size == FA_TEMPLATE_MAX_VARS)
      abort();
    i = vars->size++;
    vars->names[i] = name;
  } else {
    free(vars->values[i]);
  }
  vars->values[i] = strdup(text);
  if (!vars->values[i])
    abort();
}

void faTemplateVarsSetInt(FaTemplateVars *vars, const char *name, long value) {
  faTemplateVarsSet(vars, name, "%ld", value);
}

void faTemplateVarsSetFlag(FaTemplateVars *vars, const char *name, bool value) {
  faTemplateVarsSet(vars, name, "%d", value ? 1 : 0);
}

void faTemplateVarsSetType(FaTemplateVars *vars, const char *name, MlirType type) {
  FaText t;
  faTextInit(&t);
  faTextAppendType(&t, type);
  faTemplateVarsSet(vars, name, "%s", t.data);
  faTextDestroy(&t);
}

/* A directive line "//#KEYWORD ARG...": returns KEYWORD's length, or 0;
 * `*arg` is the first argument and `*argLen` its length. */
static size_t directive(const char *line, size_t len, const char **kw, const char **arg,
                        size_t *argLen) {
  while (len && (*line == ' ' || *line == '\t'))
    ++line, --len;
  if (len < 3 || strncmp(line, "//#", 3) != 0)
    return 0;
  *kw = line + 3;
  size_t kwLen = strcspn(*kw, " \n");
  *arg = *kw + kwLen;
  while (**arg == ' ')
    ++*arg;
  *argLen = strcspn(*arg, " \n");
  return kwLen;
}

static bool isKeyword(const char *kw, size_t kwLen, const char *word) {
  return kwLen == strlen(word) && strncmp(kw, word, kwLen) == 0;
}

/* --- errors ----------------------------------------------------------------- */

/* A template being specialised: its text, its name for errors, and what its
 * //#vars and //#flags lines declare. */
enum { MAX_DECLS = 160 };
typedef struct {
  const char *name;
  size_t len;
  bool flag, used;
} Decl;
typedef struct {
  const char *text, *file;
  Decl decls[MAX_DECLS];
  int numDecls;
} Tmpl;

static char errorText[512];

/* Formats "FILE:LINE: WHAT" as the error of the current specialisation. */
static const char *fail(const Tmpl *tp, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static const char *fail(const Tmpl *tp, int line, const char *fmt, ...) {
  int n = snprintf(errorText, sizeof errorText, "%s:%d: ", tp->file, line);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errorText + n, sizeof errorText - (size_t)n, fmt, ap);
  va_end(ap);
  return errorText;
}

/* --- the contract: declarations ---------------------------------------------- */

static const FaTemplateFile *fileOfText(const char *text) {
  for (size_t i = 0; i < faTemplateNumFiles; ++i)
    if (faTemplateFiles[i].text == text)
      return &faTemplateFiles[i];
  return NULL;
}

static Decl *findDecl(Tmpl *tp, const char *name, size_t len) {
  for (int i = 0; i < tp->numDecls; ++i)
    if (tp->decls[i].len == len && strncmp(tp->decls[i].name, name, len) == 0)
      return &tp->decls[i];
  return NULL;
}

/* Adds the names of a "//#vars A B" or "//#flags A B" line. */
static const char *declare(Tmpl *tp, int line, const char *names, bool flag) {
  for (const char *p = names; *p && *p != '\n';) {
    size_t len = strcspn(p, " \n");
    if (len) {
      if (findDecl(tp, p, len))
        return fail(tp, line, "'%.*s' is declared twice", (int)len, p);
      if (tp->numDecls == MAX_DECLS)
        return fail(tp, line, "more than %d names declared", MAX_DECLS);
      tp->decls[tp->numDecls++] = (Decl){p, len, flag, false};
    }
    p += len;
    while (*p == ' ')
      ++p;
  }
  return NULL;
}

/* Marks the uses of variables ({{NAME}}) on one line; an undeclared one is
 * an error. */
static const char *useVars(Tmpl *tp, int line, const char *text, size_t len) {
  const char *end = text + len;
  for (const char *open = strstr(text, "{{"); open && open < end; open = strstr(open, "{{")) {
    const char *close = strstr(open, "}}");
    if (!close || close > end)
      return fail(tp, line, "'{{' without '}}'");
    Decl *d = findDecl(tp, open + 2, (size_t)(close - open - 2));
    if (!d || d->flag)
      return fail(tp, line, "uses '%.*s', which its //#vars lines do not declare",
                  (int)(close - open - 2), open + 2);
    d->used = true;
    open = close + 2;
  }
  return NULL;
}

/* Reads the declarations, then checks that every name used is declared and
 * every name declared is used. */
static const char *checkContract(Tmpl *tp) {
  const char *kw, *arg;
  size_t argLen;
  int line = 1;
  for (const char *p = tp->text; *p; ++line) {
    size_t len = strcspn(p, "\n"), kwLen = directive(p, len, &kw, &arg, &argLen);
    const char *error = NULL;
    if (isKeyword(kw, kwLen, "vars") || isKeyword(kw, kwLen, "flags"))
      error = declare(tp, line, arg, isKeyword(kw, kwLen, "flags"));
    if (error)
      return error;
    p += len + (p[len] == '\n');
  }
  line = 1;
  for (const char *p = tp->text; *p; ++line) {
    size_t len = strcspn(p, "\n"), kwLen = directive(p, len, &kw, &arg, &argLen);
    const char *error = NULL;
    if (kwLen && !isKeyword(kw, kwLen, "if") && !isKeyword(kw, kwLen, "else") &&
        !isKeyword(kw, kwLen, "endif") && !isKeyword(kw, kwLen, "include") &&
        !isKeyword(kw, kwLen, "vars") && !isKeyword(kw, kwLen, "flags"))
      return fail(tp, line, "unknown directive '//#%.*s'", (int)kwLen, kw);
    if (isKeyword(kw, kwLen, "if")) {
      bool negate = argLen && *arg == '!';
      Decl *d = findDecl(tp, arg + negate, argLen - negate);
      if (!d || !d->flag)
        return fail(tp, line, "tests '%.*s', which its //#flags lines do not declare",
                    (int)(argLen - negate), arg + negate);
      d->used = true;
    } else if (!kwLen) {
      error = useVars(tp, line, p, len);
    }
    if (error)
      return error;
    p += len + (p[len] == '\n');
  }
  for (int i = 0; i < tp->numDecls; ++i)
    if (!tp->decls[i].used)
      return fail(tp, 1, "declares '%.*s' but never uses it", (int)tp->decls[i].len,
                  tp->decls[i].name);
  return NULL;
}

/* --- specialisation ------------------------------------------------------------ */

static int flagValue(const FaTemplateVars *vars, const char *name, size_t len) {
  int i = lookup(vars, name, len);
  return i < 0 ? -1 : strcmp(vars->values[i], "0") != 0;
}

/* Appends one kept line with {{NAME}} replaced. */
static const char *appendLine(FaText *t, const Tmpl *tp, int lineNo, const char *line,
                              size_t len, const FaTemplateVars *vars) {
  const char *end = line + len;
  faTextNoteOrigin(t, tp->file, lineNo);
  while (line < end) {
    const char *open = strstr(line, "{{");
    if (!open || open >= end) {
      faTextAppend(t, "%.*s", (int)(end - line), line);
      break;
    }
    const char *close = strstr(open, "}}");
    faTextAppend(t, "%.*s", (int)(open - line), line);
    int i = lookup(vars, open + 2, (size_t)(close - open - 2));
    if (i < 0)
      return fail(tp, lineNo, "variable '%.*s' is not set", (int)(close - open - 2), open + 2);
    faTextAppend(t, "%s", vars->values[i]);
    line = close + 2;
  }
  return NULL;
}

/* Includes nest at most this deep (a template including itself stops here). */
enum { MAX_INCLUDES = 8 };

static const char *appendTemplate(FaText *t, const char *text, const char *file,
                                  const FaTemplateVars *vars, int includes);

static const char *appendInclude(FaText *t, const Tmpl *tp, int line, const char *arg,
                                 size_t argLen, const FaTemplateVars *vars, int includes) {
  for (size_t i = 0; i < faTemplateNumFiles; ++i)
    if (strlen(faTemplateFiles[i].name) == argLen &&
        strncmp(faTemplateFiles[i].name, arg, argLen) == 0)
      return appendTemplate(t, faTemplateFiles[i].text, faTemplateFiles[i].path, vars,
                            includes + 1);
  return fail(tp, line, "unknown '//#include %.*s'", (int)argLen, arg);
}

static const char *appendTemplate(FaText *t, const char *text, const char *file,
                                  const FaTemplateVars *vars, int includes) {
  if (includes == MAX_INCLUDES)
    return "templates include each other more than 8 deep";
  Tmpl self = {.text = text, .file = file, .numDecls = 0};
  Tmpl *tp = &self;
  const char *error = checkContract(tp);
  enum { MAX_DEPTH = 16 };
  bool keep[MAX_DEPTH + 1] = {true};
  int depth = 0, lineNo = 1;
  for (const char *line = text; *line && !error; ++lineNo) {
    size_t len = strcspn(line, "\n");
    size_t next = len + (line[len] == '\n');
    const char *kw, *arg;
    size_t argLen;
    size_t kwLen = directive(line, len, &kw, &arg, &argLen);
    if (isKeyword(kw, kwLen, "if") && depth < MAX_DEPTH) {
      bool negate = argLen > 0 && *arg == '!';
      int value = flagValue(vars, arg + negate, argLen - negate);
      if (keep[depth] && value < 0)
        error = fail(tp, lineNo, "flag '%.*s' is not set", (int)(argLen - negate), arg + negate);
      ++depth;
      keep[depth] = keep[depth - 1] && (value > 0) != negate;
    } else if (isKeyword(kw, kwLen, "else") && depth > 0) {
      keep[depth] = keep[depth - 1] && !keep[depth];
    } else if (isKeyword(kw, kwLen, "endif") && depth > 0) {
      --depth;
    } else if (isKeyword(kw, kwLen, "include")) {
      if (keep[depth])
        error = appendInclude(t, tp, lineNo, arg, argLen, vars, includes);
    } else if (isKeyword(kw, kwLen, "vars") || isKeyword(kw, kwLen, "flags")) {
      /* declarations: not part of the IR */
    } else if (keep[depth]) {
      error = appendLine(t, tp, lineNo, line, next, vars);
    }
    line += next;
  }
  return error;
}

const char *faTextAppendTemplate(FaText *t, const char *tmpl, const FaTemplateVars *vars) {
  const FaTemplateFile *file = fileOfText(tmpl);
  return appendTemplate(t, tmpl, file ? file->path : "<template>", vars, 0);
}

const char *faTemplateError(const char *what, const char *error) {
  static char msg[640];
  if (!error || error == msg) /* NULL, or already an error of this kind */
    return error;
  snprintf(msg, sizeof msg, "%s template: %s", what, error);
  return msg;
}
