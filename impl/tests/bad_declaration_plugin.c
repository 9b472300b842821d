/* impl/tests/bad_declaration_plugin.c — a plugin whose declaration gjkref must refuse (CTest impl.bad-declarations):
 * built five times, with BAD_DECLARATION set to 1 (a name that climbs out of --out), 2 (a name outside [a-z0-9-]+),
 * 3 (dimensions = 0), 4 (a scalar gjkref does not know, whose rounding it cannot judge), 5 (a normal without a
 * depth: never asked for, so never judged) or 6 (a library that writes into gjkref's channel, fd 4, while it is listed:
 * a string length of 4 GiB, which gjkref allocated) or 7 (a name that is a group of built-in implementations,
 * "reference": --impl reference chose it alone). Its query answers "separated" and is never called: the library is
 * refused when listed. */
#include <stdint.h>
#include <unistd.h>

#include "gjkref/plugin.h"

static void query(const gjkref_query* q, gjkref_answer* answer) {
  (void)q;
  answer->outcome = GJKREF_SEPARATED;
}

#if BAD_DECLARATION == 1
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "../../../escaped", "test", "double",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE, query};
#elif BAD_DECLARATION == 2
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "My GJK", "test", "double",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE, query};
#elif BAD_DECLARATION == 3
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "no-dimensions", "test", "double", 0,
                                           GJKREF_CAN_DECIDE, query};
#elif BAD_DECLARATION == 4
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "float32-gjk", "test", "float32",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE, query};
#elif BAD_DECLARATION == 5
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "normal-without-depth", "test", "double",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE | GJKREF_CAN_NORMAL, query};
#elif BAD_DECLARATION == 6
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "writes-into-the-channel", "test", "double",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE, query};
#else
static const gjkref_implementation kBad = {GJKREF_PLUGIN_ABI_VERSION, "reference", "test", "double",
                                           GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE, query};
#endif
static const gjkref_implementation* const kAll[] = {&kBad};

const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
#if BAD_DECLARATION == 6
  const uint32_t garbage[2] = {1, 0xFFFFFFF0u}; /* "one implementation, whose name has 4,294,967,280 bytes" */
  if (write(4, garbage, sizeof garbage) != (ssize_t)sizeof garbage) return 0;
#endif
  *count = 1;
  return kAll;
}
