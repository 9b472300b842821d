#include "demo.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "gjkref/certify.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/case_shapes.hpp"

namespace gjkref::cli {
namespace {

using casefile::in_dimension;
using casefile::to_shape;

// The demo's cases; each note says what the exact answer is, in words.
std::vector<casefile::Case> demo_cases() {
  const double tiny = std::ldexp(1.0, -1000), huge = std::ldexp(1.0, 900);
  struct Demo {
    std::string name;
    int dim;
    casefile::Shape a, b;
    std::string note;
  };
  const std::vector<Demo> demos = {
      {"touching squares (edge-edge, 2D)",
       2,
       {{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}},
       {{{1, 0.25, 0}, {2, 0.25, 0}, {2, 0.75, 0}, {1, 0.75, 0}}},
       "touching"},
      {"point on a tetrahedron's face (3D)",
       3,
       {{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}}},
       {{{1, 1, 2}}},
       "touching"},
      {"crossing edges (3D)",
       3,
       {{{-1, 0, 0}, {1, 0, 0}, {0, 1, -1}, {0, -1, -1}}},
       {{{0, -1, 0}, {0, 1, 0}, {1, 0, 1}, {-1, 0, 1}}},
       "touching"},
      {"coplanar overlapping triangles (flat A-B)",
       3,
       {{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}},
       {{{0.5, 0.5, 0}, {3, 0.5, 0}, {0.5, 3, 0}}},
       "touching"},
      {"skew segments", 3, {{{0, 0, 0}, {2, 0, 0}}}, {{{1, 1, 3}, {1, -1, 3}}}, "separated, distance 3"},
      {"tiny gap: 2^-41 beyond a 2^-40 tetrahedron",
       3,
       {{{0, 0, 0}, {std::ldexp(1.0, -40), 0, 0}, {0, std::ldexp(1.0, -40), 0}, {0, 0, std::ldexp(1.0, -40)}}},
       {{{std::ldexp(1.5, -40), 0, 0}, {std::ldexp(1.0, -39), 0, 0}}},
       "separated, distance 2^-41"},
      {"face contact at scale 2^-1000",
       3,
       {{{0, 0, 0}, {4 * tiny, 0, 0}, {0, 4 * tiny, 0}, {0, 0, 4 * tiny}}},
       {{{tiny, tiny, 2 * tiny}}},
       "touching"},
      {"separated at scale 2^900",
       3,
       {{{0, 0, 0}, {huge, 0, 0}, {0, huge, 0}}},
       {{{0, 0, 2 * huge}}},
       "separated, distance 2^901"},
      {"overlapping cubes",
       3,
       {{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}, {0, 0, 2}, {2, 0, 2}, {0, 2, 2}, {2, 2, 2}}},
       {{{1, 1, 1}, {3, 1, 1}, {1, 3, 1}, {3, 3, 1}, {1, 1, 3}, {3, 1, 3}, {1, 3, 3}, {3, 3, 3}}},
       "overlapping"},
      {"a NaN coordinate", 3, {{{0, 0, 0}, {std::nan(""), 0, 0}}}, {{{1, 1, 1}}}, "invalid input"},
  };
  std::vector<casefile::Case> cases;
  for (const Demo& d : demos) {
    casefile::Case c;
    c.name = d.name;
    c.dim = d.dim;
    c.a = d.a;
    c.b = d.b;
    c.note = d.note;
    cases.push_back(std::move(c));
  }
  return cases;
}

struct Row {
  std::string mode, verdict, distance, rule, certificate, note;
  int iterations = 0;
  bool refuted_outside_band = false;
};

template <class V>
Row evaluate(const casefile::Case& c, const char* mode) {
  using T = scalar_t<V>;
  Row row;
  row.mode = mode;
  if constexpr (is_exact_v<T>) {
    // An exact rational cannot hold NaN: a NaN case is rejected before conversion.
    for (const auto* shape : {&c.a, &c.b})
      for (const auto& p : shape->points)
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
          row.verdict = "invalid-input";
          row.distance = row.rule = row.certificate = "-";
          return row;
        }
  }
  const ConvexPoints<V> a = to_shape<V>(c.a), b = to_shape<V>(c.b);
  // Say when converting the double input to this mode's scalar changed it: the answer is then about other shapes.
  // (Exact conversion never changes a finite double.)
  if constexpr (!is_exact_v<T>) {
    for (const auto* shape : {&c.a, &c.b})
      for (const auto& p : shape->points)
        for (int i = 0; i < 3; ++i)
          if (std::isfinite(p[i]) && static_cast<double>(static_cast<T>(p[i])) != p[i] && row.note.empty())
            row.note = "  (input rounded to " + row.mode + ")";
  }
  const Result<V> r = distance(a, b);
  row.verdict = to_string(r.status);
  row.rule = to_string(r.stop_rule);
  row.iterations = r.iterations;
  std::ostringstream d;
  if (r.status == Status::InvalidInput) {
    d << to_string(r.input_error);
  } else if constexpr (is_exact_v<T>) {
    const Exact sq = r.squared_distance();
    d << std::setprecision(6) << r.distance();
    if (sq.get_den() == 1 && mpz_sizeinbase(sq.get_num().get_mpz_t(), 10) < 8)
      d << " (d^2 = " << sq << ")";
    else if (sq != 0)
      d << " (exact d^2)";
  } else {
    d << std::setprecision(6) << static_cast<double>(r.distance());
  }
  row.distance = d.str();
  const CertificateReport proof = check_certificate(a, b, r);
  row.certificate = to_string(proof.check);
  row.refuted_outside_band = proof.check == CertificateCheck::Refuted && r.stop_rule != StopRule::TouchingBand;
  return row;
}

template <template <class> class Vec>
std::vector<Row> evaluate_all(const casefile::Case& c) {
  return {evaluate<Vec<float>>(c, "float"), evaluate<Vec<double>>(c, "double"),
          evaluate<Vec<long double>>(c, "long double"), evaluate<Vec<Exact>>(c, "exact")};
}

}  // namespace

int run_demo(std::ostream& out) {
  int refuted = 0;
  out << "gjkref reference on edge cases: distance(A, B) in each scalar mode; every certificate re-checked exactly\n"
      << "from the input coordinates (verified / refuted; touching-band answers are not exact proofs).\n\n";
  out << "  " << std::left << std::setw(13) << "mode" << std::setw(16) << "verdict" << std::setw(30) << "distance"
      << std::setw(19) << "stop rule" << std::setw(7) << "iters"
      << "certificate\n";
  for (const casefile::Case& c : demo_cases()) {
    out << "\n" << c.name << "  [exact answer: " << c.note << "]\n";
    const std::vector<Row> rows = c.dim == 2 ? evaluate_all<Vec2>(c) : evaluate_all<Vec3>(c);
    for (const Row& r : rows) {
      out << "  " << std::left << std::setw(13) << r.mode << std::setw(16) << r.verdict << std::setw(30) << r.distance
          << std::setw(19) << r.rule << std::setw(7) << r.iterations << r.certificate << r.note << "\n";
      if (r.refuted_outside_band) ++refuted;
    }
  }
  out << "\n"
      << (refuted == 0 ? "all certificates hold" : "CERTIFICATES REFUTED: ") << (refuted ? std::to_string(refuted) : "")
      << "\n";
  return refuted;
}

}  // namespace gjkref::cli
