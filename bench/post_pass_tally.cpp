// bench/post_pass_tally.cpp — not a benchmark: how often the floating modes' post-pass (gjkref/finish.hpp) lets the
// careful answer stand, finishes exactly, or leaves the textbook pass's answer, and whether every answer is within the
// contract (docs/contract.md: verdict, distance, witness gap for distance(); the verdict outside the band for
// intersect()), judged by the exact mode on the same input. For the table in docs/edge-cases.md ("Needle and sliver
// differences: the post-pass"). Usage: post_pass_tally FILE.json... (gjkref-case/1 files, one case or a "cases"
// array; scripts/needle-pairs makes needle and cloud pairs). Prints one line per type and query: within, outside, and
// the count per pass.
#include "gjkref/gjkref.hpp"
#include "gjkref/exact.hpp"
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
using namespace gjkref;
struct Tally { long within=0, outside=0; std::map<std::string,long> passes; };
template <class V>
void one(const std::vector<V>& A, const std::vector<V>& B, Tally& t, const char* name, bool boolean) {
  ConvexPoints<V> a(A), b(B);
  auto r = boolean ? intersect(a, b) : distance(a, b);
  t.passes[to_string(r.pass)]++;
  if (r.status == Status::InvalidInput || r.status == Status::IterationLimit) return;
  const bool within = within_contract_by_exact(a, b, r, boolean);
  if (!within) std::printf("  OUTSIDE: %s dim %d %s pass %s rule %s\n", name, V::dimension, typeid(scalar_t<V>).name(),
                           to_string(r.pass), to_string(r.stop_rule));
  if (within) ++t.within; else ++t.outside;
}
template <class V> std::vector<V> parse(const nlohmann::json& j, int dim) { std::vector<V> out; for (auto& p : j["points"]) { V v; for (int k = 0; k < dim; ++k) v[k] = (scalar_t<V>)std::strtod(p[k].get<std::string>().c_str(), nullptr); out.push_back(v); } return out; }
int main(int argc, char** argv) {
  Tally t[3][2];
  for (int fi = 1; fi < argc; ++fi) {
    std::ifstream f(argv[fi]); auto j = nlohmann::json::parse(f);
    auto cases = j.contains("cases") ? j["cases"] : nlohmann::json::array({j});
    for (auto& c : cases) {
      int dim = c["dim"]; const char* nm = c.contains("name") ? c["name"].get_ref<const std::string&>().c_str() : argv[fi];
      for (int q = 0; q < 2; ++q) {
      if (dim == 3) { one<Vec3<double>>(parse<Vec3<double>>(c["a"],3), parse<Vec3<double>>(c["b"],3), t[0][q], nm, q);
                      one<Vec3<long double>>(parse<Vec3<long double>>(c["a"],3), parse<Vec3<long double>>(c["b"],3), t[1][q], nm, q);
                      one<Vec3<float>>(parse<Vec3<float>>(c["a"],3), parse<Vec3<float>>(c["b"],3), t[2][q], nm, q); }
      else { one<Vec2<double>>(parse<Vec2<double>>(c["a"],2), parse<Vec2<double>>(c["b"],2), t[0][q], nm, q);
             one<Vec2<long double>>(parse<Vec2<long double>>(c["a"],2), parse<Vec2<long double>>(c["b"],2), t[1][q], nm, q);
             one<Vec2<float>>(parse<Vec2<float>>(c["a"],2), parse<Vec2<float>>(c["b"],2), t[2][q], nm, q); }
      }
    }
  }
  const char* names[3] = {"double", "long double", "float"};
  for (int i = 0; i < 3; ++i) for (int q = 0; q < 2; ++q) {
    std::printf("%s %s: within %ld outside %ld;", names[i], q ? "intersect" : "distance", t[i][q].within, t[i][q].outside);
    for (auto& [k, v] : t[i][q].passes) std::printf(" %s %ld", k.c_str(), v);
    std::printf("\n");
  }
}
