// The property suite (docs/properties.md): RapidCheck properties over the degenerate families of generators.hpp,
// decided by the exact oracle (fast_oracle: every answer proven by an exactly checked certificate) and by
// mathematics (exact transformations). Each property tags its cases with family/kind and verdict, so a run prints
// the mix; Generators.* checks that every family keeps producing the cases it is for.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "generators.hpp"
#include "gjkref/case_shapes.hpp"
#include "gjkref/certified.hpp"
#include "gjkref/certify.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/oracle.hpp"
#include "property.hpp"

namespace gjkref::proptests {
namespace {

using oracle::Answer;
using oracle::Verdict;
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

// One run of the reference in scalar T, reduced to what the properties compare (2D results padded with z = 0).
template <class T>
struct Run {
  Status status = Status::InvalidInput;
  StopRule stop_rule = StopRule::None;
  InputError input_error = InputError::None;
  Pass pass = Pass::Textbook;  // which pass answered (floating modes)
  int iterations = 0;
  std::array<T, 3> closest{}, witness_a{}, witness_b{};
  Pairs pairs;             // the final simplex as (index in A, index in B)
  std::vector<T> weights;  // its weights
  double distance = 0;
};

enum class Query { Distance, Boolean };

// The scalar's name in failure logs.
template <class T>
struct ScalarName;
template <>
struct ScalarName<float> {
  static constexpr const char* value = "float";
};
template <>
struct ScalarName<double> {
  static constexpr const char* value = "double";
};
template <>
struct ScalarName<long double> {
  static constexpr const char* value = "long double";
};

// Optional settings of a run: a warm start (simplex pairs, or a first direction given as doubles), an iteration cap.
struct Settings {
  Pairs warm_pairs;
  std::optional<std::array<double, 3>> warm_direction;
  int max_iterations = kDefaultMaxIterations;

  static Settings warm_from(Pairs pairs) {
    Settings s;
    s.warm_pairs = std::move(pairs);
    return s;
  }
  static Settings warm_along(const std::array<double, 3>& direction) {
    Settings s;
    s.warm_direction = direction;
    return s;
  }
  static Settings capped(int iterations) {
    Settings s;
    s.max_iterations = iterations;
    return s;
  }
  // The case's own warm start (gjkref-case/1's warm_start), or none.
  static Settings of(const Case& c) {
    Settings s;
    if (!c.warm_start) return s;
    for (const auto& [ia, ib] : c.warm_start->pairs) s.warm_pairs.push_back({ia, ib});
    s.warm_direction = c.warm_start->direction;
    return s;
  }
};

// A run of the reference on the case: with the given settings, or with the case's own warm start.
template <class T>
Run<T> run(const Case& c, Query query, const Settings& settings);
template <class T>
Run<T> run(const Case& c, Query query = Query::Distance) {
  return run<T>(c, query, Settings::of(c));
}
template <class T>
Run<T> run(const Case& c, Query query, const Settings& settings) {
  return casefile::in_dimension<T>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    Options<V> options;
    options.warm_start_simplex = settings.warm_pairs;
    options.max_iterations = settings.max_iterations;
    if (settings.warm_direction) {
      V d;
      for (int i = 0; i < V::dimension; ++i) d[i] = static_cast<T>((*settings.warm_direction)[i]);
      options.initial_direction = d;
    }
    const auto r = query == Query::Distance ? distance(a, b, options) : intersect(a, b, options);
    Run<T> out;
    out.status = r.status;
    out.stop_rule = r.stop_rule;
    out.input_error = r.input_error;
    out.pass = r.pass;
    out.iterations = r.iterations;
    for (int i = 0; i < V::dimension; ++i)
      out.closest[i] = r.closest[i], out.witness_a[i] = r.witness_a[i], out.witness_b[i] = r.witness_b[i];
    for (int k = 0; k < r.simplex.size; ++k) {
      out.pairs.push_back({r.simplex.points[k].index_a, r.simplex.points[k].index_b});
      out.weights.push_back(r.simplex.weights[k]);
    }
    out.distance = static_cast<double>(r.distance());
    return out;
  });
}

Exact squared(const std::array<Exact, 3>& v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }

Status status_of(const Answer& truth) {
  return truth.verdict == Verdict::Separated ? Status::Separated : Status::Intersecting;
}

std::array<Exact, 3> exact_point(const std::array<double, 3>& p) { return {Exact(p[0]), Exact(p[1]), Exact(p[2])}; }

// ---- the per-family properties (1, 2, 3, 7 and 8 of the issue) on one case

// Exact mode: the oracle's verdict and squared distance exactly, the closest point exactly, witnesses exactly in the
// hulls (non-negative simplex weights summing to 1 that produce them), no floating stop rule, intersect() = distance().
void exact_properties(const Case& c, const Answer& truth) {
  const Run<Exact> e = run<Exact>(c);
  RC_ASSERT(e.status == status_of(truth));
  RC_ASSERT(squared(e.closest) == truth.squared_distance);
  for (int i = 0; i < 3; ++i) RC_ASSERT(e.closest[i] == truth.witness_a[i] - truth.witness_b[i]);
  RC_ASSERT(e.stop_rule != StopRule::TouchingBand && e.stop_rule != StopRule::RepeatedSupport &&
            e.stop_rule != StopRule::NoProgress);
  Exact total = 0;
  std::array<Exact, 3> wa{0, 0, 0}, wb{0, 0, 0};
  for (std::size_t k = 0; k < e.pairs.size(); ++k) {
    RC_ASSERT(e.weights[k] >= 0);
    total += e.weights[k];
    const auto pa = exact_point(c.a.points[e.pairs[k].first]), pb = exact_point(c.b.points[e.pairs[k].second]);
    for (int i = 0; i < 3; ++i) wa[i] += e.weights[k] * pa[i], wb[i] += e.weights[k] * pb[i];
  }
  RC_ASSERT(total == 1);
  RC_ASSERT(wa == e.witness_a);
  RC_ASSERT(wb == e.witness_b);
  RC_ASSERT(run<Exact>(c, Query::Boolean).status == e.status);
  // 8. A capped run ends within its cap: with the answer, or with IterationLimit and a closest point that is an upper
  // bound (a point of A⊖B, so no closer than the distance).
  for (int cap : {0, 1, 2}) {
    const Run<Exact> capped = run<Exact>(c, Query::Distance, Settings::capped(cap));
    RC_LOG() << "exact, capped at " << cap << ": " << to_string(capped.status) << " by " << to_string(capped.stop_rule)
             << std::endl;
    RC_ASSERT(capped.iterations <= cap);
    RC_ASSERT(capped.status == e.status || capped.status == Status::IterationLimit);
    if (capped.status == Status::IterationLimit) RC_ASSERT(squared(capped.closest) >= truth.squared_distance);
  }
}

// The squared distance from point p to conv(points), exactly (the oracle on the pair ({p}, points)).
mpq_class squared_distance_to_hull(const std::array<double, 3>& p, const Points& points, int dim) {
  return oracle::fast_oracle(make_case(dim, "witness", {p}, points)).squared_distance;
}

