/* Internal: tensors as MLIR's C interface passes them, seeded random
 * inputs, and the element-wise comparison with per-type tolerances. No MLIR
 * dependency: fa-check and fa-run (which runs on machines without MLIR)
 * share it. */
#ifndef FA_LIB_TOOLS_TENSORS_H
#define FA_LIB_TOOLS_TENSORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { ELT_F32, ELT_F16, ELT_BF16, ELT_I1, ELT_I32, ELT_I64, ELT_BAD } Elt;

/* A strided memref descriptor of rank <= 8, laid out as MLIR passes it:
 * allocated, aligned, offset, sizes[rank], strides[rank]. */
typedef struct {
  void *allocated, *aligned;
  int64_t words[1 + 16];
} Desc;

typedef struct {
  Elt elt;
  int rank;
  int64_t sizes[8];
  int64_t numElements;
} TensorInfo;

typedef struct {
  int numResults;
  TensorInfo info[8];
  char *storage; /* the result descriptors, as the callee writes them */
} Results;

extern const size_t kEltBytes[];
extern const char *const kEltNames[];
extern const double kAtol[], kRtol[];

uint16_t halfFromFloat(float f);
float floatFromHalf(uint16_t h);
uint16_t bf16FromFloat(float f);
float floatFromBf16(uint16_t h);
double eltGet(const char *p, Elt e);
void descInit(Desc *d, const TensorInfo *info, void *data);
size_t descBytes(int rank);
uint64_t nextRandom(uint64_t *s);
/* A buffer of `info` with seeded random values: floats uniform in
 * [-scale, scale] (0/1 when `binary`), integers in [0, intMax]. */
void *randomBuffer(const TensorInfo *info, uint64_t *state, int64_t intMax, double scale,
                   bool binary);
/* The data pointer, offset, sizes and strides of result `i`. */
void resultView(const Results *r, int i, const char **data, int64_t *offset,
                const int64_t **sizes, const int64_t **strides);
/* Compares output `i`; prints a line; returns true when within tolerance. */
bool compareOutput(const char *func, int i, const Results *ref, const Results *got,
                   double tolScale);

#endif
