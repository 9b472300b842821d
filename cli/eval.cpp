#include "eval.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gjkref/casefile.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/oracle.hpp"
#include "gjkref/case_shapes.hpp"

namespace gjkref::cli {
namespace {

using casefile::in_dimension;
using casefile::to_shape;

using casefile::Case;

// One implementation's answer, reduced to what eval shows and judges.
struct Outcome {
  std::string verdict;                              // "separated", "intersecting", "iteration-limit", "invalid-input"
  double distance = 0;                              // the implementation's distance (0 when intersecting)
  std::string status;                               // details: the stop rule, or the input error
  std::optional<mpq_class> exact_squared_distance;  // exact implementations only
};

struct Implementation {
  std::string name;
  double epsilon;  // the scalar's machine epsilon; 0 for exact
  std::function<Outcome(const Case&)> run;
};

template <class T>
Outcome run_reference(const Case& c) {
  if constexpr (is_exact_v<T>) {
    if (c.has_non_finite_coordinate()) return {"invalid-input", 0, "non-finite input (not representable)", {}};
  }
  return in_dimension<T>(c, [&]<class V>() {
    Outcome o;
    const auto r = distance(to_shape<V>(c.a), to_shape<V>(c.b));
    o.verdict = to_string(r.status);
    o.status = r.status == Status::InvalidInput ? to_string(r.input_error) : to_string(r.stop_rule);
    o.distance = static_cast<double>(r.distance());
    if constexpr (is_exact_v<T>) o.exact_squared_distance = r.squared_distance();
    return o;
  });
}

double epsilon_of_exact() { return 0; }

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> all = {
      {"reference-float", ScalarTraits<float>::epsilon(), run_reference<float>},
      {"reference-double", ScalarTraits<double>::epsilon(), run_reference<double>},
      {"reference-long-double", static_cast<double>(ScalarTraits<long double>::epsilon()), run_reference<long double>},
      {"reference-exact", epsilon_of_exact(), run_reference<Exact>},
  };
  return all;
}

// M and R of docs/contract.md (gjkref/contract.hpp), for the double input.
struct Scales {
  double m = 0, r = 0;
};
Scales scales(const Case& c) {
  return in_dimension<double>(c, [&]<class V>() {
    const ConvexPoints<V> a = to_shape<V>(c.a), b = to_shape<V>(c.b);
    return Scales{input_scale(a, b), largest_coordinate(a, b)};
  });
}

// Agreement under docs/contract.md: "yes", "band" (the verdict differs, allowed inside the verdict band), or "NO".
std::string judge(const oracle::Answer& truth, const Outcome& o, const Implementation& impl, const Case& c) {
  using oracle::Verdict;
  if (truth.verdict == Verdict::InvalidInput) return o.verdict == "invalid-input" ? "yes" : "NO";
  if (o.verdict == "invalid-input" || o.verdict == "iteration-limit") return "NO";
  const bool says_separated = o.verdict == "separated";
  if (impl.epsilon == 0) {  // exact: everything exact
    const bool same_verdict = says_separated == (truth.verdict == Verdict::Separated);
    const bool same_distance = o.exact_squared_distance && *o.exact_squared_distance == truth.squared_distance;
    return same_verdict && same_distance ? "yes" : "NO";
  }
  const Scales s = scales(c);
  switch (judge_floating({says_separated, o.distance}, truth.verdict == Verdict::Separated, truth.distance, impl.epsilon,
                         s.m, s.r, c.dim, impl.name == "reference-float")) {
    case Judgement::Agrees: return "yes";
    case Judgement::WithinBand: return "band";
    case Judgement::Violates: return "NO";
  }
  return "NO";
}

std::string rational_text(const mpq_class& q) {
  const std::string s = q.get_str();
  constexpr std::size_t kLongest = 24;  // longer rationals are summarised in the table (the JSON has them whole)
  return s.size() <= kLongest ? s : "(" + std::to_string(s.size()) + "-character rational)";
}

std::string format_double(double x) {
  std::ostringstream os;
  os << std::setprecision(17) << x;
  return os.str();
}

}  // namespace

std::vector<std::string> implementation_names() {
  std::vector<std::string> names;
  for (const auto& i : implementations()) names.push_back(i.name);
  return names;
}