// A floating mode within docs/contract.md: verdict and distance (judge_floating), termination within the cap, the
// boolean query's verdict, and (double) the witnesses within kContractWitnessEpsilons·ε·R of their hulls with
// |witness_a − witness_b| within D + 2·that of the distance.
// Float only on input its rounding keeps relative (float_rounding_is_relative). Double is judged beyond its stated range
// (2^±kDoubleJudgedExponent) too, where it holds, but not where its allowances underflow in double (128·ε·M below the
// least normal double, the rule of impl/judge.cpp): there a relative claim cannot be measured, and only the status and
// the cap are asserted (near 2^−1030, say: the exact, certified and long double modes are judged there). Long double's
// range holds every double: judged everywhere, to double's resolution (distance_allowance).
template <class T>
void floating_properties(const Case& c, const Answer& truth, const Settings& given = Settings()) {
  if constexpr (std::is_same_v<T, float>)
    if (!float_rounding_is_relative(c.a.points) || !float_rounding_is_relative(c.b.points)) return;
  // Default settings: the case's own warm start, if it has one.
  const bool default_settings =
      given.warm_pairs.empty() && !given.warm_direction && given.max_iterations == kDefaultMaxIterations;
  const Settings settings = default_settings ? Settings::of(c) : given;
  const Run<T> r = run<T>(c, Query::Distance, settings);
  const Run<T> boolean = run<T>(c, Query::Boolean, settings);
  // Shown only when the property fails: each mode's answer and the rule that ended it.
  RC_LOG() << ScalarName<T>::value << ": " << to_string(r.status) << " at " << r.distance << " by "
           << to_string(r.stop_rule) << "; boolean: " << to_string(boolean.status) << " by "
           << to_string(boolean.stop_rule) << std::endl;
  // Where a difference a − b can leave T's range, InvalidInput DifferenceOverflow is the contract's answer from either
  // query, if its search meets such a difference (docs/edge-cases.md, "Termination and bad input"; a committed finding
  // at 2^1023, cases/findings/epa-difference-overflow-nan-normal-2d.json, reached it with A's points reversed), and it
  // claims nothing further.
  const auto overflowed = [&](const Run<T>& x) {
    return x.status == Status::InvalidInput && x.input_error == InputError::DifferenceOverflow &&
           difference_may_overflow<T>(c.a.points, c.b.points, c.dim);
  };
  RC_ASSERT(r.status == Status::Separated || r.status == Status::Intersecting || overflowed(r));
  RC_ASSERT(r.iterations <= kDefaultMaxIterations);
  RC_ASSERT(boolean.status == Status::Separated || boolean.status == Status::Intersecting || overflowed(boolean));
  if (overflowed(r) || overflowed(boolean)) return;
  const auto va = casefile::to_shape<Vec3<double>>(c.a), vb = casefile::to_shape<Vec3<double>>(c.b);
  const double eps = static_cast<double>(ScalarTraits<T>::epsilon());
  const double m = input_scale(va, vb), big_r = largest_coordinate(va, vb);
  const bool rounded = rounds_double_input<T>;
  if (std::is_same_v<T, double> && kContractVerdictEpsilons * eps * m < std::numeric_limits<double>::min()) return;
  const bool truly_separated = truth.verdict == Verdict::Separated;
  RC_ASSERT(judge_floating({r.status == Status::Separated, r.distance}, truly_separated, truth.distance, eps, m, big_r,
                           c.dim, rounded) != Judgement::Violates);
  if ((boolean.status == Status::Separated) != truly_separated)
    RC_ASSERT(truth.distance <= verdict_band(eps, m, big_r, c.dim, rounded));
  if constexpr (std::is_same_v<T, double>) {
    const double witness_bound = kContractWitnessEpsilons * eps * big_r;
    const mpq_class bound_squared = mpq_class(witness_bound) * mpq_class(witness_bound);
    const std::array<double, 3> wa{r.witness_a[0], r.witness_a[1], r.witness_a[2]};
    const std::array<double, 3> wb{r.witness_b[0], r.witness_b[1], r.witness_b[2]};
    RC_ASSERT(squared_distance_to_hull(wa, c.a.points, c.dim) <= bound_squared);
    RC_ASSERT(squared_distance_to_hull(wb, c.b.points, c.dim) <= bound_squared);
    std::array<Exact, 3> gap;
    for (int i = 0; i < 3; ++i) gap[i] = Exact(wa[i]) - Exact(wb[i]);
    const double apart = oracle::correctly_rounded_sqrt(squared(gap));
    const double allowed = kContractDistanceEpsilons * eps * m + kRelativeGapEpsilons * eps * truth.distance +
                           2 * witness_bound;
    RC_ASSERT(std::fabs(apart - truth.distance) <= allowed);
  }
}

// The input error the reference must name for an invalid case.
InputError expected_error(const Case& c) {
  if (c.a.points.empty()) return InputError::EmptyA;
  if (c.b.points.empty()) return InputError::EmptyB;
  for (const auto& p : c.a.points)
    for (double x : p)
      if (!std::isfinite(x)) return InputError::NonFiniteA;
  return InputError::NonFiniteB;
}

// The certified mode (gjkref/certified.hpp) equals the oracle exactly: the class, the squared distance, the distance
// bit for bit, the closest vector v = witness_a − witness_b; its witnesses are the combinations its weights name
// (positive, summing to 1), rounded correctly; a touching answer's normal u ≠ 0 has max over A⊖B of u·x = 0.
// Returns the path taken, for the tags.
CertifiedPath certified_properties(const Case& c, const Answer& truth) {
  return casefile::in_dimension<double>(c, [&]<class V>() {
    using VE = exact_vector_t<V>;
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    // The case's warm start; the rational side too. The rounded answer without it must be the same.
    const CertifiedResult<V> r = certified_distance(a, b, casefile::to_options<V>(c), CertifiedOutput::WithExact);
    RC_LOG() << "certified: " << to_string(r.contact_class) << " by " << to_string(r.path) << ", d^2 = "
             << (r.exact ? r.exact->squared_distance.get_str() : std::string("none")) << std::endl;
    if (truth.verdict == Verdict::InvalidInput) {  // non-finite input: named, and nothing else answered
      RC_ASSERT(r.status == Status::InvalidInput);
      RC_ASSERT(r.input_error == expected_error(c));
      RC_ASSERT(r.path == CertifiedPath::None);
      return r.path;
    }
    RC_ASSERT(std::string(to_string(r.contact_class)) == std::string(oracle::to_string(truth.verdict)));
    RC_ASSERT(r.status == status_of(truth));
    RC_ASSERT(r.exact.has_value() && r.witness_a.has_value() && r.witness_b.has_value());
    const ExactAnswer<V>& exact = *r.exact;
    RC_ASSERT(exact.squared_distance == truth.squared_distance);
    RC_ASSERT(r.distance == truth.distance);
    for (int i = 0; i < V::dimension; ++i)
      RC_ASSERT(exact.witness_a[i] - exact.witness_b[i] == truth.witness_a[i] - truth.witness_b[i]);
    // Without witnesses, the same answer (the path may differ: a witness the filters cannot round sends the full
    // answer to rationals).
    const CertifiedResult<V> bare = certified_distance(a, b, casefile::to_options<V>(c), CertifiedOutput::Distance);
    RC_ASSERT(bare.contact_class == r.contact_class);
    RC_ASSERT(bare.distance == r.distance);
    const auto combination = [](const std::vector<ExactWeight>& weights, const auto& shape) {
      VE sum{};
      Exact total = 0;
      for (const ExactWeight& w : weights) {
        RC_ASSERT(w.weight > 0);
        RC_ASSERT(w.index < shape.size());
        sum = sum + w.weight * VE(convert<Exact>(shape.vertex(w.index)));
        total += w.weight;
      }
      RC_ASSERT(total == 1);
      return sum;
    };
    RC_ASSERT(combination(exact.weights_a, a) == exact.witness_a);
    RC_ASSERT(combination(exact.weights_b, b) == exact.witness_b);
    for (int i = 0; i < V::dimension; ++i) {
      RC_ASSERT((*r.witness_a)[i] == round_to_double(exact.witness_a[i]));
      RC_ASSERT((*r.witness_b)[i] == round_to_double(exact.witness_b[i]));
    }
    RC_ASSERT(r.touching_normal.has_value() == (r.contact_class == ContactClass::Touching));
    if (r.touching_normal) {
      const VE& u = *r.touching_normal;
      RC_ASSERT(!is_zero(u));
      std::optional<Exact> highest;
      for (const V& p : a.points())
        for (const V& q : b.points()) {
          const Exact value = dot(u, VE(convert<Exact>(V(p)) - convert<Exact>(V(q))));
          if (!highest || *highest < value) highest = value;
        }
      RC_ASSERT(*highest == 0);
    }
    return r.path;
  });
}

