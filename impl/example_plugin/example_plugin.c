/* impl/example_plugin/example_plugin.c — how to run your own implementation through gjkref (docs/comparing.md).
 *
 * A textbook 2D boolean GJK in plain C, written the way many first implementations are: it decides "separated" as
 * soon as a new support point fails to pass the origin (a strict test, so exactly touching shapes are called
 * separated), and it stops after a fixed number of iterations. gjkref's campaigns find both. Build it as a shared
 * library against gjkref/plugin.h only, then:
 *   gjkref eval --plugin ./libgjkref-example-plugin.so cases/examples/touching-squares-2d.json
 *   gjkref check --plugin ./libgjkref-example-plugin.so --dim 2
 */
#include <string.h>

#include "gjkref/plugin.h"

typedef struct { double x, y; } vec2;

static vec2 sub(vec2 a, vec2 b) { vec2 r = {a.x - b.x, a.y - b.y}; return r; }
static vec2 neg(vec2 a) { vec2 r = {-a.x, -a.y}; return r; }
static double dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
/* The vector perpendicular to `edge` on the side of `toward`. */
static vec2 normal_toward(vec2 edge, vec2 toward) {
  vec2 n = {-edge.y, edge.x};
  return dot(n, toward) >= 0 ? n : neg(n);
}

static vec2 farthest(const double* p, size_t n, vec2 d) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i)
    if (p[2 * i] * d.x + p[2 * i + 1] * d.y > p[2 * best] * d.x + p[2 * best + 1] * d.y) best = i;
  vec2 r = {p[2 * best], p[2 * best + 1]};
  return r;
}

/* A support point of A⊖B in direction d. */
static vec2 support(const gjkref_query* q, vec2 d) {
  return sub(farthest(q->a, q->count_a, d), farthest(q->b, q->count_b, neg(d)));
}

enum { kMaxIterations = 32 };

static void query(const gjkref_query* q, gjkref_answer* answer) {
  vec2 d = {1, 0};
  vec2 simplex[3];
  int count = 1;
  simplex[0] = support(q, d);
  d = neg(simplex[0]);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    if (d.x == 0 && d.y == 0) { answer->outcome = GJKREF_INTERSECTING; return; }
    vec2 w = support(q, d);
    if (dot(w, d) < 0) { answer->outcome = GJKREF_SEPARATED; return; }
    simplex[count++] = w;
    if (count == 2) { /* segment [b, a], a newest: search perpendicular to it, toward the origin */
      vec2 a = simplex[1], b = simplex[0];
      d = normal_toward(sub(b, a), neg(a));
    } else { /* triangle [c, b, a]: keep the edge whose outside holds the origin, or stop inside */
      vec2 a = simplex[2], b = simplex[1], c = simplex[0];
      vec2 ab = sub(b, a), ac = sub(c, a), ao = neg(a);
      vec2 ab_out = normal_toward(ab, neg(ac)), ac_out = normal_toward(ac, neg(ab));
      if (dot(ab_out, ao) > 0) { simplex[0] = b; simplex[1] = a; count = 2; d = ab_out; }
      else if (dot(ac_out, ao) > 0) { simplex[0] = c; simplex[1] = a; count = 2; d = ac_out; }
      else { answer->outcome = GJKREF_INTERSECTING; return; }
    }
  }
  answer->outcome = GJKREF_FAILED;
  strcpy(answer->detail, "iteration limit");
}

static const gjkref_implementation kExample = {
    GJKREF_PLUGIN_ABI_VERSION, "example-gjk2d", "1", "double", GJKREF_2D, GJKREF_CAN_DECIDE, query};
static const gjkref_implementation* const kAll[] = {&kExample};

const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = 1;
  return kAll;
}
