/* MLIR's textual pass-pipeline syntax, resolved against our registry first and
 * MLIR's global registry second:
 *   pipeline := op-name '(' elements? ')'
 *   elements := element (',' element)*
 *   element  := op-name '(' elements? ')' | pass-name ('{' options '}')?     */
#include "Support/IRText.h"

#include "fa-c/Passes.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct Parser {
  const char *cur, *end;
  MlirStringCallback errorCallback;
  void *userData;
} Parser;

static MlirLogicalResult parseError(Parser *p, const char *msg) {
  if (p->errorCallback) {
    char buf[256];
    snprintf(buf, sizeof(buf), "invalid pass pipeline: %s at '%.*s'", msg,
             (int)(p->end - p->cur > 40 ? 40 : p->end - p->cur), p->cur);
    p->errorCallback(mlirStringRefCreateFromCString(buf), p->userData);
  }
  return mlirLogicalResultFailure();
}

static void skipSpace(Parser *p) {
  while (p->cur < p->end && isspace((unsigned char)*p->cur))
    ++p->cur;
}

static bool consume(Parser *p, char c) {
  skipSpace(p);
  if (p->cur < p->end && *p->cur == c) {
    ++p->cur;
    return true;
  }
  return false;
}

static MlirStringRef parseName(Parser *p) {
  skipSpace(p);
  const char *start = p->cur;
  while (p->cur < p->end && (isalnum((unsigned char)*p->cur) ||
                             strchr("_-.$", *p->cur) != NULL))
    ++p->cur;
  return mlirStringRefCreate(start, (size_t)(p->cur - start));
}

/* Options between balanced braces, quotes respected. `p->cur` is just past
 * the opening brace; on success it is just past the closing one. */
static bool parseOptions(Parser *p, MlirStringRef *options) {
  const char *start = p->cur;
  int depth = 1;
  char quote = 0;
  for (; p->cur < p->end; ++p->cur) {
    char c = *p->cur;
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      *options = mlirStringRefCreate(start, (size_t)(p->cur - start));
      ++p->cur;
      return true;
    }
  }
  return false;
}

static MlirLogicalResult parseElements(Parser *p, MlirOpPassManager pm);

static MlirLogicalResult addPass(Parser *p, MlirOpPassManager pm,
                                 MlirStringRef name, MlirStringRef options,
                                 MlirStringRef fullText) {
  const FaPassInfo *pass = faLookupPass(name);
  if (pass) {
    MlirPass created = pass->create(options, p->errorCallback, p->userData);
    if (faPassIsNull(created))
      return mlirLogicalResultFailure();
    mlirOpPassManagerAddOwnedPass(pm, created);
    return mlirLogicalResultSuccess();
  }
  const FaPipelineInfo *pipeline = faLookupPipeline(name);
  if (pipeline)
    return pipeline->build(pm, options, p->errorCallback, p->userData);
  return mlirOpPassManagerAddPipeline(pm, fullText, p->errorCallback,
                                      p->userData);
}

static MlirLogicalResult parseElement(Parser *p, MlirOpPassManager pm) {
  skipSpace(p);
  const char *start = p->cur;
  MlirStringRef name = parseName(p);
  if (name.length == 0)
    return parseError(p, "expected a pass or operation name");
  if (consume(p, '(')) {
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(pm, name);
    if (mlirLogicalResultIsFailure(parseElements(p, nested)))
      return mlirLogicalResultFailure();
    return consume(p, ')') ? mlirLogicalResultSuccess()
                           : parseError(p, "expected ')'");
  }
  MlirStringRef options = mlirStringRefCreate(NULL, 0);
  if (consume(p, '{') && !parseOptions(p, &options))
    return parseError(p, "unbalanced '{' in pass options");
  MlirStringRef text = mlirStringRefCreate(start, (size_t)(p->cur - start));
  return addPass(p, pm, name, options, text);
}

static MlirLogicalResult parseElements(Parser *p, MlirOpPassManager pm) {
  skipSpace(p);
  if (p->cur < p->end && *p->cur == ')')
    return mlirLogicalResultSuccess();
  do {
    if (mlirLogicalResultIsFailure(parseElement(p, pm)))
      return mlirLogicalResultFailure();
  } while (consume(p, ','));
  return mlirLogicalResultSuccess();
}

MlirLogicalResult faOpPassManagerAddPipeline(MlirOpPassManager pm,
                                             MlirStringRef elements,
                                             MlirStringCallback errorCallback,
                                             void *userData) {
  Parser p = {elements.data, elements.data + elements.length, errorCallback,
              userData};
  if (mlirLogicalResultIsFailure(parseElements(&p, pm)))
    return mlirLogicalResultFailure();
  skipSpace(&p);
  return p.cur == p.end ? mlirLogicalResultSuccess()
                        : parseError(&p, "unexpected trailing text");
}

/* Whether the anchor op of `pm`, read from its printed form "anchor(...)",
 * is `anchor`. */
static bool anchorIs(MlirOpPassManager pm, MlirStringRef anchor) {
  FaText printed;
  faTextInit(&printed);
  mlirPrintPassPipeline(pm, faTextAppendStringRef, &printed);
  bool same = printed.size > anchor.length &&
              strncmp(printed.data, anchor.data, anchor.length) == 0 &&
              printed.data[anchor.length] == '(';
  faTextDestroy(&printed);
  return same;
}

MlirLogicalResult faParsePassPipeline(MlirOpPassManager pm,
                                      MlirStringRef pipeline,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  Parser p = {pipeline.data, pipeline.data + pipeline.length, errorCallback,
              userData};
  MlirStringRef anchor = parseName(&p);
  if (anchor.length == 0 || !consume(&p, '('))
    return parseError(&p, "expected 'op-name(' at the start of the pipeline");
  if (!anchorIs(pm, anchor))
    return parseError(&p, "pipeline anchor does not match the pass manager's "
                          "operation");
  if (mlirLogicalResultIsFailure(parseElements(&p, pm)))
    return mlirLogicalResultFailure();
  if (!consume(&p, ')'))
    return parseError(&p, "expected ')'");
  skipSpace(&p);
  return p.cur == p.end ? mlirLogicalResultSuccess()
                        : parseError(&p, "unexpected trailing text");
}