void family_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    const CertifiedPath path = certified_properties(c, truth);
    const auto raw = run<double>(c);
    // The pass that answered in double (docs/algorithm.md, "Two passes": the textbook pass, or the careful one after a
    // hand-over).
    RC_TAG(c.name, std::string(oracle::to_string(truth.verdict)), std::string("double: ") + to_string(raw.stop_rule),
           std::string("certified: ") + to_string(path),
           std::string("double pass: ") + to_string(raw.pass));
    exact_properties(c, truth);
    floating_properties<double>(c, truth);
    floating_properties<long double>(c, truth);
    floating_properties<float>(c, truth);
  });
}

// Extreme scales (generators.hpp, extreme_scales): outside double's and float's judged range, so the exact and
// certified modes against the oracle, and long double (whose range holds every double) within its contract.
void extreme_scale_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    const CertifiedPath path = certified_properties(c, truth);
    RC_TAG(c.name, std::string(oracle::to_string(truth.verdict)), std::string("certified: ") + to_string(path));
    exact_properties(c, truth);
    floating_properties<long double>(c, truth);
  });
}
GJKREF_PROPERTY(FamilyProperties, ExtremeScales2d, ()) { extreme_scale_properties(*extreme_scales(2)); }
GJKREF_PROPERTY(FamilyProperties, ExtremeScales3d, ()) { extreme_scale_properties(*extreme_scales(3)); }