int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<const Implementation*> chosen;
  for (const auto& impl : implementations())
    if (options.implementations.empty() || std::find(options.implementations.begin(), options.implementations.end(),
                                                     impl.name) != options.implementations.end())
      chosen.push_back(&impl);

  int status = 0;
  int evaluated = 0, disagreements = 0, oracle_disagreements = 0;
  for (const std::string& file : options.files) {
    const casefile::Parsed parsed = casefile::read_file(file);
    if (parsed.error) {
      err << "gjkref eval: " << parsed.error->message() << "\n";
      status = 2;
      continue;
    }
    for (const Case& c : parsed.cases) {
      // Each method checks its answer's certificate exactly and throws if it fails: a bug in gjkref or in CGAL.
      oracle::Answer truth, check;
      try {
        truth = oracle::hull_oracle(c);
        // The independent second method on every case: eval's cases are few. A disagreement is a bug in gjkref.
        check = oracle::qp_oracle(c);
      } catch (const std::logic_error& e) {
        err << "gjkref eval: THE ORACLE FAILED on case '" << c.name << "' (" << file << "): " << e.what()
            << "\nThis is a bug in gjkref; please report it with the case file.\n";
        ++oracle_disagreements;
        ++evaluated;
        continue;
      }
      bool methods_agree = truth.verdict == check.verdict && truth.squared_distance == check.squared_distance;
      for (int k = 0; k < 3; ++k)
        methods_agree = methods_agree && truth.witness_a[k] - truth.witness_b[k] == check.witness_a[k] - check.witness_b[k];
      if (!methods_agree) {
        err << "gjkref eval: THE TWO EXACT ORACLES DISAGREE on case '" << c.name << "' (" << file << "): hull says "
            << oracle::to_string(truth.verdict) << " d^2 = " << truth.squared_distance << ", QP says "
            << oracle::to_string(check.verdict) << " d^2 = " << check.squared_distance
            << ". This is a bug in gjkref; please report it with the case file.\n";
        ++oracle_disagreements;
      }
      ++evaluated;
      nlohmann::json results = nlohmann::json::object();
      std::ostringstream rows;
      for (const Implementation* impl : chosen) {
        const Outcome o = impl->run(c);
        const std::string agrees = judge(truth, o, *impl, c);
        if (agrees == "NO") ++disagreements;
        results[impl->name] = {{"verdict", o.verdict},
                               {"distance", o.distance},
                               {"status", o.status},
                               {"agrees", agrees != "NO"},
                               {"within_band", agrees == "band"}};
        rows << "  " << std::left << std::setw(26) << impl->name << std::setw(16) << o.verdict << std::setw(26)
             << format_double(o.distance) << std::setw(20) << o.status << agrees << "\n";
      }
      // Boost.Geometry's double-precision answer (2D only): an opinion shown beside the exact one, never judged.
      const std::optional<oracle::Opinion> opinion = oracle::boost_geometry_opinion(c);
      nlohmann::json opinions = nlohmann::json::object();
      if (opinion) {
        const bool same = opinion->intersecting == (truth.verdict != oracle::Verdict::Separated);
        opinions["boost-geometry"] = {{"verdict", opinion->intersecting ? "intersecting" : "separated"},
                                      {"distance", opinion->distance},
                                      {"same_verdict_as_oracle", same}};
        rows << "  " << std::left << std::setw(26) << "boost-geometry (opinion)" << std::setw(16)
             << (opinion->intersecting ? "intersecting" : "separated") << std::setw(26)
             << format_double(opinion->distance) << std::setw(20) << "double, not judged"
             << (same ? "same verdict" : "other verdict") << "\n";
      }
      if (options.json) {
        nlohmann::json line = {{"name", c.name},
                               {"dim", c.dim},
                               {"file", file},
                               {"oracle",
                                {{"verdict", oracle::to_string(truth.verdict)},
                                 {"distance", truth.distance},
                                 {"squared_distance", truth.squared_distance.get_str()},
                                 {"feature", oracle::to_string(truth.feature)},
                                 {"affine_dimension", truth.affine_dimension},
                                 {"certificate", "checked"},
                                 {"methods_agree", methods_agree}}},
                               {"results", results},
                               {"opinions", opinions}};
        out << line.dump() << "\n";
      } else {
        out << c.name << " (" << c.dim << "D, " << file << ")\n  oracle: " << oracle::to_string(truth.verdict)
            << ", d^2 = " << rational_text(truth.squared_distance) << ", d = " << format_double(truth.distance)
            << ", closest feature " << oracle::to_string(truth.feature) << ", certificate checked\n"
            << "  " << std::left << std::setw(26) << "implementation" << std::setw(16) << "verdict" << std::setw(26)
            << "distance" << std::setw(20) << "stop rule / error"
            << "agrees\n"
            << rows.str() << "\n";
      }
    }
  }
  if (!options.json)
    out << evaluated << " cases, " << disagreements
        << " disagreements with the oracle under docs/contract.md; the two exact "
        << "oracle methods (hull, QP) agree on " << evaluated - oracle_disagreements << " of " << evaluated << "\n";
  if (status == 0 && (disagreements > 0 || oracle_disagreements > 0)) status = 1;
  return status;
}

}  // namespace gjkref::cli
