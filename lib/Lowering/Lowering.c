/* The SPMD frame shared by the lowerings (see Lowering.h). */
#include "Lowering/Lowering.h"

#include "Support/PassSupport.h"

#include <string.h>

bool faTargetParseOption(MlirStringRef options, FaTarget *target,
                         MlirStringCallback errorCallback, void *userData) {
  static const struct {
    const char *text;
    FaTarget target;
  } kTargets[] = {{"", FA_TARGET_CPU},
                  {"target=cpu", FA_TARGET_CPU},
                  {"target=gpu", FA_TARGET_GPU},
                  {"target=nvvm", FA_TARGET_NVVM},
                  {"target=nvvm-sm90a", FA_TARGET_NVVM_SM90A}};
  for (size_t i = 0; i < sizeof kTargets / sizeof kTargets[0]; ++i)
    if (mlirStringRefEqual(options, mlirStringRefCreateFromCString(kTargets[i].text))) {
      *target = kTargets[i].target;
      return true;
    }
  faPassReportBadOptions(options, errorCallback, userData);
  return false;
}

MlirPass faLoweringPassCreate(const FaPassDef *def, FaTarget target) {
  return faPassCreate(def, &target, sizeof target);
}

MlirPass faLoweringPassCreateFromOptions(const FaPassDef *def, MlirStringRef options,
                                         MlirStringCallback errorCallback, void *userData) {
  FaTarget target;
  if (!faTargetParseOption(options, &target, errorCallback, userData))
    return (MlirPass){NULL};
  return faLoweringPassCreate(def, target);
}