#define GJKREF_FAMILY_PROPERTIES(Name, generator)                                   \
  GJKREF_PROPERTY(FamilyProperties, Name##2d, ()) { family_properties(*generator(2)); } \
  GJKREF_PROPERTY(FamilyProperties, Name##3d, ()) { family_properties(*generator(3)); }

GJKREF_FAMILY_PROPERTIES(RandomPolytopes, random_polytopes)
GJKREF_FAMILY_PROPERTIES(ExactlyTouching, exactly_touching)
GJKREF_FAMILY_PROPERTIES(OriginOnAFeature, origin_on_feature)
GJKREF_FAMILY_PROPERTIES(LowerDimensional, lower_dimensional)
GJKREF_FAMILY_PROPERTIES(NearTouching, near_touching)
GJKREF_FAMILY_PROPERTIES(Needles, needles)
GJKREF_FAMILY_PROPERTIES(Scales, scales)
GJKREF_FAMILY_PROPERTIES(PastFindings, past_findings)
GJKREF_FAMILY_PROPERTIES(DeepOverlap, deep_overlap)
GJKREF_FAMILY_PROPERTIES(ShallowOverlap, shallow_overlap)
GJKREF_FAMILY_PROPERTIES(RestingContact, resting_contact)
GJKREF_FAMILY_PROPERTIES(TiedFacets, tied_facets)
GJKREF_FAMILY_PROPERTIES(ThinBoxes, thin_boxes)
GJKREF_FAMILY_PROPERTIES(PosedBoxes, posed_boxes)
GJKREF_FAMILY_PROPERTIES(DepthScales, depth_scales)
GJKREF_FAMILY_PROPERTIES(WarmStarted, warm_started)
GJKREF_PROPERTY(FamilyProperties, RarePaths3d, ()) { family_properties(*rare_paths(3)); }  // all are 3D
GJKREF_PROPERTY(FamilyProperties, FlatUnderAChord3d, ()) { family_properties(*flat_under_a_chord()); }

// ---- metamorphic properties (4, 5, 6 and warm starts of 7), on every family

// The seven penetration families as one.
rc::Gen<Case> penetration_families(int dim) {
  return rc::gen::oneOf(deep_overlap(dim), shallow_overlap(dim), resting_contact(dim), tied_facets(dim),
                        thin_boxes(dim), posed_boxes(dim), depth_scales(dim));
}

rc::Gen<Case> any_family(int dim) {
  if (dim == 3)
    return rc::gen::oneOf(random_polytopes(dim), exactly_touching(dim), origin_on_feature(dim), lower_dimensional(dim),
                          near_touching(dim), scales(dim), past_findings(dim), rare_paths(dim), flat_under_a_chord(),
                          penetration_families(dim));
  return rc::gen::oneOf(random_polytopes(dim), exactly_touching(dim), origin_on_feature(dim), lower_dimensional(dim),
                        near_touching(dim), scales(dim), past_findings(dim), penetration_families(dim));
}

// 2^k exactly.
Exact power_of_two(int k) {
  Exact x = 1;
  if (k >= 0) mpq_mul_2exp(x.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(k));
  else mpq_div_2exp(x.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(-k));
  return x;
}

// The case with f applied to every coordinate, when f's double result is its exact result (no rounding happened);
// f returns the pair (double result, exact result).
template <class F>
std::optional<Case> exactly_mapped(Case c, F f) {
  for (auto* s : {&c.a, &c.b})
    for (auto& p : s->points)
      for (int i = 0; i < c.dim; ++i) {
        const auto [value, exact] = f(p[i], i);
        if (!std::isfinite(value) || Exact(value) != exact) return std::nullopt;
        p[i] = value;
      }
  return c;
}

void same_exact_answer(const Run<Exact>& x, const Run<Exact>& y) {
  RC_ASSERT(x.status == y.status);
  RC_ASSERT(squared(x.closest) == squared(y.closest));
}

// The warm-start error of a run in scalar T (InputError::None when the run is valid).
template <class T>
InputError warm_start_error(const Case& c, const Pairs& pairs) {
  const Run<T> r = run<T>(c, Query::Distance, Settings::warm_from(pairs));
  return r.status == Status::InvalidInput ? r.input_error : InputError::None;
}

// `raw`: 9 random numbers that pick an arbitrary warm-start simplex (its size, then its index pairs).
void metamorphic_properties(const Case& given, int k, int shift, int rotate_by, const std::vector<int>& raw) {
  // The relations below reorder, swap and duplicate points, which a warm start's index pairs would not follow; they
  // are about the shapes, so they run cold (warm starts have properties of their own: items 7, 16 and 17).
  Case c = given;
  c.warm_start.reset();
  saving_case_on_failure(c, [&] {
    RC_TAG(c.name.substr(0, c.name.find('/')));
    const Run<Exact> base = run<Exact>(c);

    // 4. Symmetry: (B, A) has the same verdict and distance, and the opposite closest vector.
    Case swapped = c;
    std::swap(swapped.a, swapped.b);
    const Run<Exact> s = run<Exact>(swapped);
    same_exact_answer(base, s);
    for (int i = 0; i < 3; ++i) RC_ASSERT(s.closest[i] == -base.closest[i]);

    // 5. Vertex order, duplicated vertices, an added interior point (an exact midpoint, when it is exact).
    Case reordered = c;
    std::reverse(reordered.a.points.begin(), reordered.a.points.end());
    std::rotate(reordered.b.points.begin(),
                reordered.b.points.begin() + static_cast<std::ptrdiff_t>(rotate_by % reordered.b.points.size()),
                reordered.b.points.end());
    reordered.a.points.push_back(reordered.a.points.front());
    const auto& p = c.b.points.front();
    const auto& q = c.b.points.back();
    const Point mid{(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2};
    bool mid_exact = true;
    for (int i = 0; i < 3; ++i) mid_exact = mid_exact && 2 * Exact(mid[i]) == Exact(p[i]) + Exact(q[i]);
    if (mid_exact) reordered.b.points.push_back(mid);
    same_exact_answer(base, run<Exact>(reordered));

    // 5. Axis permutations and reflections.
    ExactTransform axes;
    axes.permutation = c.dim == 3 ? std::array<int, 3>{2, 0, 1} : std::array<int, 3>{1, 0, 2};
    axes.sign = {-1, 1, -1};
    same_exact_answer(base, run<Exact>(transformed(c, axes)));

    // 5. Scaling by 2^k: the squared distance scales by 4^k exactly; in double every output scales bit for bit while
    // inputs and outputs stay normal (docs/contract.md, item 4).
    const Exact factor = power_of_two(k);
    if (const auto scaled = exactly_mapped(c, [&](double x, int) {
          return std::pair<double, Exact>{std::ldexp(x, k), Exact(x) * factor};
        })) {
      const Run<Exact> e = run<Exact>(*scaled);
      RC_ASSERT(e.status == base.status);
      RC_ASSERT(squared(e.closest) == squared(base.closest) * factor * factor);
      const auto normal = [](double x) { return x == 0 || std::fabs(x) >= std::ldexp(1.0, -900); };
      bool inputs_normal = true;
      for (const auto* shape : {&c.a, &c.b})
        for (const auto& point : shape->points)
          for (double x : point) inputs_normal = inputs_normal && normal(x) && normal(std::ldexp(x, k));
      const Run<double> d = run<double>(c), ds = run<double>(*scaled);
      bool outputs_normal = normal(d.distance) && normal(ds.distance);
      for (int i = 0; i < 3; ++i) outputs_normal = outputs_normal && normal(d.closest[i]) && normal(ds.closest[i]);
      if (inputs_normal && outputs_normal) {
        RC_ASSERT(ds.status == d.status);
        RC_ASSERT(ds.stop_rule == d.stop_rule);
        RC_ASSERT(ds.iterations == d.iterations);
        for (int i = 0; i < 3; ++i) RC_ASSERT(ds.closest[i] == std::ldexp(d.closest[i], k));
        RC_ASSERT(ds.distance == std::ldexp(d.distance, k));
      }
    }

    // 5. Translation by an exactly representable offset (when every sum is exact): A⊖B does not change.
    if (const auto moved = exactly_mapped(c, [shift](double x, int i) {
          const double t = std::ldexp(double(shift), -3 * i);
          return std::pair<double, Exact>{x + t, Exact(x) + Exact(t)};
        })) {
      const Run<Exact> e = run<Exact>(*moved);
      same_exact_answer(base, e);
      RC_ASSERT(e.closest == base.closest);
    }

    // 6. A 2D case embedded in 3D (z = 0) gives the 2D answer.
    if (c.dim == 2) {
      Case embedded = c;
      embedded.dim = 3;
      const Run<Exact> e = run<Exact>(embedded);
      same_exact_answer(base, e);
      RC_ASSERT(e.closest == base.closest);
    }

    // 7. Warm starts from the cold run's final simplex give the cold answer (exactly; in double within the contract
    // of the cold answer's distance).
    same_exact_answer(base, run<Exact>(c, Query::Distance, Settings::warm_from(base.pairs)));
    const Run<double> cold = run<double>(c);
    const Run<double> warm = run<double>(c, Query::Distance, Settings::warm_from(cold.pairs));
    const auto va = casefile::to_shape<Vec3<double>>(c.a), vb = casefile::to_shape<Vec3<double>>(c.b);
    const double eps = ScalarTraits<double>::epsilon(), m = input_scale(va, vb);
    const double allowed = 2 * kContractDistanceEpsilons * eps * m + 2 * kRelativeGapEpsilons * eps * cold.distance;
    RC_ASSERT(std::fabs(warm.distance - cold.distance) <= allowed);
    // ... and from a first direction (the cold answer's −closest, or an axis when it is 0).
    std::array<double, 3> direction{1, 0, 0};
    if (cold.closest != std::array<double, 3>{0, 0, 0})
      for (int i = 0; i < 3; ++i) direction[i] = -cold.closest[i];
    same_exact_answer(base, run<Exact>(c, Query::Distance, Settings::warm_along(direction)));
    const Run<double> directed = run<double>(c, Query::Distance, Settings::warm_along(direction));
    RC_ASSERT(std::fabs(directed.distance - cold.distance) <= allowed);
    // ... from the zero direction (which means the default, +x) ...
    same_exact_answer(base, run<Exact>(c, Query::Distance, Settings::warm_along({0, 0, 0})));
    // ... and from an arbitrary simplex: 1 to dimension+1 index pairs, repeated and affinely dependent ones included
    // (the region tests then start from vertex and edge regions that the cold loop never enters).
    const std::size_t na = c.a.points.size(), nb = c.b.points.size();
    Pairs arbitrary(1 + static_cast<std::size_t>(raw[0] % (c.dim + 1)));
    for (std::size_t i = 0; i < arbitrary.size(); ++i)
      arbitrary[i] = {static_cast<std::size_t>(raw[1 + 2 * i]) % na, static_cast<std::size_t>(raw[2 + 2 * i]) % nb};
    same_exact_answer(base, run<Exact>(c, Query::Distance, Settings::warm_from(arbitrary)));
    RC_ASSERT(run<Exact>(c, Query::Boolean, Settings::warm_from(arbitrary)).status == base.status);
    const Run<double> anywhere = run<double>(c, Query::Distance, Settings::warm_from(arbitrary));
    RC_ASSERT(std::fabs(anywhere.distance - cold.distance) <= allowed);
    // 8. A warm start with an index out of range, or with more than dimension+1 pairs, is BadWarmStart.
    Pairs out_of_a = arbitrary, out_of_b = arbitrary;
    out_of_a.back().first = na;
    out_of_b.back().second = nb;
    Pairs too_many(static_cast<std::size_t>(c.dim + 2), {0, 0});
    for (const Pairs& bad : {out_of_a, out_of_b, too_many}) {
      RC_LOG() << "bad warm start of " << bad.size() << " pairs: double says "
               << to_string(warm_start_error<double>(c, bad)) << std::endl;
      RC_ASSERT(warm_start_error<Exact>(c, bad) == InputError::BadWarmStart);
      RC_ASSERT(warm_start_error<double>(c, bad) == InputError::BadWarmStart);
    }
  });
}

rc::Gen<std::vector<int>> warm_start_picks() { return rc::gen::container<std::vector<int>>(9, choice(0, 1 << 20)); }

GJKREF_PROPERTY(Metamorphic, ExactTransformationsKeepTheAnswer2d, ()) {
  metamorphic_properties(*any_family(2), *choice(-30, 31), *choice(-1000, 1001),
                         *choice(0, 64), *warm_start_picks());
}
GJKREF_PROPERTY(Metamorphic, ExactTransformationsKeepTheAnswer3d, ()) {
  metamorphic_properties(*any_family(3), *choice(-30, 31), *choice(-1000, 1001),
                         *choice(0, 64), *warm_start_picks());
}

// ---- Warm starts from affinely dependent points (the warm-start layer, gjk.hpp)

// A and B on one line (2D) or plane (3D) through the origin, warm-started from dimension+1 pairs: affinely dependent
// points of A⊖B, which no cold run builds. Every mode must still answer as the oracle says: exact exactly, the
// floating modes within the contract (their verdict, distance and witnesses).
void warm_flat_properties(const Case& c, const std::vector<int>& raw) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    const std::size_t na = c.a.points.size(), nb = c.b.points.size();
    Pairs pairs;
    for (int i = 0; i <= c.dim; ++i)
      pairs.push_back({static_cast<std::size_t>(raw[2 * i]) % na, static_cast<std::size_t>(raw[2 * i + 1]) % nb});
    const Settings warm = Settings::warm_from(pairs);
    RC_TAG(c.name, std::string(oracle::to_string(truth.verdict)));
    const Run<Exact> e = run<Exact>(c, Query::Distance, warm);
    RC_ASSERT(e.status == status_of(truth));
    RC_ASSERT(squared(e.closest) == truth.squared_distance);
    floating_properties<double>(c, truth, warm);
    floating_properties<long double>(c, truth, warm);
    floating_properties<float>(c, truth, warm);
  });
}

