/* cuLaunchKernelEx's arguments as cuda.h lays them out (the runtime opens the
 * driver with dlopen and includes no CUDA header); shared with the driver
 * double of the tests. */
#ifndef FA_LIB_RUNTIME_CUDALAUNCHCONFIG_H
#define FA_LIB_RUNTIME_CUDALAUNCHCONFIG_H

enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };

typedef struct {
  int id;
  char pad[4];
  union {
    char bytes[64];
    void *align;
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
} CUlaunchAttribute;

typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void *hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;

#endif
