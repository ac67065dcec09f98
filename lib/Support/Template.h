/* Internal: IR templates kept as .mlir files beside the C that specialises them,
 * embedded in the library at build time and specialised by the lowerings.
 *
 * A template is MLIR text with two additions:
 *   {{NAME}}            replaced by the value of variable NAME;
 *   //#if NAME, //#else, //#endif
 *                       on lines of their own: the lines between are kept
 *                       only when NAME is set to a value other than "0"
 *                       (or, after //#else, when it is not). Nestable.
 *   //#if !NAME         the lines are kept when NAME is not set or "0".
 *   //#include NAME     the embedded template of file NAME.mlir (any of
 *                       lib/CMakeLists.txt's FA_TEMPLATE_LIST), specialised with
 *                       the same variables: pieces shared by kernels.
 * A reference to an unset variable is an error, so a template and its
 * specialiser cannot drift apart silently. */
#ifndef FA_LIB_TRANSFORMS_TEMPLATE_H
#define FA_LIB_TRANSFORMS_TEMPLATE_H

#include "Support/IRText.h"

#include <stdbool.h>
#include <stddef.h>

enum { FA_TEMPLATE_MAX_VARS = 96, FA_TEMPLATE_MAX_VALUE = 2048 };

typedef struct {
  const char *names[FA_TEMPLATE_MAX_VARS];
  char *values[FA_TEMPLATE_MAX_VARS];
  int size;
} FaTemplateVars;

void faTemplateVarsInit(FaTemplateVars *vars);
void faTemplateVarsDestroy(FaTemplateVars *vars);
/* Sets NAME (a string literal or otherwise outliving `vars`) to the
 * formatted value. */
void faTemplateVarsSet(FaTemplateVars *vars, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sets NAME to `text` as it is (no length limit). */
void faTemplateVarsSetText(FaTemplateVars *vars, const char *name, const char *text);
void faTemplateVarsSetInt(FaTemplateVars *vars, const char *name, long value);
void faTemplateVarsSetFlag(FaTemplateVars *vars, const char *name, bool value);
/* Sets NAME to the textual form of `type`. */
void faTemplateVarsSetType(FaTemplateVars *vars, const char *name, MlirType type);

/* Appends the specialised template to `t`. Returns the name of the first
 * unset variable it references (NULL on success); `t` is then incomplete. */
const char *faTextAppendTemplate(FaText *t, const char *tmpl, const FaTemplateVars *vars);

/* The error for what faTextAppendTemplate returned (`missing`; NULL: none)
 * while appending the template `what` ("the Hopper kernel"): names the unset
 * variable or the unknown //#include. The text lives until the next call. */
const char *faTemplateError(const char *what, const char *missing);

/* The embedded templates (generated from the NAME.mlir files of lib/CMakeLists.txt). */
extern const char faTemplateAttentionMma[];
extern const char faTemplateAttentionDispatch[];
extern const char faTemplateBlockwiseMma[];
extern const char faTemplateTileCopy[];
extern const char faTemplateAttentionWgmma[];
extern const char faTemplateAttentionWgmmaSelect[];
extern const char faTemplateBlockwiseWgmma[];
extern const char faTemplateDecomposeSoftmax[];
extern const char faTemplateReferenceAttention[];
extern const char faTemplateAttentionPortable[];
extern const char faTemplateAttentionPortableLoad[];
extern const char faTemplateBlockwiseFill[];
extern const char faTemplateBlockwiseGemm[];
extern const char faTemplateBlockwiseReduction[];

/* Every embedded template by its file's base name ("attention_mma"). */
typedef struct {
  const char *name, *text;
} FaTemplateFile;
extern const FaTemplateFile faTemplateFiles[];
extern const size_t faTemplateNumFiles;

#endif
