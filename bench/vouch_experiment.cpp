// bench/vouch_experiment.cpp — not a benchmark: the experiment behind the post-pass (gjkref/finish.hpp) of findings 16–19
// (docs/edge-cases.md, "Needle and sliver differences: the post-pass"). Can a floating answer vouch for itself from what the
// loop already holds — a separated answer from its last duality gap, (|v|² − v·w)/|v| with w the certificate's support
// point, an intersecting one from its simplex's point Σλᵢwᵢ (weights ≥ 0) — so that only the answers that cannot are
// finished another way? For every case of the gjkref-case/1 files given, the double and long double answers are judged
// against the exact mode's (docs/contract.md: verdict, distance, witness gap), and counted by whether the check vouches
// for them: a vouched answer outside the contract would make the check unsound. The threshold is K·ε·M (+ the
// duality-gap tolerance for the distance), K the first argument. Usage: vouch_experiment K FILE.json...
// (scripts/needle-pairs makes needle and sliver pairs). The check here is evaluated in long double without rounding
// bounds: a measurement for the design, not the check itself.
#include "gjkref/gjkref.hpp"
#include "gjkref/exact.hpp"
#include <cstdio>
#include <fstream>
#include <random>
#include <nlohmann/json.hpp>
using namespace gjkref;
struct Tally { long vouched_within=0, vouched_outside=0, unvouched_within=0, unvouched_outside=0; };
template <class V>
void one(const std::vector<V>& A, const std::vector<V>& B, double vouch_eps, Tally& t, bool verbose, const char* name) {
  using T = scalar_t<V>;
  ConvexPoints<V> a(A), b(B);
  auto r = distance(a, b);
  if (r.status == Status::InvalidInput || r.status == Status::IterationLimit) return;
  const bool within = within_contract_by_exact(a, b, r, false);
  const double eps = std::numeric_limits<T>::epsilon();
  double m = 0;
  for (auto& p : A) for (auto& q : B) for (int k = 0; k < V::dimension; ++k) m = std::max(m, std::fabs(double(p[k]) - double(q[k])));
  const bool sep = r.status == Status::Separated;
  const double dist = sep ? double(r.distance()) : 0.0;
  long double wgap_ld = 0; for (int k = 0; k < V::dimension; ++k) wgap_ld += std::pow((long double)r.witness_a[k] - (long double)r.witness_b[k], 2); const double wgap = double(std::sqrt(wgap_ld));
  // The vouching check.
  bool vouched;
  if (sep) {
    const V v = r.closest, w = r.separation->support.w;
    const long double vv = dot(v, v), vw = dot(v, w);
    const long double width = (vv - vw) / std::sqrt(vv);
    vouched = width <= vouch_eps * eps * m + kRelativeGapEpsilons * eps * std::sqrt(vv);
  } else {
    V p{}; bool nonneg = true;
    for (int i = 0; i < r.simplex.size; ++i) { p = p + r.simplex.weights[i] * r.simplex.points[i].w; nonneg = nonneg && r.simplex.weights[i] >= 0; }
    double pn = 0; for (int k = 0; k < V::dimension; ++k) pn = std::max(pn, std::fabs(double(p[k])));
    vouched = nonneg && pn <= vouch_eps * eps * m;
  }
  if (vouched && within) ++t.vouched_within; else if (vouched) ++t.vouched_outside; else if (within) ++t.unvouched_within; else ++t.unvouched_outside;
  if (verbose && vouched && !within)
    std::printf("  vouched but outside the contract: %s, rule %s, distance %.3g, witness gap %.3g\n", name,
                to_string(r.stop_rule), dist, wgap);
}
template <class V> std::vector<V> parse(const nlohmann::json& j, int dim) { std::vector<V> out; for (auto& p : j["points"]) { V v; for (int k = 0; k < dim; ++k) v[k] = (scalar_t<V>)std::strtod(p[k].get<std::string>().c_str(), nullptr); out.push_back(v); } return out; }
int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: vouch_experiment K FILE.json...\n");
    return 2;
  }
  double ve = std::atof(argv[1]);
  for (int fi = 2; fi < argc; ++fi) {
    std::ifstream f(argv[fi]); auto j = nlohmann::json::parse(f);
    Tally td, tl;
    for (auto& c : j["cases"]) {
      int dim = c["dim"];
      if (dim == 3) { one<Vec3<double>>(parse<Vec3<double>>(c["a"],3), parse<Vec3<double>>(c["b"],3), ve, td, true, c["name"].get<std::string>().c_str());
                      one<Vec3<long double>>(parse<Vec3<long double>>(c["a"],3), parse<Vec3<long double>>(c["b"],3), ve, tl, true, c["name"].get<std::string>().c_str()); }
      else { one<Vec2<double>>(parse<Vec2<double>>(c["a"],2), parse<Vec2<double>>(c["b"],2), ve, td, true, c["name"].get<std::string>().c_str());
             one<Vec2<long double>>(parse<Vec2<long double>>(c["a"],2), parse<Vec2<long double>>(c["b"],2), ve, tl, true, c["name"].get<std::string>().c_str()); }
    }
    std::printf("%s, K = %g (vouched and within, vouched and OUTSIDE, not vouched and within, not vouched and outside)\n"
                "  double: %ld %ld %ld %ld\n  long double: %ld %ld %ld %ld\n", argv[fi], ve,
      td.vouched_within, td.vouched_outside, td.unvouched_within, td.unvouched_outside, tl.vouched_within, tl.vouched_outside, tl.unvouched_within, tl.unvouched_outside);
  }
}
