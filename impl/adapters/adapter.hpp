// impl/adapters/adapter.hpp — what every built-in adapter of a third-party library shares. Each adapter is a plugin
// (gjkref/plugin.h) like a user's, loaded in a worker process of its own: Bullet's float and double builds export the
// same symbols and could not share one process, and a crash or a hang in a library must not stop a campaign.
#pragma once

#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include "gjkref/plugin.h"
#include "gjkref/vec.hpp"

namespace gjkref::adapters {

using Point = std::array<double, 3>;

// The points of A (`side` 0) or B (`side` 1) of a query, z = 0 in 2D.
inline std::vector<Point> points_of(const gjkref_query& q, int side) {
  const double* p = side == 0 ? q.a : q.b;
  const std::size_t n = side == 0 ? q.count_a : q.count_b;
  std::vector<Point> out(n, Point{0, 0, 0});
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < q.dim; ++k) out[i][k] = p[i * q.dim + k];
  return out;
}

// A coordinate as a library of scalar T takes it: rounded to nearest, ±∞ beyond T's range (gjkref::ScalarCast, which
// states what a plain float(x) leaves undefined for doubles beyond float's range).
template <class T>
T narrowed(double x) {
  return gjkref::ScalarCast<T, double>::apply(x);
}

// A library of scalar T cannot take a finite double beyond T's range (narrowed, it becomes ±∞, which the library was
// never written for): the adapter refuses such a query, as outside the library's API, and says so; true when it did.
// (A coordinate that is itself not finite is passed on: telling invalid input is the library's job, and judged.)
template <class T>
bool refused_beyond_range(const gjkref_query& q, gjkref_answer& answer, const char* scalar) {
  for (int side = 0; side < 2; ++side)
    for (const auto& p : points_of(q, side))
      for (int k = 0; k < q.dim; ++k)
        if (std::isfinite(p[k]) && !std::isfinite(narrowed<T>(p[k]))) {
          answer.outcome = GJKREF_REFUSED;
          std::snprintf(answer.detail, sizeof answer.detail, "a coordinate beyond %s's range, the library's scalar",
                        scalar);
          return true;
        }
  return false;
}

// The answer's detail: plain text, or a printf format with its arguments.
inline void say(gjkref_answer& answer, const char* text) { std::snprintf(answer.detail, sizeof answer.detail, "%s", text); }
template <class... Args>
  requires(sizeof...(Args) > 0)
void say(gjkref_answer& answer, const char* format, Args... args) {
  std::snprintf(answer.detail, sizeof answer.detail, format, args...);
}

inline void answer_separated(gjkref_answer& answer, double distance) {
  answer.outcome = GJKREF_SEPARATED;
  answer.has_distance = 1;
  answer.distance = distance;
}

template <class P>
void set_witnesses(gjkref_answer& answer, const P& on_a, const P& on_b) {
  answer.has_witnesses = 1;
  for (int k = 0; k < 3; ++k) {
    answer.witness_a[k] = static_cast<double>(on_a[k]);
    answer.witness_b[k] = static_cast<double>(on_b[k]);
  }
}

// The three parts of an intersecting answer (plugin.h, version 2): the depth; the normal, from A into B (the
// direction to move B to separate the shapes; any length); and A's and B's deepest points, with
// contact_a − contact_b = depth·normal/|normal|. Each adapter converts its library's own conventions before calling
// these. P is indexable 0..2 (a Point for 2D libraries, with z = 0).
inline void set_penetration(gjkref_answer& answer, double depth) {
  answer.has_penetration = 1;
  answer.penetration_depth = depth;
}

template <class P>
void set_normal(gjkref_answer& answer, const P& normal) {
  answer.has_normal = 1;
  for (int k = 0; k < 3; ++k) answer.normal[k] = static_cast<double>(normal[k]);
}

template <class P>
void set_contacts(gjkref_answer& answer, const P& on_a, const P& on_b) {
  answer.has_contacts = 1;
  for (int k = 0; k < 3; ++k) {
    answer.contact_a[k] = static_cast<double>(on_a[k]);
    answer.contact_b[k] = static_cast<double>(on_b[k]);
  }
}

// A query function that turns a C++ exception escaping the library into GJKREF_THREW with the exception's text:
// exceptions must not cross the C ABI, and the report counts them apart from failures.
template <void (*Run)(const gjkref_query&, gjkref_answer&)>
void guarded(const gjkref_query* query, gjkref_answer* answer) {
  try {
    Run(*query, *answer);
  } catch (const std::exception& e) {
    *answer = gjkref_answer{};
    answer->outcome = GJKREF_THREW;
    say(*answer, "%s", e.what());
  } catch (...) {
    *answer = gjkref_answer{};
    answer->outcome = GJKREF_THREW;
    say(*answer, "(not a std::exception)");
  }
}

}  // namespace gjkref::adapters
