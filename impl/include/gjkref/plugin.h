/* gjkref/plugin.h — the plugin ABI: run your own GJK (or any convex intersection/distance code) through gjkref.
 *
 * Build a shared library that defines gjkref_plugin_implementations() and run it with
 *   gjkref check --plugin path/to/libmine.so      or      gjkref eval --plugin path/to/libmine.so CASES...
 * gjkref loads it in a worker process of its own (docs/comparing.md), so a crash, an abort or a hang in it is recorded
 * as a finding and the campaign carries on. Plain C, no gjkref header or library needed beyond this file.
 *
 * The questions are always about two finite point sets A and B (each the vertex list of a convex polytope, interior
 * points and repeats allowed) in 2D or 3D: do conv(A) and conv(B) intersect (touching counts as intersecting), and
 * how far apart are they, and, when they overlap, how deep (the translational penetration depth), along which normal
 * and between which contact points. gjkref judges every answer it is given against its exact oracles under
 * docs/contract.md.
 */
#ifndef GJKREF_PLUGIN_H
#define GJKREF_PLUGIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a struct below changes layout or a call's meaning changes. Version 2 appended the normal and the contact
 * points to gjkref_answer; plugins built for version 1 keep loading (gjkref zeroes the whole answer, and a version-1
 * plugin writes only the fields it knows). Version 3 changed what an answer holds before the call: its outcome is
 * GJKREF_UNANSWERED, so that a query that returns without answering is recorded as such instead of reading as
 * GJKREF_SEPARATED (plugins built for versions 1 and 2 keep loading, and keep the zeroed answer they were written
 * for). gjkref refuses any other version. */
#define GJKREF_PLUGIN_ABI_VERSION 3
#define GJKREF_PLUGIN_ABI_OLDEST 1

/* What an implementation can answer (bits of gjkref_implementation.capabilities). */
enum {
  GJKREF_CAN_DECIDE = 1,      /* a verdict: separated or intersecting */
  GJKREF_CAN_MEASURE = 2,     /* the distance between separated shapes */
  GJKREF_CAN_WITNESS = 4,     /* closest points on A and B */
  GJKREF_CAN_PENETRATE = 8,   /* a penetration depth for intersecting shapes */
  GJKREF_CAN_NORMAL = 16,     /* a contact normal for intersecting shapes (version 2; needs GJKREF_CAN_PENETRATE) */
  GJKREF_CAN_CONTACT = 32     /* contact points on A and B, intersecting (version 2; needs GJKREF_CAN_PENETRATE) */
};

/* Dimensions an implementation accepts (bits of gjkref_implementation.dimensions). */
enum { GJKREF_2D = 1, GJKREF_3D = 2 };

/* One query: the points of A and B, `dim` coordinates each, packed (x0, y0[, z0], x1, ...). Never empty, never NaN
 * or infinite: gjkref answers invalid input itself and does not call the plugin for it. */
typedef struct gjkref_query {
  int dim; /* 2 or 3 */
  size_t count_a;
  const double* a;
  size_t count_b;
  const double* b;
} gjkref_query;

/* The implementation's own account of what happened. */
typedef enum gjkref_outcome {
  GJKREF_SEPARATED = 0,    /* the shapes do not intersect */
  GJKREF_INTERSECTING = 1, /* they intersect or touch */
  GJKREF_FAILED = 2,       /* the implementation reported a failure (iteration limit, degenerate input, ...):
                              say which in `detail` */
  GJKREF_THREW = 3,        /* an exception escaped the implementation (C++ plugins catch it at the ABI boundary and
                              put its text in `detail`; exceptions must not cross a C interface) */
  GJKREF_REFUSED = 4,      /* version 2: the input is outside what the implementation's API accepts, as documented
                              by its library (Box2D's polygons take 3 to 8 vertices, ...): say which in `detail`.
                              Not judged, and counted as refused in the reports; refusing is a declaration of scope,
                              not a way around the judge: `gjkref check` exits 4 when an
                              implementation had no answer judged. */
  GJKREF_UNANSWERED = 5    /* version 3: what gjkref puts in `outcome` before the call. An answer that still holds it
                              when the call returns was not given: recorded as failed ("returned without answering"),
                              whatever else was set. Never answer it yourself. */
} gjkref_outcome;

typedef struct gjkref_answer {
  gjkref_outcome outcome;
  int has_distance;       /* set with `distance` when separated and the implementation measures */
  double distance;        /* Euclidean distance between conv(A) and conv(B), in the input's units */
  int has_witnesses;      /* set with the two points below */
  double witness_a[3];    /* closest point on conv(A) (z ignored in 2D) */
  double witness_b[3];    /* closest point on conv(B) */
  int has_penetration;    /* set with `penetration_depth` when intersecting and the implementation measures it */
  double penetration_depth; /* the length of the shortest translation of B that leaves the shapes touching */
  char detail[160];       /* free text for the report (a status name, a stop reason); NUL-terminated */
  /* Version 2. All three describe the same contact: translating B by penetration_depth·normal separates the shapes
   * to touching, and contact_a − contact_b = penetration_depth·normal/|normal|. */
  int has_normal;         /* set with `normal` when intersecting */
  double normal[3];       /* any length (gjkref normalises it); points from A into B: the direction to move B */
  int has_contacts;       /* set with the two points below when intersecting */
  double contact_a[3];    /* A's deepest point in B (on conv(A)) */
  double contact_b[3];    /* B's deepest point in A (on conv(B)) */
} gjkref_answer;

typedef struct gjkref_implementation {
  int abi_version;         /* GJKREF_PLUGIN_ABI_VERSION (or 1 or 2, for a plugin built against those versions) */
  const char* name;        /* unique, [a-z0-9-]+, e.g. "mylib-gjk" */
  const char* version;     /* of the code under test, e.g. "2.1" or a commit */
  const char* scalar;      /* "float", "double", "long double", "exact" or "certified" (exact answers for double input,
                              correctly rounded): decides the contract's rounding allowance; gjkref refuses others */
  unsigned dimensions;     /* GJKREF_2D | GJKREF_3D */
  unsigned capabilities;   /* GJKREF_CAN_* */
  /* Answers one query into *answer. The caller zeroes it first and, from version 3, sets its outcome to
   * GJKREF_UNANSWERED: set the outcome on every path (an answer left untouched is recorded as failed; under versions 1
   * and 2 it read as GJKREF_SEPARATED with no number). Every field whose has_ flag is set is judged, whatever the
   * outcome, and each capability declared must come with the answers that call for it (docs/comparing.md, "What is
   * judged"). May crash, abort or never return: gjkref records it. */
  void (*query)(const gjkref_query* query, gjkref_answer* answer);
} gjkref_implementation;

/* The one symbol a plugin exports: its implementations (one or more), and their number in *count. The pointers must
 * stay valid while the library is loaded. */
const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* GJKREF_PLUGIN_H */
