/* Internal: IR templates kept as .mlir files (lib/Lowering/Kernels,
 * lib/Reference), embedded in the library at build time and specialised by
 * the passes that build IR from them.
 *
 * A template is MLIR text with these additions, each directive on a line of
 * its own:
 *   //#vars A B ...     declares the variables the template uses;
 *   //#flags F G ...    declares the flags it tests (both may repeat);
 *   {{A}}               replaced by the value of variable A;
 *   //#if F, //#if !F, //#else, //#endif
 *                       the lines between are kept only when flag F is set
 *                       to a value other than "0" (with !, when it is "0");
 *                       nestable;
 *   //#include NAME     the embedded template of file NAME.mlir (any of
 *                       lib/CMakeLists.txt's FA_TEMPLATE_LIST), specialised with
 *                       the same variables: pieces shared by kernels.
 * The contract, so that a template and its specialiser cannot drift apart
 * silently: a variable or flag used but not declared, or declared but never
 * used, is an error, as are an unknown directive, a kept {{A}} whose variable
 * is not set and a kept //#if whose flag is not set. Errors name the
 * template's file and line; so do errors in parsing the specialised text
 * (faModuleAppendParsed, through the lines' origins in FaText). */
#ifndef FA_LIB_SUPPORT_TEMPLATE_H
#define FA_LIB_SUPPORT_TEMPLATE_H

#include "Support/IRText.h"

#include <stdbool.h>
#include <stddef.h>

enum { FA_TEMPLATE_MAX_VARS = 128, FA_TEMPLATE_MAX_VALUE = 2048 };

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

/* Appends the specialised template to `t`, each line noted with its origin.
 * Returns NULL, or the first breach of the contract ("FILE:LINE: what"); `t`
 * is then incomplete. The text lives until the next call. */
const char *faTextAppendTemplate(FaText *t, const char *tmpl, const FaTemplateVars *vars);

/* The error for what faTextAppendTemplate returned (`error`; NULL: none)
 * while appending the template `what` ("the Hopper kernel"). The text lives
 * until the next call. */
const char *faTemplateError(const char *what, const char *error);

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
extern const char faTemplateAttentionMaskSummary[];
extern const char faTemplateAttentionScoreMod[];
extern const char faTemplateAttentionKeyTable[];
extern const char faTemplateAttentionPortableLoad[];
extern const char faTemplateBlockwiseFill[];
extern const char faTemplateBlockwiseGemm[];
extern const char faTemplateBlockwiseReduction[];

/* Every embedded template by its file's base name ("attention_mma"), with
 * its path in the source tree ("lib/Lowering/Kernels/MmaSync/attention_mma.mlir"). */
typedef struct {
  const char *name, *text, *path;
} FaTemplateFile;
extern const FaTemplateFile faTemplateFiles[];
extern const size_t faTemplateNumFiles;

#endif