GJKREF_PROPERTY(WarmStart, FlatDifferencesGiveTheColdAnswer2d, ()) {
  warm_flat_properties(*flat_through_origin(2), *warm_start_picks());
}
GJKREF_PROPERTY(WarmStart, FlatDifferencesGiveTheColdAnswer3d, ()) {
  warm_flat_properties(*flat_through_origin(3), *warm_start_picks());
}

// ---- 8: non-finite input is invalid in every mode and for the oracle

template <class T>
void invalid_in(const Case& c) {
  const Run<T> r = run<T>(c);
  RC_LOG() << ScalarName<T>::value << ": " << to_string(r.status) << " (" << to_string(r.input_error) << "), stop rule "
           << to_string(r.stop_rule) << std::endl;
  RC_ASSERT(r.status == Status::InvalidInput);
  RC_ASSERT(run<T>(c, Query::Boolean).status == Status::InvalidInput);
}

InputError error_of(const Case& c) {
  return casefile::in_dimension<double>(c, [&]<class V>() {
    return distance(casefile::to_shape<V>(c.a), casefile::to_shape<V>(c.b)).input_error;
  });
}

void non_finite_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    RC_TAG(to_string(expected_error(c)));
    RC_ASSERT(error_of(c) == expected_error(c));
    RC_ASSERT(oracle::fast_oracle(c).verdict == Verdict::InvalidInput);
    RC_ASSERT(oracle::hull_oracle(c).verdict == Verdict::InvalidInput);
    certified_properties(c, oracle::fast_oracle(c));
    invalid_in<float>(c);
    invalid_in<double>(c);
    invalid_in<long double>(c);
  });
}

GJKREF_PROPERTY(InvalidInput, NonFiniteCoordinates2d, ()) { non_finite_properties(*non_finite(2)); }
GJKREF_PROPERTY(InvalidInput, NonFiniteCoordinates3d, ()) { non_finite_properties(*non_finite(3)); }

// ---- the simplex cases alone (regions.hpp), in every vertex ordering

// The region tests' closest point in scalar T, for the simplex's points in the given order (2D or 3D).
template <class T>
struct RegionAnswer {
  long double norm = 0;  // |v|, from the feature's point
  bool fallback = false, encloses = false;
  int count = 0;
};

template <class V>
RegionAnswer<scalar_t<V>> region_answer(const Points& points, const std::array<int, 4>& order, Exact* squared_norm,
                                        bool* weights_valid) {
  using T = scalar_t<V>;
  const int k = static_cast<int>(points.size());
  gjkref::Points<V> p{};
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < V::dimension; ++j) p[i][j] = static_cast<T>(points[order[i]][j]);
  const ClosestFeature<T> f = closest_on_simplex(p, k);
  const V v = point_of(p, f);
  RegionAnswer<T> out;
  out.fallback = f.rounding_fallback;
  out.encloses = f.encloses_origin;
  out.count = f.count;
  if constexpr (ScalarTraits<T>::is_exact) {
    *squared_norm = dot(v, v);
    T sum(0);
    *weights_valid = true;
    for (int i = 0; i < f.count; ++i) {
      *weights_valid = *weights_valid && f.weight[i] >= 0;
      sum += f.weight[i];
    }
    *weights_valid = *weights_valid && sum == 1;
  } else {
    (void)squared_norm, (void)weights_valid;
    long double n2 = 0;
    for (int j = 0; j < V::dimension; ++j) n2 += static_cast<long double>(v[j]) * static_cast<long double>(v[j]);
    out.norm = std::sqrt(n2);
  }
  return out;
}

// Exact: in every ordering, the closest point's squared norm equals the brute force's (every subset's Gram system
// solved exactly: no region tests), with weights ≥ 0 summing to 1 and never the rounding fallback. Floating (float,
// double): in every ordering, |v| within kRegionRoundingEpsilons·ε·R of the true distance of the simplex as given
// in that scalar (R its largest coordinate) — for segments and triangles of every kind, and for tetrahedra on the
// lattice. A near-flat tetrahedron in a floating mode is outside that promise: its rounded signed volumes can send the
// search to the wrong faces (docs/edge-cases.md, "near-flat tetrahedron"; this property found it).
template <class T>
void floating_region_properties(const Case& c, int* fallbacks) {
  Points pts = c.a.points;
  for (Point& p : pts)
    for (double& x : p) x = static_cast<double>(static_cast<T>(x));  // the simplex as T holds it
  std::vector<Vec3<Exact>> exact_points;
  double largest = 0;
  for (const Point& p : pts) {
    exact_points.push_back({Exact(p[0]), Exact(p[1]), Exact(p[2])});
    for (double x : p) largest = std::max(largest, std::fabs(x));
  }
  const double truth = oracle::correctly_rounded_sqrt(brute_force_squared_distance(exact_points));
  const double bound = kRegionRoundingEpsilons * static_cast<double>(ScalarTraits<T>::epsilon()) * largest +
                       2 * std::numeric_limits<double>::epsilon() * truth;  // the two distances as doubles
  std::array<int, 4> order{0, 1, 2, 3};
  do {
    const RegionAnswer<T> r = c.dim == 2 ? region_answer<Vec2<T>>(pts, order, nullptr, nullptr)
                                         : region_answer<Vec3<T>>(pts, order, nullptr, nullptr);
    *fallbacks += r.fallback;
    RC_ASSERT(std::fabs(static_cast<double>(r.norm) - truth) <= bound);
  } while (std::next_permutation(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(pts.size())));
}

