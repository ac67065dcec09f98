/* fa-check's comparison rules (lib/Tools/Tensors.c, "what fa-check compares";
 * docs/lowering.md), tested on hand-made buffers through compareOutput, the
 * function fa-check and fa-run call: NaN and infinities exactly, finite values
 * within atol + rtol |reference| per element type, and the fully-masked-row
 * exemption (a row NaN in every element of the reference and 0 in every element
 * of fa's is counted, not compared). Each case prints compareOutput's line under
 * its own name; every CHECK below fails if that rule changes.
 */
// RUN: fa-unit-compare 2>&1 | FileCheck %s
#include "Tools/Tensors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One output as a run returns it: the descriptor (allocated, aligned, offset,
 * sizes, strides) in `storage`, the elements in `data`. */
typedef struct {
  Results results;
  char storage[2 * sizeof(void *) + 8 * 17];
  char data[64 * 8];
} Output;

/* Writes `n` values into `o` as elements of type `elt` with `rank` and `sizes`
 * (row-major, or with `strides` and `offset` when strides is not NULL). */
static void makeOutput(Output *o, Elt elt, int rank, const int64_t *sizes,
                       const int64_t *strides, int64_t offset, const double *values, int n) {
  memset(o, 0, sizeof *o);
  o->results.numResults = 1;
  o->results.info[0].elt = elt;
  o->results.info[0].rank = rank;
  memcpy(o->results.info[0].sizes, sizes, sizeof(int64_t) * (size_t)rank);
  o->results.storage = o->storage;
  size_t eb = kEltBytes[elt];
  for (int i = 0; i < n; ++i) {
    char *p = o->data + (size_t)i * eb;
    float f = (float)values[i];
    switch (elt) {
    case ELT_F32: memcpy(p, &f, 4); break;
    case ELT_F16: { uint16_t h = halfFromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_BF16: { uint16_t h = bf16FromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_I1: *p = values[i] != 0; break;
    case ELT_I32: { int32_t v = (int32_t)values[i]; memcpy(p, &v, 4); break; }
    case ELT_I64: { int64_t v = (int64_t)values[i]; memcpy(p, &v, 8); break; }
    default: break;
    }
  }
  void *data = o->data;
  int64_t words[17] = {offset};
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    words[1 + d] = sizes[d];
    words[1 + rank + d] = strides ? strides[d] : stride;
    stride *= sizes[d];
  }
  memcpy(o->storage, &data, sizeof data);
  memcpy(o->storage + sizeof data, &data, sizeof data);
  memcpy(o->storage + 2 * sizeof data, words, 8 * (1 + 2 * (size_t)rank));
}

static Output ref, got;

/* Compares `got` with `ref` (both row-major) under the name `name`. */
static void compare(const char *name, Elt elt, int rank, const int64_t *sizes,
                    const double *refValues, const double *gotValues) {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d)
    n *= sizes[d];
  makeOutput(&ref, elt, rank, sizes, NULL, 0, refValues, (int)n);
  makeOutput(&got, elt, rank, sizes, NULL, 0, gotValues, (int)n);
  compareOutput(name, 0, &ref.results, &got.results, 1.0);
}

/* The representable value of `elt` farthest from `r` (away from zero) that is
 * still within the tolerance of `r` as reference, and the next one. */
static void boundary(Elt elt, double r, double *inside, double *outside) {
  double tol = kAtol[elt] + kRtol[elt] * fabs(r), v = r, next;
  for (;;) {
    if (elt == ELT_F32) {
      next = nextafterf((float)v, v < 0 ? -INFINITY : INFINITY);
    } else {
      uint16_t h = elt == ELT_F16 ? halfFromFloat((float)v) : bf16FromFloat((float)v);
      ++h; /* the next magnitude, same sign */
      next = elt == ELT_F16 ? floatFromHalf(h) : floatFromBf16(h);
    }
    if (fabs(next - r) > tol)
      break;
    v = next;
  }
  *inside = v;
  *outside = next;
}

