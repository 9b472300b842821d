#include "eval.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gjkref/casefile.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/judge.hpp"
#include "gjkref/oracle.hpp"
#include "selection.hpp"

namespace gjkref::cli {
namespace {

using casefile::Case;

// The verdict column: what the implementation said, or what happened to it.
std::string verdict_text(const impl::Result& r) {
  if (r.status != impl::Status::Answered) return impl::to_string(r.status);
  if (r.contact_class) return *r.contact_class;  // separated, touching or overlapping
  return r.separated ? "separated" : "intersecting";
}

std::string rational_text(const mpq_class& q) {
  const std::string s = q.get_str();
  constexpr std::size_t kLongest = 24;  // longer rationals are summarised in the table (the JSON has them whole)
  return s.size() <= kLongest ? s : "(" + std::to_string(s.size()) + "-character rational)";
}

// n/|n| rounded to double (for display; judging uses the exact normal).
std::array<double, 3> unit_normal(const oracle::ExactPoint& n) {
  // Divided first, exactly, by its largest coordinate: an exact normal of huge or tiny input may not fit a double.
  mpq_class largest = 0;
  for (const mpq_class& x : n) largest = std::max<mpq_class>(largest, abs(x));
  std::array<double, 3> u{};
  double length = 0;
  for (int k = 0; k < 3; ++k) u[k] = mpq_class(n[k] / largest).get_d(), length += u[k] * u[k];
  length = std::sqrt(length);
  for (double& x : u) x /= length;
  return u;
}

// "(x, y)" or "(x, y, z)", 6 significant digits.
std::string vector_text(const std::array<double, 3>& v, int dim) {
  std::ostringstream os;
  os << std::setprecision(6) << "(" << v[0] << ", " << v[1];
  if (dim == 3) os << ", " << v[2];
  os << ")";
  return os.str();
}

// A case's warm start as text: "pairs (0, 1) (2, 0)" or "direction (x, y, z)".
std::string warm_start_text(const casefile::Case& c) {
  if (c.warm_start->direction) return "direction " + vector_text(*c.warm_start->direction, c.dim);
  std::ostringstream os;
  os << "pairs";
  for (const auto& [ia, ib] : c.warm_start->pairs) os << " (" << ia << ", " << ib << ")";
  return os.str();
}

std::string format_double(double x) {
  std::ostringstream os;
  os << std::setprecision(17) << x;
  return os.str();
}

}  // namespace

int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err) {
  auto selected = select_implementations(options.implementations, options.plugins, err,
                                         {options.time_limit_seconds, options.memory_limit_mib});
  if (!selected) return 2;
  const auto& chosen = *selected;

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
      // Within their reach (docs/oracle.md, "Reach"), the hull method answers and the QP method checks it, two
      // independent methods on every case: eval's cases are few. Beyond the hull's reach the certified fast path
      // answers (the certified reference's answer, its certificate checked here in one pass over each shape); beyond
      // the QP's, the certified fast path checks the hull's answer, or nothing does. A disagreement is a bug in gjkref.
      oracle::Answer truth, check;
      std::optional<oracle::Method> second;
      const double pairs = static_cast<double>(c.a.points.size()) * static_cast<double>(c.b.points.size());
      const double points = static_cast<double>(c.a.points.size() + c.b.points.size());
      try {
        truth = pairs <= oracle::kHullReachPairs ? oracle::hull_oracle(c) : oracle::fast_oracle(c);
        if (points <= oracle::kQpReachPoints) {
          check = oracle::qp_oracle(c);
          second = oracle::Method::Qp;
        } else if (truth.method == oracle::Method::Hull) {
          check = oracle::fast_oracle(c);
          if (check.method != oracle::Method::Hull) second = check.method;
        }
        if (!second) check = truth;
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
      // The penetration depth of touching and overlapping pairs, by both methods (the hull's, certificate checked,
      // and the support method's): a disagreement is a bug in gjkref, as above.
      const impl::Truth exact_truth(c, truth);
      std::optional<oracle::Penetration> depth;
      const bool depth_within_reach = pairs <= oracle::kHullReachPairs;  // the depth is the hull's facets
      if (depth_within_reach &&
          (truth.verdict == oracle::Verdict::Overlapping || truth.verdict == oracle::Verdict::Touching)) {
        try {
          depth = exact_truth.penetration();
          oracle::cross_check_penetration(c, truth, *depth);
        } catch (const std::logic_error& e) {
          err << "gjkref eval: THE PENETRATION-DEPTH ORACLE FAILED on case '" << c.name << "' (" << file
              << "): " << e.what() << "\nThis is a bug in gjkref; please report it with the case file.\n";
          ++oracle_disagreements;
          continue;
        }
      }
      nlohmann::json results = nlohmann::json::object();
      std::ostringstream rows;
      for (const auto& implementation : chosen) {
        const impl::Info& info = implementation->info();
        const impl::Result r = implementation->run(c);
        const impl::Judged j = impl::judge(exact_truth, r, info);
        if (!j.judged && r.status == impl::Status::Unsupported) continue;
        if (j.disagrees()) ++disagreements;
        const std::string agrees = impl::summary(j);
        nlohmann::json row = {{"verdict", verdict_text(r)},
                              {"status", impl::to_string(r.status)},
                              {"detail", r.detail},
                              {"judged", j.judged},
                              {"finding", impl::to_string(j.finding)},
                              {"agrees", !j.disagrees()},
                              {"within_band", j.within_band()}};
        if (!j.judged) row["not_judged"] = j.not_judged;
        if (j.judged) row["verdict_band"] = j.band;
        if (r.contact_class) row["class"] = *r.contact_class;
        if (r.distance) row["distance"] = *r.distance;
        if (r.witnesses) row["witnesses"] = *r.witnesses;
        if (r.penetration) row["penetration_depth"] = *r.penetration;
        if (r.normal) row["normal"] = *r.normal;
        if (r.contacts) row["contacts"] = *r.contacts;
        for (const auto& [key, value] : {std::pair{"distance_error", j.distance_error}, {"witness_error", j.witness_error},
                                         {"depth_error", j.depth_error}, {"normal_error", j.normal_error},
                                         {"contact_error", j.contact_error}})
          if (value) row[key] = *value;
        results[info.name] = row;
        // The distance, or, for an intersecting answer that measures depth, the depth.
        const std::string measured = r.status != impl::Status::Answered  ? "-"
                                     : r.penetration && !r.separated ? "depth " + format_double(*r.penetration)
                                     : r.distance                    ? format_double(*r.distance)
                                     : r.separated                   ? "-"
                                                                     : "0";
        rows << "  " << std::left << std::setw(26) << info.name << std::setw(16) << verdict_text(r) << std::setw(26)
             << measured << std::setw(30)
             << r.detail.substr(0, 28) << agrees << "\n";
        if (j.disagrees() && r.detail.size() > 28) rows << "      details: " << r.detail << "\n";
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
             << format_double(opinion->distance) << std::setw(30) << "double, not judged"
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
                                 {"method", oracle::to_string(truth.method)},
                                 {"second_method", second ? oracle::to_string(*second) : "none"},
                                 {"methods_agree", methods_agree}}},
                               {"results", results},
                               {"opinions", opinions}};
        if (c.warm_start) line["warm_start"] = warm_start_text(c);
        if (depth) {
          auto& o = line["oracle"];
          o["penetration_depth"] = depth->depth;
          o["squared_penetration_depth"] = depth->squared_depth.get_str();
          // The first optimal facet's unit normal (touching: the first generator of the normal cone), rounded.
          if (!depth->optimal.empty()) o["normal"] = unit_normal(depth->optimal.front().normal);
          nlohmann::json facets = nlohmann::json::array();
          for (const oracle::DepthFacet& f : depth->optimal)
            facets.push_back({{"normal", unit_normal(f.normal)}, {"on_a", f.on_a}, {"on_b", f.on_b}});
          o[truth.verdict == oracle::Verdict::Touching ? "normal_cone" : "optimal_facets"] = facets;
          o["depth_methods_agree"] = true;
        }
        out << line.dump() << "\n";
      } else {
        out << c.name << " (" << c.dim << "D, " << file << ")\n  oracle: " << oracle::to_string(truth.verdict)
            << ", d^2 = " << rational_text(truth.squared_distance) << ", d = " << format_double(truth.distance)
            << ", closest feature " << oracle::to_string(truth.feature) << ", certificate checked ("
            << oracle::to_string(truth.method) << " method"
            << (second ? std::string(", checked by the ") + oracle::to_string(*second) + " method"
                       : std::string(", no second method within reach"))
            << ")\n";
        if (c.warm_start)
          out << "  warm start (the reference's modes; the others answer cold): " << warm_start_text(c) << "\n";
        if (depth && truth.verdict == oracle::Verdict::Overlapping)
          out << "  penetration depth: PD^2 = " << rational_text(depth->squared_depth) << ", PD = "
              << format_double(depth->depth) << ", " << depth->optimal.size() << " optimal facet(s) (normal "
              << vector_text(unit_normal(depth->optimal.front().normal), c.dim)
              << "), certificate checked, both methods agree\n";
        out
            << "  " << std::left << std::setw(26) << "implementation" << std::setw(16) << "verdict" << std::setw(26)
            << "distance or depth" << std::setw(30) << "details"
            << "agrees\n"
            << rows.str() << "\n";
      }
      out.flush();  // each case's result as soon as it is known: a later failure cannot take it with it
    }
  }
  if (!options.json)
    out << evaluated << " cases; " << disagreements
        << " answers outside their contract (docs/contract.md); the exact "
        << "oracle methods (hull, QP; penetration depth: hull, support) agree on " << evaluated - oracle_disagreements
        << " of " << evaluated << " cases\n";
  // Exit status (docs/comparing.md): 2 for usage or input errors, else 3 when an oracle failed, else 1 when any
  // judged answer is outside its contract, else 0.
  if (status == 0 && oracle_disagreements > 0) status = 3;
  if (status == 0 && disagreements > 0) status = 1;
  return status;
}

}  // namespace gjkref::cli