void region_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    std::vector<Vec3<Exact>> exact_points;
    for (const Point& p : c.a.points) exact_points.push_back({Exact(p[0]), Exact(p[1]), Exact(p[2])});
    const Exact truth = brute_force_squared_distance(exact_points);
    std::array<int, 4> order{0, 1, 2, 3};
    bool encloses = false;
    do {
      Exact squared_norm;
      bool weights_valid = false;
      const RegionAnswer<Exact> r =
          c.dim == 2 ? region_answer<Vec2<Exact>>(c.a.points, order, &squared_norm, &weights_valid)
                     : region_answer<Vec3<Exact>>(c.a.points, order, &squared_norm, &weights_valid);
      RC_ASSERT(squared_norm == truth);
      RC_ASSERT(weights_valid);
      RC_ASSERT(!r.fallback);
      encloses = encloses || r.encloses;
    } while (std::next_permutation(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(c.a.points.size())));
    int fallbacks = 0;
    if (c.a.points.size() <= 3 || c.name == "simplex/lattice") {
      floating_region_properties<float>(c, &fallbacks);
      floating_region_properties<double>(c, &fallbacks);
    }
    RC_TAG(c.name, std::to_string(c.a.points.size()) + " points",
           encloses ? "encloses the origin" : truth == 0 ? "origin on the boundary" : "origin outside",
           fallbacks > 0 ? "rounding fallback" : "");
  });
}

GJKREF_PROPERTY(Simplices, RegionTestsAgreeWithBruteForce2d, ()) { region_properties(*simplices(2)); }
GJKREF_PROPERTY(Simplices, RegionTestsAgreeWithBruteForce3d, ()) { region_properties(*simplices(3)); }

// ---- 8: finite input whose differences overflow double

// The double reference names the overflow or answers within the contract (it only meets the overflowing differences
// if its search picks them); float cannot hold the input and names it; long double and exact answer it, exact equal
// to the oracle (which reads every double as its exact rational).
void overflow_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    const Run<double> d = run<double>(c);
    RC_TAG(c.name, to_string(d.input_error));
    if (c.name == "overflow/all") RC_ASSERT(d.input_error == InputError::DifferenceOverflow);
    if (d.status == Status::InvalidInput) {
      RC_ASSERT(d.input_error == InputError::DifferenceOverflow);
    } else {
      floating_properties<double>(c, truth);
    }
    RC_ASSERT(run<float>(c).input_error == InputError::NonFiniteA);
    // Long double holds every difference. Far points: the distance is that of the two clouds, judged as usual; all
    // moved apart: the distance itself (about 2^1024) exceeds double, so only the verdict is compared.
    if (c.name == "overflow/all")
      RC_ASSERT(run<long double>(c).status == status_of(truth));
    else
      floating_properties<long double>(c, truth);
    const Run<Exact> e = run<Exact>(c);
    RC_ASSERT(e.status == status_of(truth));
    RC_ASSERT(squared(e.closest) == truth.squared_distance);
    // The certified mode answers exactly whatever the double core met (an overflow starts the exact core cold).
    certified_properties(c, truth);
  });
}

GJKREF_PROPERTY(InvalidInput, OverflowingDifferences2d, ()) { overflow_properties(*overflowing(2)); }

// Correct rounding (gjkref/exact.hpp), as the certified mode reports its distances and witnesses. round_to_double(x)
// is decided by its definition: no double is nearer x, and at a tie the significand is even. correctly_rounded_sqrt
// agrees with the oracle's, an independent method (MPFR brackets). Inputs: ratios of random doubles, their squares,
// and exact midpoints between neighbouring doubles (ties), at every scale down to the subnormals and up to overflow.
void rounding_properties(double x, double y, int shift, bool midpoint) {
  RC_PRE(std::isfinite(x) && std::isfinite(y) && y != 0 && std::isfinite(std::nextafter(x, INFINITY)));
  mpq_class q = mpq_class(x) / mpq_class(y);
  if (midpoint) q = (mpq_class(x) + mpq_class(std::nextafter(x, INFINITY))) / 2;
  q = ScalarTraits<mpq_class>::scale_by_power_of_two(q, shift);
  RC_LOG() << "q = " << q.get_str() << std::endl;
  const double r = round_to_double(q);
  if (std::isinf(r)) {
    // At or past the midpoint of DBL_MAX and 2^1024.
    RC_ASSERT(abs(q) >= mpq_class(DBL_MAX) / 2 + ScalarTraits<mpq_class>::scale_by_power_of_two(mpq_class(1), 1023));
  } else {
    const mpq_class error = abs(mpq_class(q - mpq_class(r)));
    for (double neighbour : {std::nextafter(r, INFINITY), std::nextafter(r, -INFINITY)}) {
      if (std::isinf(neighbour)) continue;
      const mpq_class other = abs(mpq_class(q - mpq_class(neighbour)));
      RC_ASSERT(error <= other);
      if (error == other) RC_ASSERT(!detail::odd_significand(r));
    }
  }
  const mpq_class square = abs(q);
  RC_ASSERT(correctly_rounded_sqrt(square) == oracle::correctly_rounded_sqrt(square));
  const mpq_class tie = mpq_class(square * square);  // √tie = square exactly: a tie whenever square is a midpoint
  RC_ASSERT(correctly_rounded_sqrt(tie) == oracle::correctly_rounded_sqrt(tie));
}

GJKREF_PROPERTY(Rounding, IsCorrect, (double x, double y, bool midpoint)) {
  rounding_properties(x, y, *choice(-1200, 1200), midpoint);
}
GJKREF_PROPERTY(InvalidInput, OverflowingDifferences3d, ()) { overflow_properties(*overflowing(3)); }

// ---- the judge of the floating properties (gjkref/contract.hpp) refuses what the contract refuses

// On the true answer of any case: the truth itself agrees; a distance 3/2 of the allowance away is refused (where that
// is finite), half of it is not; a wrong verdict at the true distance is refused exactly when that distance is outside the verdict band.
void judge_properties(const Case& c) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    const bool separated = truth.verdict == Verdict::Separated;
    const auto va = casefile::to_shape<Vec3<double>>(c.a), vb = casefile::to_shape<Vec3<double>>(c.b);
    const double m = input_scale(va, vb), r = largest_coordinate(va, vb);
    const bool outside = truth.distance > verdict_band(ScalarTraits<double>::epsilon(), m, r, c.dim, false);
    RC_TAG(c.name.substr(0, c.name.find('/')), outside ? "outside double's band" : "inside double's band");
    for (const double eps : {double(ScalarTraits<float>::epsilon()), ScalarTraits<double>::epsilon()}) {
      for (const bool rounded : {false, true}) {
        const auto judge = [&](bool says_separated, double distance) {
          return judge_floating({says_separated, distance}, separated, truth.distance, eps, m, r, c.dim, rounded);
        };
        const double allowed = distance_allowance(truth.distance, eps, m, r, c.dim, rounded);
        const double band = verdict_band(eps, m, r, c.dim, rounded);
        RC_ASSERT(judge(separated, truth.distance) == Judgement::Agrees);
        RC_ASSERT(judge(separated, truth.distance + allowed / 2) == Judgement::Agrees);
        // An infinite allowance refuses nothing: input whose scale M leaves double's range (a committed finding at
        // 2^1023), far outside the range the contract judges (docs/contract.md, "Range").
        if (allowed > 0 && std::isfinite(1.5 * allowed))
          RC_ASSERT(judge(separated, truth.distance + 1.5 * allowed) == Judgement::Violates);
        RC_ASSERT(judge(!separated, truth.distance) ==
                  (truth.distance <= band ? Judgement::WithinBand : Judgement::Violates));
      }
    }
  });
}

