/* Which axis of Q, K, V and O holds which dim of fa.gridwise_attention
 * (docs/dialect.md, "Layouts"), from the op's layout attributes. */
#include "fa-c/Dialect.h"

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
  return faAttentionLayoutGetAxis(faGridwiseAttentionIsBshd(op, t),
                                  t == FA_ATTENTION_K && faGridwiseAttentionIsKTransposed(op), d);
}
