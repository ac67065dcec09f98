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

/* A directive line "//#KEYWORD ARG": returns KEYWORD's length, or 0. */
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

static bool flagSet(const FaTemplateVars *vars, const char *name, size_t len) {
  int i = lookup(vars, name, len);
  return i >= 0 && strcmp(vars->values[i], "0") != 0;
}

/* Appends one kept line with {{NAME}} replaced. */
static const char *appendLine(FaText *t, const char *line, size_t len,
                              const FaTemplateVars *vars) {
  static char missing[128];
  const char *end = line + len;
  while (line < end) {
    const char *open = strstr(line, "{{");
    if (!open || open >= end) {
      faTextAppend(t, "%.*s", (int)(end - line), line);
      break;
    }
    const char *close = strstr(open, "}}");
    faTextAppend(t, "%.*s", (int)(open - line), line);
    int i = lookup(vars, open + 2, (size_t)(close - open - 2));
    if (i < 0) {
      snprintf(missing, sizeof missing, "%.*s", (int)(close - open - 2), open + 2);
      return missing;
    }
    faTextAppend(t, "%s", vars->values[i]);
    line = close + 2;
  }
  return NULL;
}

static const char *includeText(const char *name, size_t len) {
  for (size_t i = 0; i < faTemplateNumFiles; ++i)
    if (strlen(faTemplateFiles[i].name) == len &&
        strncmp(faTemplateFiles[i].name, name, len) == 0)
      return faTemplateFiles[i].text;
  return NULL;
}

const char *faTextAppendTemplate(FaText *t, const char *tmpl, const FaTemplateVars *vars) {
  enum { MAX_DEPTH = 16 };
  bool keep[MAX_DEPTH + 1] = {true};
  int depth = 0;
  for (const char *line = tmpl; *line;) {
    size_t len = strcspn(line, "\n");
    size_t next = len + (line[len] == '\n');
    const char *kw, *arg;
    size_t argLen;
    size_t kwLen = directive(line, len, &kw, &arg, &argLen);
    if (kwLen == 2 && strncmp(kw, "if", 2) == 0 && depth < MAX_DEPTH) {
      bool negate = argLen > 0 && *arg == '!';
      ++depth;
      keep[depth] = keep[depth - 1] &&
                    flagSet(vars, arg + negate, argLen - negate) != negate;
    } else if (kwLen == 4 && strncmp(kw, "else", 4) == 0 && depth > 0) {
      keep[depth] = keep[depth - 1] && !keep[depth];
    } else if (kwLen == 5 && strncmp(kw, "endif", 5) == 0 && depth > 0) {
      --depth;
    } else if (kwLen == 7 && strncmp(kw, "include", 7) == 0) {
      if (!keep[depth]) {
        line += next;
        continue;
      }
      const char *text = includeText(arg, argLen);
      if (!text) {
        static char unknown[128];
        snprintf(unknown, sizeof unknown, "//#include %.*s", (int)argLen, arg);
        return unknown;
      }
      const char *missing = faTextAppendTemplate(t, text, vars);
      if (missing)
        return missing;
    } else if (keep[depth]) {
      const char *missing = appendLine(t, line, next, vars);
      if (missing)
        return missing;
    }
    line += next;
  }
  return NULL;
}

const char *faTemplateError(const char *what, const char *missing) {
  static char msg[320];
  if (!missing || missing == msg) /* NULL, or already an error of this kind */
    return missing;
  if (strncmp(missing, "//#include ", 11) == 0)
    snprintf(msg, sizeof msg, "%s template has an unknown '%s'", what, missing);
  else
    snprintf(msg, sizeof msg, "%s template uses an unset variable '%s'", what, missing);
  return msg;
}
