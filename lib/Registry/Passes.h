/* Internal: option-parsing constructors of our passes, for the registry. */
#ifndef FA_LIB_REGISTRY_PASSES_H
#define FA_LIB_REGISTRY_PASSES_H

#include "fa-c/Passes.h"

MlirPass faVerifyPassCreateFromOptions(MlirStringRef options,
                                       MlirStringCallback errorCallback,
                                       void *userData);
MlirPass faFuseAttentionPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData);

MlirPass faLowerAttentionPassCreateFromOptions(MlirStringRef options,
                                               MlirStringCallback errorCallback,
                                               void *userData);
MlirPass faLowerBlockwisePassCreateFromOptions(MlirStringRef options,
                                               MlirStringCallback errorCallback,
                                               void *userData);
MlirPass faGpuCheckCallsPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData);
MlirPass faDecomposeAttentionPassCreateFromOptions(MlirStringRef options,
                                                   MlirStringCallback errorCallback,
                                                   void *userData);
MlirPass faDecomposeSoftmaxPassCreateFromOptions(MlirStringRef options,
                                                 MlirStringCallback errorCallback,
                                                 void *userData);
MlirPass faRocdlIntrinsicsPassCreateFromOptions(MlirStringRef options,
                                                MlirStringCallback errorCallback,
                                                void *userData);
MlirPass faExpandErfPassCreateFromOptions(MlirStringRef options,
                                          MlirStringCallback errorCallback,
                                          void *userData);
MlirPass faGpuKernelBoundsPassCreateFromOptions(MlirStringRef options,
                                                MlirStringCallback errorCallback,
                                                void *userData);
MlirPass faGpuHostMemoryPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData);
MlirPass faFreeBuffersPassCreateFromOptions(MlirStringRef options,
                                            MlirStringCallback errorCallback,
                                            void *userData);

#endif
