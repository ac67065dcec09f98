/* The kernel template engine (lib/Support/Template.c): {{NAME}}
 * variables, //#if / //#if ! / //#else / //#endif on flags, //#include of another
 * embedded template by its file's name, and the errors that name what is
 * missing (an unset variable, an unknown //#include).
 */
// RUN: fa-unit-template 2>&1 | FileCheck %s
#include "Support/Template.h"

#include <stdio.h>

static void show(const char *title, const char *tmpl, const FaTemplateVars *vars) {
  FaText t;
  faTextInit(&t);
  const char *error = faTemplateError("the test", faTextAppendTemplate(&t, tmpl, vars));
  printf("== %s\n%s\n", title, error ? error : t.data);
  faTextDestroy(&t);
}

int main(void) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s_%d", "k", 7);
  faTemplateVarsSetInt(&vars, "BN", 96);
  faTemplateVarsSetFlag(&vars, "CAUSAL", true);
  faTemplateVarsSetFlag(&vars, "BIAS", false);

  // CHECK-LABEL: == variables
  // CHECK-NEXT: func.func @k_7(%x: vector<96xf32>)
  show("variables", "func.func @{{NAME}}(%x: vector<{{BN}}xf32>)\n", &vars);

  // CHECK-LABEL: == flags
  // CHECK-NEXT: causal
  // CHECK-NEXT: no bias
  // CHECK-NEXT: end
  show("flags",
       "//#if CAUSAL\ncausal\n//#else\nnot causal\n//#endif\n"
       "//#if BIAS\nbias\n//#else\nno bias\n//#endif\nend\n",
       &vars);

  // //#if !NAME keeps its lines where the flag is off (or not set at all).
  // CHECK-LABEL: == negated flags
  // CHECK-NEXT: no bias
  // CHECK-NEXT: no pv split
  // CHECK-NEXT: end
  show("negated flags",
       "//#if !CAUSAL\nnot causal\n//#endif\n//#if !BIAS\nno bias\n//#else\nbias\n//#endif\n"
       "//#if !PV_SPLIT\nno pv split\n//#endif\nend\n",
       &vars);

  // A piece other templates include: attention_exp2 defines @NAME_exp2.
  // CHECK-LABEL: == include
  // CHECK: func.func private @k_7_exp2(
  faTemplateVarsSet(&vars, "P", "k_");
  faTemplateVarsSetInt(&vars, "NSC", 4);
  show("include", "//#include attention_exp2\n", &vars);

  // CHECK-LABEL: == unset
  // CHECK-NEXT: the test template uses an unset variable 'BM'
  show("unset", "x = {{BM}}\n", &vars);

  // A skipped branch may name anything.
  // CHECK-LABEL: == skipped
  // CHECK-NEXT: kept
  show("skipped", "//#if BIAS\n{{BM}}\n//#include no_such_piece\n//#endif\nkept\n", &vars);

  // CHECK-LABEL: == unknown include
  // CHECK-NEXT: the test template has an unknown '//#include no_such_piece'
  show("unknown include", "//#include no_such_piece\n", &vars);
  faTemplateVarsDestroy(&vars);
  return 0;
}