GJKREF_PROPERTY(Contract, JudgeRefusesAnswersOutsideTheContract2d, ()) { judge_properties(*any_family(2)); }
GJKREF_PROPERTY(Contract, JudgeRefusesAnswersOutsideTheContract3d, ()) { judge_properties(*any_family(3)); }

// ---- 9: the oracle's methods agree (hull, QP, fast path; and in 2D the Minkowski sum)

void oracle_methods_agree(const Case& c) {
  saving_case_on_failure(c, [&] {
    const Answer h = oracle::hull_oracle(c), q = oracle::qp_oracle(c), f = oracle::fast_oracle(c);
    RC_TAG(c.name.substr(0, c.name.find('/')), std::string(oracle::to_string(f.method)));
    for (const Answer* x : {&q, &f}) {
      RC_ASSERT(x->verdict == h.verdict);
      RC_ASSERT(x->squared_distance == h.squared_distance);
      RC_ASSERT(x->affine_dimension == h.affine_dimension);
    }
    RC_ASSERT(f.feature == h.feature);
    if (const auto sum = oracle::minkowski_sum_oracle(c)) {
      RC_ASSERT(sum->verdict == h.verdict);
      RC_ASSERT(sum->squared_distance == h.squared_distance);
    }
  });
}

GJKREF_PROPERTY(OracleMethods, Agree2d, ()) { oracle_methods_agree(*any_family(2)); }
GJKREF_PROPERTY(OracleMethods, Agree3d, ()) { oracle_methods_agree(*any_family(3)); }

// ---- the penetration-depth oracle under exact symmetries (docs/properties.md, "Penetration families")

// The directions of p's optimal normals times `sign`, each scaled so that its first non-zero coordinate is ±1, sorted:
// equal for two answers exactly when their sets of optimal normal directions are.
std::vector<std::array<Exact, 3>> optimal_directions(const oracle::Penetration& p, int sign) {
  std::vector<std::array<Exact, 3>> out;
  for (const oracle::DepthFacet& f : p.optimal) {
    std::array<Exact, 3> n{f.normal[0] * sign, f.normal[1] * sign, f.normal[2] * sign};
    const auto lead = std::find_if(n.begin(), n.end(), [](const Exact& x) { return x != 0; });
    RC_ASSERT(lead != n.end());
    const Exact scale = abs(*lead);
    for (Exact& x : n) x /= scale;
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// B⊖A = −(A⊖B): the same PD², every optimal normal reversed. Both shapes scaled by 2^k: PD² times 4^k, the same
// normals. Both moved by the same offset: nothing changes. (Exact transformations only: a case whose image rounds is
// skipped for that transformation.) Each answer's certificate is checked by penetration_oracle itself.
void penetration_symmetries(const Case& c, int k, int shift) {
  saving_case_on_failure(c, [&] {
    const Answer truth = oracle::fast_oracle(c);
    RC_TAG(c.name.substr(0, c.name.find('/')), std::string(oracle::to_string(truth.verdict)));
    if (truth.verdict != Verdict::Overlapping && truth.verdict != Verdict::Touching) return;
    const oracle::Penetration p = oracle::penetration_oracle(c, truth);
    const auto depth_of = [](const Case& x) { return oracle::penetration_oracle(x, oracle::fast_oracle(x)); };

    Case swapped = c;
    std::swap(swapped.a, swapped.b);
    const oracle::Penetration ps = depth_of(swapped);
    RC_ASSERT(ps.squared_depth == p.squared_depth);
    RC_ASSERT(optimal_directions(ps, -1) == optimal_directions(p, 1));

    const Exact factor = power_of_two(k);
    if (const auto scaled = exactly_mapped(c, [&](double x, int) {
          return std::pair<double, Exact>{std::ldexp(x, k), Exact(x) * factor};
        })) {
      const oracle::Penetration q = depth_of(*scaled);
      RC_ASSERT(q.squared_depth == p.squared_depth * factor * factor);
      RC_ASSERT(optimal_directions(q, 1) == optimal_directions(p, 1));
    }
    if (const auto moved = exactly_mapped(c, [shift](double x, int i) {
          const double t = std::ldexp(double(shift), -3 * i);
          return std::pair<double, Exact>{x + t, Exact(x) + Exact(t)};
        })) {
      const oracle::Penetration q = depth_of(*moved);
      RC_ASSERT(q.squared_depth == p.squared_depth);
      RC_ASSERT(optimal_directions(q, 1) == optimal_directions(p, 1));
    }
  });
}

GJKREF_PROPERTY(PenetrationSymmetries, Hold2d, ()) {
  penetration_symmetries(*penetration_families(2), *choice(-30, 31), *choice(-1000, 1001));
}
GJKREF_PROPERTY(PenetrationSymmetries, Hold3d, ()) {
  penetration_symmetries(*penetration_families(3), *choice(-30, 31), *choice(-1000, 1001));
}

// ---- representativeness: each family produces what it is for (a hit-rate check, as Jolt's)

struct Mix {
  int separated = 0, touching = 0, overlapping = 0, n = 0;
};

// `count` cases of `gen` at RapidCheck sizes 0, 1, ..., sizes − 1, 0, 1, ...
Mix sample(const rc::Gen<Case>& gen, int count, std::uint64_t seed, int sizes = 100) {
  Mix mix;
  rc::Random random(seed);
  for (int i = 0; i < count; ++i) {
    const Case c = gen(random.split(), i % sizes).value();
    const Verdict v = oracle::fast_oracle(c).verdict;
    (v == Verdict::Separated ? mix.separated : v == Verdict::Touching ? mix.touching : mix.overlapping)++;
    ++mix.n;
  }
  return mix;
}

TEST(Generators, FamiliesProduceWhatTheyAreFor) {
  constexpr int kSamples = 600;
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    const Mix random = sample(random_polytopes(dim), kSamples, 1);
    EXPECT_GT(random.separated, kSamples / 10);
    EXPECT_GT(random.overlapping, kSamples / 10);
    const Mix touching = sample(exactly_touching(dim), kSamples, 2);
    EXPECT_EQ(touching.touching, kSamples) << "every exactly-touching pair touches";
    const Mix on_feature = sample(origin_on_feature(dim), kSamples, 3);
    EXPECT_GT(on_feature.touching, kSamples / 2);
    const Mix flat = sample(lower_dimensional(dim), kSamples, 4);
    EXPECT_GT(flat.touching, kSamples / 20);
    const Mix near = sample(near_touching(dim), kSamples, 5);
    EXPECT_GT(near.separated, kSamples / 3);
    EXPECT_GT(near.overlapping + near.touching, kSamples / 10);
    const Mix scaled = sample(scales(dim), kSamples, 6);
    EXPECT_GT(scaled.touching, kSamples / 5);
    std::printf("%dD: random %d/%d/%d, touching %d/%d/%d, on-feature %d/%d/%d, flat %d/%d/%d, near %d/%d/%d, "
                "scales %d/%d/%d (separated/touching/overlapping of %d each)\n",
                dim, random.separated, random.touching, random.overlapping, touching.separated, touching.touching,
                touching.overlapping, on_feature.separated, on_feature.touching, on_feature.overlapping,
                flat.separated, flat.touching, flat.overlapping, near.separated, near.touching, near.overlapping,
                scaled.separated, scaled.touching, scaled.overlapping, kSamples);
  }
  // Needles: both sides, and double's careful pass refused by the post-pass's check on some of them (the exact finish
  // is what the family is for).
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    const Mix needle = sample(needles(dim), kSamples, 9);
    EXPECT_GT(needle.separated, kSamples / 10);
    EXPECT_GT(needle.overlapping, kSamples / 10);
    rc::Random random(9);
    int finished = 0;
    for (int i = 0; i < kSamples; ++i) finished += run<double>(needles(dim)(random.split(), i % 100).value()).pass ==
                                                   Pass::ExactFinish;
    EXPECT_GT(finished, kSamples / 50);
    std::printf("%dD: needles %d/%d/%d (separated/touching/overlapping of %d); double finished exactly on %d\n", dim,
                needle.separated, needle.touching, needle.overlapping, kSamples, finished);
  }
  // Flat pairs under a chord (3D only): apart by about h, or touching, or overlapping.
  const Mix chord = sample(flat_under_a_chord(), kSamples, 8);
  EXPECT_GT(chord.separated, kSamples / 10);
  EXPECT_GT(chord.touching, kSamples / 20);
  EXPECT_GT(chord.overlapping, kSamples / 10);
  std::printf("3D: under a chord %d/%d/%d (separated/touching/overlapping of %d)\n", chord.separated, chord.touching,
              chord.overlapping, kSamples);
}

