/* Per-kernel device time for FA_RT_PROFILE=1 (Profile.c). */
#ifndef FA_RUNTIME_PROFILE_H
#define FA_RUNTIME_PROFILE_H

#include "Driver.h"

/* Remembers `function`'s kernel name (mgpuModuleGetFunction). */
void faRtProfileNameFunction(void *function, const char *name);
/* Around a launch on `stream`: Begin returns its slot (-1: not profiled),
 * End records its end. */
int faRtProfileBegin(const FaRtDriver *driver, void *function, void *stream);
void faRtProfileEnd(const FaRtDriver *driver, int launch, void *stream);

#endif
