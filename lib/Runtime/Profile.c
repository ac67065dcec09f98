/* Per-kernel device time (FA_RT_PROFILE=1): each launch between two events
 * on its stream, summed per kernel name and printed to stderr at exit. ncu
 * cannot attach where our tools run; this says which launch of a call (a
 * data mask's summaries and key-range table, the kernel) takes the time. */
#include "Profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FUNCTIONS = 256, MAX_LAUNCHES = 1 << 16, NAME_LEN = 96 };

typedef struct {
  void *function;
  char name[NAME_LEN];
} Named;

typedef struct {
  int function; /* index into gNamed */
  void *start, *end;
} Launch;

static Named gNamed[MAX_FUNCTIONS];
static int gNumNamed;
static Launch gLaunches[MAX_LAUNCHES];
static int gNumLaunches;
static int gEnabled = -1;
static const FaRtDriver *gDriver;

static bool enabled(void) {
  if (gEnabled < 0) {
    const char *env = getenv("FA_RT_PROFILE");
    gEnabled = env && env[0] && strcmp(env, "0") != 0;
  }
  return gEnabled;
}

void faRtProfileNameFunction(void *function, const char *name) {
  if (!enabled() || !function || gNumNamed == MAX_FUNCTIONS)
    return;
  gNamed[gNumNamed].function = function;
  snprintf(gNamed[gNumNamed].name, NAME_LEN, "%s", name);
  ++gNumNamed;
}

static int indexOf(void *function) {
  for (int i = 0; i < gNumNamed; ++i)
    if (gNamed[i].function == function)
      return i;
  return -1;
}

static void report(void) {
  double total[MAX_FUNCTIONS] = {0};
  int count[MAX_FUNCTIONS] = {0};
  for (int i = 0; i < gNumLaunches; ++i) {
    Launch *l = &gLaunches[i];
    float ms = 0;
    if (gDriver->eventSynchronize(l->end) == 0 && gDriver->eventElapsedMs(&ms, l->start, l->end) == 0) {
      total[l->function] += ms;
      ++count[l->function];
    }
  }
  for (int f = 0; f < gNumNamed; ++f)
    if (count[f])
      fprintf(stderr, "fa-rt profile: %-48s %6d launches, mean %9.2f us\n", gNamed[f].name,
              count[f], total[f] * 1e3 / count[f]);
}

int faRtProfileBegin(const FaRtDriver *driver, void *function, void *stream) {
  if (!enabled() || gNumLaunches == MAX_LAUNCHES)
    return -1;
  int f = indexOf(function);
  Launch *l = &gLaunches[gNumLaunches];
  if (f < 0 || driver->eventCreate(&l->start) || driver->eventCreate(&l->end))
    return -1;
  if (!gDriver) {
    gDriver = driver;
    atexit(report);
  }
  l->function = f;
  driver->eventRecord(l->start, stream);
  return gNumLaunches++;
}

void faRtProfileEnd(const FaRtDriver *driver, int launch, void *stream) {
  if (launch >= 0)
    driver->eventRecord(gLaunches[launch].end, stream);
}