// RapidCheck's size scales how many points a shape has, never where they are (generators.hpp, `choice`). Before,
// rc::gen::inRange drew every coordinate from [min, min + (max − min)·size/100]: at size 0 each lattice point was
// (−w, −w, −w), the random family's pairs were all apart below size 25 and 3D deep-overlap clouds below size 50 mostly
// apart too (a quarter of each family was not what its name says). What does not matter: the seeds, the thresholds'
// exact values (each fails with the old generators, which gave 0 to 3 % overlapping pairs below size 25 in both
// families, and holds with a margin with these).
TEST(Generators, ValuesSpanTheirRangeAtEverySize) {
  constexpr int kSamples = 300, kSmallSizes = 25;
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    rc::Random random(20 + dim);
    std::array<double, 3> least{0, 0, 0}, most{0, 0, 0};
    for (int i = 0; i < kSamples; ++i) {
      const Point p = lattice_point(dim, 8)(random.split(), 0).value();
      for (int k = 0; k < dim; ++k) least[k] = std::min(least[k], p[k]), most[k] = std::max(most[k], p[k]);
    }
    for (int k = 0; k < dim; ++k) {
      EXPECT_EQ(least[k], -8) << "coordinate " << k << " at size 0";
      EXPECT_EQ(most[k], 8) << "coordinate " << k << " at size 0";
    }
    const Mix random_small = sample(random_polytopes(dim), kSamples, 21, kSmallSizes);
    EXPECT_GT(random_small.separated, kSamples / 10);
    EXPECT_GT(random_small.overlapping, kSamples / 20);  // fewer than at every size: small sizes have few points
    const Mix deep_small = sample(deep_overlap(dim), kSamples, 22, kSmallSizes);
    EXPECT_GT(deep_small.overlapping, kSamples / 2);
    std::printf("%dD at sizes below %d: random %d/%d/%d, deep %d/%d/%d (separated/touching/overlapping of %d each)\n",
                dim, kSmallSizes, random_small.separated, random_small.touching, random_small.overlapping,
                deep_small.separated, deep_small.touching, deep_small.overlapping, kSamples);
  }
}

// The penetration families reach depth: each mostly overlaps, resting contact always touches, and the stacked families
// give both. (PenetrationMethodsAgree, penetration_test.cpp, also fails a family that reaches depth too rarely.)
TEST(Generators, PenetrationFamiliesReachDepth) {
  constexpr int kSamples = 300;
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    const Mix deep = sample(deep_overlap(dim), kSamples, 11), shallow = sample(shallow_overlap(dim), kSamples, 12),
              resting = sample(resting_contact(dim), kSamples, 13), tied = sample(tied_facets(dim), kSamples, 14),
              thin = sample(thin_boxes(dim), kSamples, 15), posed = sample(posed_boxes(dim), kSamples, 16),
              scaled = sample(depth_scales(dim), kSamples, 17);
    EXPECT_GT(deep.overlapping, kSamples / 3);
    EXPECT_GT(shallow.overlapping, kSamples / 3);
    EXPECT_EQ(resting.touching, kSamples) << "every resting contact touches";
    EXPECT_EQ(tied.overlapping, kSamples) << "congruent cubes moved by less than their side overlap";
    EXPECT_GT(thin.overlapping, kSamples / 2);
    EXPECT_GT(posed.overlapping, kSamples / 3);
    EXPECT_GT(scaled.overlapping, kSamples / 2);
    std::printf("%dD: deep %d/%d/%d, shallow %d/%d/%d, resting %d/%d/%d, tied %d/%d/%d, thin %d/%d/%d, posed %d/%d/%d, "
                "depth-scales %d/%d/%d (separated/touching/overlapping of %d each)\n",
                dim, deep.separated, deep.touching, deep.overlapping, shallow.separated, shallow.touching,
                shallow.overlapping, resting.separated, resting.touching, resting.overlapping, tied.separated,
                tied.touching, tied.overlapping, thin.separated, thin.touching, thin.overlapping, posed.separated,
                posed.touching, posed.overlapping, scaled.separated, scaled.touching, scaled.overlapping, kSamples);
  }
}

// A shape that counts its support queries.
template <class S>
struct CountingSupports {
  using vector_type = typename S::vector_type;
  const S* shape;
  int* queries;
  Support<vector_type> support(const vector_type& d) const {
    ++*queries;
    return shape->support(d);
  }
  ShapeCheck check() const { return shape->check(); }
};

// The support queries a cold distance query of the careful pass in scalar T makes outside its main loop: one to
// start, plus those of the walk past a flat segment (rule 6, floating.hpp), which `iterations` does not count. So this
// is the walk's count. (The careful pass alone: the walk is its mechanism; the textbook pass before it in a default
// query makes supports of its own.)
template <class T>
int walk_supports(const Case& c) {
  return casefile::in_dimension<T>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    int queries = 0;
    const CountingSupports<std::decay_t<decltype(a)>> counted{&a, &queries};
    Options<V> careful;
    careful.careful_pass_only = true;
    const auto r = distance(counted, b, careful);
    return queries - 1 - r.iterations;
  });
}

// The rare-path cases reach what they are kept for: each one, as committed, walks past a flat segment in long double,
// and so do most of their exact variants (the axis symmetries change the first search direction, hence the path).
TEST(Generators, RarePathsReachTheWalkPastAFlatSegment) {
  for (const Case& c : rare_path_cases()) {
    const int walk = walk_supports<long double>(c);
    EXPECT_GT(walk, 0) << c.name;
    EXPECT_LE(walk, kStalledStepsWithGap) << c.name << ": the walk's budget (docs/contract.md)";
  }
  constexpr int kSamples = 300;
  rc::Random random(7);
  const rc::Gen<Case> variants = rare_paths(3);
  int walked = 0;
  for (int i = 0; i < kSamples; ++i) {
    const int walk = walk_supports<long double>(variants(random.split(), i % 100).value());
    EXPECT_LE(walk, kStalledStepsWithGap);
    walked += walk > 0;
  }
  EXPECT_GT(walked, kSamples / 2);  // measured: 289 of 300
  std::printf("rare paths: %d of %d variants walk past a flat segment in long double\n", walked, kSamples);
}

}  // namespace
}  // namespace gjkref::proptests
