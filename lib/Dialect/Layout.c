/* Which axis of Q, K, V and O holds which dim of fa.gridwise_attention: the
 * one place that reads the layout attributes (docs/dialect.md, "Layouts"). */
#include "fa-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"

static const char *const kBshdAttrs[4] = {"q_bshd", "k_bshd", "v_bshd", "o_bshd"};

const char *faGridwiseAttentionGetBshdAttrName(FaAttentionTensor t) {
  return (unsigned)t < 4 ? kBshdAttrs[t] : "";
}

static bool hasAttr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

intptr_t faAttentionLayoutGetAxis(bool bshd, bool transposed, FaAttentionDim d) {
  /* Axis of each dim, [B, H, S, D] order, per layout. */
  static const intptr_t kBhsd[4] = {0, 1, 2, 3}, kBshd[4] = {0, 2, 1, 3},
                        kBhds[4] = {0, 1, 3, 2};
  if ((unsigned)d >= 4)
    return -1;
  return (bshd ? kBshd : transposed ? kBhds : kBhsd)[d];
}

intptr_t faGridwiseAttentionGetAxis(MlirOperation op, FaAttentionTensor t,
                                    FaAttentionDim d) {
  return faAttentionLayoutGetAxis(hasAttr(op, faGridwiseAttentionGetBshdAttrName(t)),
                                  t == FA_ATTENTION_K && hasAttr(op, "k_transposed"), d);
}
