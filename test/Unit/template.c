/* The kernel template engine (lib/Support/Template.c): {{NAME}}
 * variables, //#if / //#if ! / //#else / //#endif on flags, //#include of another
 * embedded template by its file's name, and the contract: //#vars and //#flags
 * declare every name; errors name the template's file and line (an undeclared,
 * unused or unset name, an unknown directive or //#include, IR that does not
 * parse).
 */
// RUN: fa-unit-template 2>&1 | FileCheck %s
#include "Support/IRText.h"
#include "Support/Template.h"

#include "fa-c/Dialect.h"
#include "mlir-c/RegisterEverything.h"

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
  show("variables", "//#vars NAME BN\nfunc.func @{{NAME}}(%x: vector<{{BN}}xf32>)\n", &vars);

  // CHECK-LABEL: == flags
  // CHECK-NEXT: causal
  // CHECK-NEXT: no bias
  // CHECK-NEXT: end
  show("flags",
       "//#flags CAUSAL BIAS\n"
       "//#if CAUSAL\ncausal\n//#else\nnot causal\n//#endif\n"
       "//#if BIAS\nbias\n//#else\nno bias\n//#endif\nend\n",
       &vars);

  // //#if !NAME keeps its lines where the flag is off.
  // CHECK-LABEL: == negated flags
  // CHECK-NEXT: no bias
  // CHECK-NEXT: end
  show("negated flags",
       "//#flags CAUSAL BIAS\n"
       "//#if !CAUSAL\nnot causal\n//#endif\n//#if !BIAS\nno bias\n//#else\nbias\n//#endif\n"
       "end\n",
       &vars);

  // A piece other templates include: attention_exp2 defines @NAME_exp2.
  // CHECK-LABEL: == include
  // CHECK: func.func private @k_7_exp2(
  faTemplateVarsSet(&vars, "P", "k_");
  faTemplateVarsSetInt(&vars, "NSC", 4);
  show("include", "//#include attention_exp2\n", &vars);

  // CHECK-LABEL: == unset
  // CHECK-NEXT: the test template: <template>:2: variable 'BM' is not set
  show("unset", "//#vars BM\nx = {{BM}}\n", &vars);

  // A skipped branch may leave its variables unset and include anything.
  // CHECK-LABEL: == skipped
  // CHECK-NEXT: kept
  show("skipped",
       "//#vars BM\n//#flags BIAS\n//#if BIAS\n{{BM}}\n//#include no_such_piece\n"
       "//#endif\nkept\n",
       &vars);

  // CHECK-LABEL: == unknown include
  // CHECK-NEXT: the test template: <template>:1: unknown '//#include no_such_piece'
  show("unknown include", "//#include no_such_piece\n", &vars);

  // The contract: every name used is declared, every name declared is used,
  // every flag tested is set.
  // CHECK-LABEL: == undeclared variable
  // CHECK-NEXT: the test template: <template>:2: uses 'BN', which its //#vars lines do not declare
  show("undeclared variable", "//#vars NAME\n{{NAME}} {{BN}}\n", &vars);
  // CHECK-LABEL: == undeclared flag
  // CHECK-NEXT: the test template: <template>:1: tests 'CAUSAL', which its //#flags lines do not declare
  show("undeclared flag", "//#if CAUSAL\nx\n//#endif\n", &vars);
  // CHECK-LABEL: == unused
  // CHECK-NEXT: the test template: <template>:1: declares 'BN' but never uses it
  show("unused", "//#vars NAME BN\n{{NAME}}\n", &vars);
  // An unset flag is an error, not false: a typo cannot drop code silently.
  // CHECK-LABEL: == unset flag
  // CHECK-NEXT: the test template: <template>:2: flag 'PV_SPLIT' is not set
  show("unset flag", "//#flags PV_SPLIT\n//#if !PV_SPLIT\nx\n//#endif\n", &vars);
  // CHECK-LABEL: == unknown directive
  // CHECK-NEXT: the test template: <template>:1: unknown directive '//#ifdef'
  show("unknown directive", "//#ifdef CAUSAL\nx\n//#endif\n", &vars);
  // CHECK-LABEL: == twice
  // CHECK-NEXT: the test template: <template>:2: 'BN' is declared twice
  show("twice", "//#vars BN\n//#vars BN\n{{BN}}\n", &vars);

  // IR that does not parse is reported at the template line it came from.
  // CHECK-LABEL: == parse error
  // CHECK: "<template>":4:{{[0-9]+}}): error: the specialised template does not parse: use of value
  printf("== parse error\n");
  fflush(stdout);
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  FaText t;
  faTextInit(&t);
  const char *error = faTextAppendTemplate(
      &t, "//#vars NAME BN\nfunc.func @{{NAME}}() {\n  %c = arith.constant 1 : i32\n"
          "  %x = arith.addi %c, %c : vector<{{BN}}xf32>\n  return\n}\n", &vars);
  MlirLogicalResult ok = faModuleAppendParsed(mlirModuleGetOperation(module), &t);
  printf("appended: %s, parsed: %s\n", error ? error : "yes",
         mlirLogicalResultIsSuccess(ok) ? "yes" : "no");
  // CHECK: appended: yes, parsed: no
  faTextDestroy(&t);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  faTemplateVarsDestroy(&vars);
  return 0;
}