/* Just inside and just outside the tolerance of `r` for outputs of `elt`. */
static void edges(const char *name, Elt elt, double r) {
  double in, out;
  boundary(elt, r, &in, &out);
  char title[64];
  printf("%s: reference %.9g, inside %.9g, outside %.9g\n", name, r, in, out);
  int64_t one[1] = {1};
  snprintf(title, sizeof title, "%s_inside", name);
  compare(title, elt, 1, one, &r, &in);
  snprintf(title, sizeof title, "%s_outside", name);
  compare(title, elt, 1, one, &r, &out);
}

int main(void) {
  setenv("FA_CHECK_VERBOSE", "1", 1);
  const double nan = NAN, inf = INFINITY;
  int64_t rows2x3[2] = {2, 3}, row3[1] = {3}, row4[1] = {4}, one[1] = {1};

  // NaN against NaN agrees, also in a row that is not entirely NaN.
  // CHECK: nan_vs_nan: output 0 (f32, 6 elements): max abs err 0.000e+00, max rel err 0.000e+00  ok{{$}}
  compare("nan_vs_nan", ELT_F32, 2, rows2x3, (double[]){1, nan, 3, 4, 5, 6},
          (double[]){1, nan, 3, 4, 5, 6});

  // NaN against 0 where the reference row is not NaN in every element (fa's
  // row is all 0): a mismatch per NaN element, not a masked row.
  // CHECK-NEXT: at [0, 0]: reference nan, fa 0
  // CHECK-NEXT: at [0, 1]: reference nan, fa 0
  // CHECK-NEXT: nan_vs_zero_partial_row: output 0 (f32, 6 elements): max abs err inf, max rel err 0.000e+00  MISMATCH (2 beyond atol 2.0e-04 + rtol 2.0e-03){{$}}
  compare("nan_vs_zero_partial_row", ELT_F32, 2, rows2x3, (double[]){nan, nan, 0, 4, 5, 6},
          (double[]){0, 0, 0, 4, 5, 6});

  // A reference row NaN in every element against a row of zeros (-0 too) in
  // fa: exempt, and reported. The other row is compared as usual.
  // CHECK-NEXT: masked_row: output 0 (f32, 6 elements): max abs err 0.000e+00, max rel err 0.000e+00  ok [1 fully masked rows: NaN in the reference, 0 in fa by the op's definition]
  compare("masked_row", ELT_F32, 2, rows2x3, (double[]){nan, nan, nan, 4, 5, 6},
          (double[]){0, -0.0, 0, 4, 5, 6});

  // ... but the other row is still compared.
  // CHECK-NEXT: at [1, 2]: reference 6, fa 7
  // CHECK-NEXT: masked_row_other_row_off: output 0 {{.*}}  MISMATCH (1 beyond {{.*}}) [1 fully masked rows:
  compare("masked_row_other_row_off", ELT_F32, 2, rows2x3, (double[]){nan, nan, nan, 4, 5, 6},
          (double[]){0, 0, 0, 4, 5, 7});

  // An all-NaN reference row where fa has one non-zero element: not exempt,
  // every element of the row is compared (NaN against 0 disagrees too).
  // CHECK-NEXT: at [0, 0]: reference nan, fa 0
  // CHECK-NEXT: at [0, 1]: reference nan, fa 0.5
  // CHECK-NEXT: at [0, 2]: reference nan, fa 0
  // CHECK-NEXT: masked_row_one_nonzero: output 0 (f32, 6 elements): max abs err inf, {{.*}}  MISMATCH (3 beyond atol 2.0e-04 + rtol 2.0e-03){{$}}
  compare("masked_row_one_nonzero", ELT_F32, 2, rows2x3, (double[]){nan, nan, nan, 4, 5, 6},
          (double[]){0, 0.5, 0, 4, 5, 6});

  // ... or one NaN element: that one agrees, the zeros do not.
  // CHECK-NEXT: at [0, 0]: reference nan, fa 0
  // CHECK-NEXT: at [0, 2]: reference nan, fa 0
  // CHECK-NEXT: masked_row_one_nan: output 0 {{.*}}  MISMATCH (2 beyond {{.*}}){{$}}
  compare("masked_row_one_nan", ELT_F32, 2, rows2x3, (double[]){nan, nan, nan, 4, 5, 6},
          (double[]){0, nan, 0, 4, 5, 6});

  // The exemption is one way: 0 in the reference against NaN in fa disagrees.
  // CHECK: zero_vs_nan_row: output 0 {{.*}}  MISMATCH (3 beyond {{.*}}){{$}}
  compare("zero_vs_nan_row", ELT_F32, 1, row3, (double[]){0, 0, 0}, (double[]){nan, nan, nan});

  // Infinities: +inf against +inf and -inf against -inf agree.
  // CHECK: inf_vs_inf: output 0 (f32, 3 elements): max abs err 0.000e+00, max rel err 0.000e+00  ok{{$}}
  compare("inf_vs_inf", ELT_F32, 1, row3, (double[]){inf, -inf, 1}, (double[]){inf, -inf, 1});

  // +inf against -inf disagrees.
  // CHECK-NEXT: at [0]: reference inf, fa -inf
  // CHECK-NEXT: pinf_vs_ninf: output 0 (f32, 1 elements): max abs err inf, {{.*}}  MISMATCH (1 beyond
  compare("pinf_vs_ninf", ELT_F32, 1, one, (double[]){inf}, (double[]){-inf});

  // -inf against a finite value disagrees, even the lowest f32 (what upstream's
  // tosa.reduce_max gives for an all -inf row).
  // CHECK-NEXT: at [0]: reference -inf, fa -3.40282e+38
  // CHECK-NEXT: ninf_vs_lowest: output 0 (f32, 2 elements): max abs err inf, {{.*}}  MISMATCH (1 beyond
  compare("ninf_vs_lowest", ELT_F32, 1, (int64_t[]){2}, (double[]){-inf, 1},
          (double[]){-3.4028234663852886e38, 1});

  // A finite reference against an infinity in fa disagrees.
  // CHECK-NEXT: at [0]: reference 1, fa inf
  // CHECK-NEXT: finite_vs_inf: output 0 {{.*}}  MISMATCH (1 beyond
  compare("finite_vs_inf", ELT_F32, 1, one, (double[]){1}, (double[]){inf});

  // Tolerances: atol + rtol |reference|, the reference's magnitude. Just
  // inside and just outside for each float type, at 1 and at -64.
  // CHECK-NEXT: f32_at_1: reference 1, inside 1.00219989, outside 1.00220001
  // CHECK-NEXT: f32_at_1_inside: output 0 (f32, 1 elements): max abs err 2.200e-03, max rel err 2.200e-03  ok{{$}}
  // CHECK-NEXT: at [0]: reference 1, fa 1.0022
  // CHECK-NEXT: f32_at_1_outside: output 0 (f32, 1 elements): max abs err 2.200e-03, max rel err 2.200e-03  MISMATCH (1 beyond atol 2.0e-04 + rtol 2.0e-03){{$}}
  edges("f32_at_1", ELT_F32, 1);
  // CHECK-NEXT: f32_at_-64: reference -64, inside -64.1281967, outside -64.1282043
  // CHECK-NEXT: f32_at_-64_inside: {{.*}}  ok{{$}}
  // CHECK-NEXT: at [0]: reference -64, fa -64.1282
  // CHECK-NEXT: f32_at_-64_outside: {{.*}}  MISMATCH (1 beyond
  edges("f32_at_-64", ELT_F32, -64);
  // CHECK-NEXT: f16_at_1: reference 1, inside 1.0390625, outside 1.04003906
  // CHECK-NEXT: f16_at_1_inside: output 0 (f16, 1 elements): max abs err 3.906e-02, max rel err 3.906e-02  ok{{$}}
  // CHECK-NEXT: at [0]: reference 1, fa 1.04004
  // CHECK-NEXT: f16_at_1_outside: output 0 (f16, 1 elements): max abs err 4.004e-02, max rel err 4.004e-02  MISMATCH (1 beyond atol 2.0e-02 + rtol 2.0e-02){{$}}
  edges("f16_at_1", ELT_F16, 1);
  // CHECK-NEXT: f16_at_-64: reference -64, inside -65.25, outside -65.3125
  // CHECK-NEXT: f16_at_-64_inside: {{.*}}  ok{{$}}
  // CHECK-NEXT: at [0]: reference -64, fa -65.3125
  // CHECK-NEXT: f16_at_-64_outside: {{.*}}  MISMATCH (1 beyond
  edges("f16_at_-64", ELT_F16, -64);
  // CHECK-NEXT: bf16_at_1: reference 1, inside 1.296875, outside 1.3046875
  // CHECK-NEXT: bf16_at_1_inside: output 0 (bf16, 1 elements): max abs err 2.969e-01, max rel err 2.969e-01  ok{{$}}
  // CHECK-NEXT: at [0]: reference 1, fa 1.30469
  // CHECK-NEXT: bf16_at_1_outside: output 0 (bf16, 1 elements): max abs err 3.047e-01, max rel err 3.047e-01  MISMATCH (1 beyond atol 1.5e-01 + rtol 1.5e-01){{$}}
  edges("bf16_at_1", ELT_BF16, 1);
  // CHECK-NEXT: bf16_at_-64: reference -64, inside -73.5, outside -74
  // CHECK-NEXT: bf16_at_-64_inside: {{.*}}  ok{{$}}
  // CHECK-NEXT: at [0]: reference -64, fa -74
  // CHECK-NEXT: bf16_at_-64_outside: {{.*}}  MISMATCH (1 beyond
  edges("bf16_at_-64", ELT_BF16, -64);

  // The relative part scales with the reference's magnitude, not fa's: fa's 1
  // against a reference of 1.0022 agrees (2e-4 + 2e-3 x 1.0022 = 2.2044e-3),
  // where fa's 1.0022 against a reference of 1 did not (2.2e-3, above).
  // CHECK-NEXT: rtol_of_reference: {{.*}}  ok{{$}}
  compare("rtol_of_reference", ELT_F32, 1, one, (double[]){1.00220001}, (double[]){1});

  // An lse-like rank-1 output [M]: the last (only) dim is the row. Every
  // element NaN in the reference and 0 in fa: one masked row.
  // CHECK-NEXT: lse_masked: output 0 (f32, 4 elements): {{.*}}  ok [1 fully masked rows:
  compare("lse_masked", ELT_F32, 1, row4, (double[]){nan, nan, nan, nan}, (double[]){0, 0, 0, 0});
  // fa's lse of a query without keys is -inf: it agrees with a guarded
  // source's -inf (torch.logsumexp) ...
  // CHECK-NEXT: lse_guarded: output 0 (f32, 4 elements): max abs err 0.000e+00, {{.*}}  ok{{$}}
  compare("lse_guarded", ELT_F32, 1, row4, (double[]){-inf, -inf, 1, 2},
          (double[]){-inf, -inf, 1, 2});
  // ... and is a mismatch against an unguarded source's NaN, whole row or not.
  // CHECK-NEXT: at [0]: reference nan, fa -inf
  // CHECK-NEXT: at [1]: reference nan, fa -inf
  // CHECK-NEXT: lse_unguarded: output 0 (f32, 4 elements): max abs err inf, {{.*}}  MISMATCH (2 beyond
  compare("lse_unguarded", ELT_F32, 1, row4, (double[]){nan, nan, 1, 2},
          (double[]){-inf, -inf, 1, 2});
  // CHECK: lse_unguarded_all: output 0 (f32, 4 elements): max abs err inf, {{.*}}  MISMATCH (4 beyond
  compare("lse_unguarded_all", ELT_F32, 1, row4, (double[]){nan, nan, nan, nan},
          (double[]){-inf, -inf, -inf, -inf});
  // The same row with a query that has keys is not masked: a mismatch.
  // CHECK: lse_partly_masked: output 0 (f32, 4 elements): max abs err inf, {{.*}}  MISMATCH (3 beyond
  compare("lse_partly_masked", ELT_F32, 1, row4, (double[]){nan, nan, nan, 1},
          (double[]){0, 0, 0, 1});

  // A rank-0 output is one row of one element.
  // CHECK: scalar_masked: output 0 (f32, 1 elements): {{.*}}  ok [1 fully masked rows:
  compare("scalar_masked", ELT_F32, 0, one, (double[]){nan}, (double[]){0});

  // Half types: NaN and the exemption read f16/bf16 NaNs.
  // CHECK-NEXT: f16_masked: output 0 (f16, 6 elements): {{.*}}  ok [1 fully masked rows:
  compare("f16_masked", ELT_F16, 2, rows2x3, (double[]){1, 2, 3, nan, nan, nan},
          (double[]){1, 2, 3, 0, 0, 0});
  // CHECK-NEXT: bf16_masked: output 0 (bf16, 6 elements): {{.*}}  ok [1 fully masked rows:
  compare("bf16_masked", ELT_BF16, 2, rows2x3, (double[]){1, 2, 3, nan, nan, nan},
          (double[]){1, 2, 3, 0, 0, 0});

  // Rows follow the logical innermost dim, not memory: fa's output here is a
  // transposed view (strides [1, 2], offset 1) of a buffer.
  // CHECK-NEXT: strided_masked: output 0 (f32, 6 elements): max abs err 0.000e+00, {{.*}}  ok [1 fully masked rows:
  makeOutput(&ref, ELT_F32, 2, rows2x3, NULL, 0, (double[]){nan, nan, nan, 4, 5, 6}, 6);
  makeOutput(&got, ELT_F32, 2, rows2x3, (int64_t[]){1, 2}, 1,
             (double[]){-1, 0, 4, 0, 5, 0, 6}, 7);
  compareOutput("strided_masked", 0, &ref.results, &got.results, 1.0);

  // Integers must be equal.
  // CHECK-NEXT: at [1]: reference 3, fa 4
  // CHECK-NEXT: i32_exact: output 0 (i32, 3 elements): {{.*}}  MISMATCH (1 beyond atol 0.0e+00 + rtol 0.0e+00){{$}}
  compare("i32_exact", ELT_I32, 1, row3, (double[]){1, 3, 5}, (double[]){1, 4, 5});

  // i64 values are compared as integers: 2^53 + 1 against 2^53 (one double).
  // CHECK-NEXT: at [1]: reference 9007199254740993, fa 9007199254740992
  // CHECK-NEXT: i64_exact: output 0 (i64, 2 elements): max abs err 1.000e+00, {{.*}}  MISMATCH (1 beyond atol 0.0e+00 + rtol 0.0e+00){{$}}
  makeOutput(&ref, ELT_I64, 1, (int64_t[]){2}, NULL, 0, (double[]){0, 0}, 2);
  makeOutput(&got, ELT_I64, 1, (int64_t[]){2}, NULL, 0, (double[]){0, 0}, 2);
  int64_t big[2] = {-7, (1ll << 53) + 1}, bigGot[2] = {-7, 1ll << 53};
  memcpy(ref.data, big, sizeof big);
  memcpy(got.data, bigGot, sizeof bigGot);
  compareOutput("i64_exact", 0, &ref.results, &got.results, 1.0);
  // CHECK-NEXT: i64_equal: output 0 (i64, 2 elements): max abs err 0.000e+00, max rel err 0.000e+00  ok{{$}}
  memcpy(got.data, big, sizeof big);
  compareOutput("i64_equal", 0, &ref.results, &got.results, 1.0);

  // Different shapes are a mismatch before any element is read.
  // CHECK-NEXT: shapes: output 0: shapes differ (dim 1: 3 vs 2)
  makeOutput(&ref, ELT_F32, 2, rows2x3, NULL, 0, (double[]){1, 2, 3, 4, 5, 6}, 6);
  makeOutput(&got, ELT_F32, 2, (int64_t[]){2, 2}, NULL, 0, (double[]){1, 2, 3, 4}, 4);
  printf("%s\n", compareOutput("shapes", 0, &ref.results, &got.results, 1.0) ? "agree"
                                                                            : "disagree");
  // CHECK-NEXT: disagree
  return 0;
}
