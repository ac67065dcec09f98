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
/* Tolerances per element type: see "what fa-check compares" in Tensors.c. */
extern const double kAtol[], kRtol[];

uint16_t halfFromFloat(float f);
float floatFromHalf(uint16_t h);
uint16_t bf16FromFloat(float f);
float floatFromBf16(uint16_t h);
double eltGet(const char *p, Elt e);
void descInit(Desc *d, const TensorInfo *info, void *data);
size_t descBytes(int rank);
uint64_t nextRandom(uint64_t *s);
/* Sets info->numElements from the sizes and *bytes to the buffer size;
 * false when a size is negative or the product does not fit in 63 bits. */
bool tensorBytes(TensorInfo *info, uint64_t *bytes);
/* Writes "AxBxf32" for `info` into buf. */
void tensorShapeText(const TensorInfo *info, char *buf, size_t size);
/* True when `bytes` fit in this machine's physical memory; otherwise prints
 * "TOOL: WHAT N bytes, more than this machine's M GiB of memory" (WHAT ends
 * in a verb, e.g. "f: the inputs need") and returns false. */
bool checkFitsInMemory(const char *tool, const char *what, uint64_t bytes);
/* A copy of `bytes` bytes of `data` in fresh heap memory (NULL when out of
 * memory; a message names `tool` and the size). */
void *copyBuffer(const char *tool, const void *data, uint64_t bytes);

/* Fills `data`, a buffer of `info`, with seeded random values: floats
 * uniform in [-scale, scale] (0/1 when `binary`), integers in [0, intMax]. */
void randomFill(void *data, const TensorInfo *info, uint64_t *state, int64_t intMax,
                double scale, bool binary);
/* The data pointer, offset, sizes and strides of result `i`. */
void resultView(const Results *r, int i, const char **data, int64_t *offset,
                const int64_t **sizes, const int64_t **strides);
/* Compares output `i` of `got` with that of `ref` (the reference) by the
 * rules in Tensors.c ("what fa-check compares": tolerances, NaN and inf,
 * fully masked rows); prints one line ("FUNC: output I (...): max abs err
 * ..., max rel err ...  ok|MISMATCH"; with FA_CHECK_VERBOSE set, the first
 * mismatching elements too); returns true when every element agrees. */
bool compareOutput(const char *func, int i, const Results *ref, const Results *got,
                   double tolScale);

#endif
