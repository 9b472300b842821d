// impl/implementations.cpp — the reference's modes as implementations, and the registry of built-in ones.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <type_traits>

#include "gjkref/case_shapes.hpp"
#include "gjkref/certified.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/implementations.hpp"

namespace gjkref::impl {

const char* to_string(Status s) {
  switch (s) {
    case Status::Answered: return "answered";
    case Status::Failed: return "failed";
    case Status::Threw: return "threw";
    case Status::Crashed: return "crashed";
    case Status::Hung: return "hung";
    case Status::InvalidInput: return "invalid-input";
    case Status::Refused: return "refused";
    case Status::Unsupported: return "unsupported";
  }
  return "unknown";
}

const char* to_string(LoadStatus s) {
  switch (s) {
    case LoadStatus::Loaded: return "loaded";
    case LoadStatus::NotStarted: return "not-started";
    case LoadStatus::Refused: return "refused";
    case LoadStatus::Died: return "died";
    case LoadStatus::TimedOut: return "timed-out";
  }
  return "unknown";
}

std::optional<double> Info::epsilon() const {
  if (scalar == "exact" || scalar == "certified") return 0.0;
  if (scalar == "float") return std::numeric_limits<float>::epsilon();
  if (scalar == "double") return std::numeric_limits<double>::epsilon();
  if (scalar == "long double") return static_cast<double>(std::numeric_limits<long double>::epsilon());
  return std::nullopt;
}

template <class Bad>
bool Result::any_number(const Bad& bad) const {
  if (distance && bad(*distance)) return true;
  if (penetration && bad(*penetration)) return true;
  for (const auto* points : {witnesses ? &*witnesses : nullptr, contacts ? &*contacts : nullptr})
    if (points)
      for (const auto& w : *points)
        for (double x : w)
          if (bad(x)) return true;
  if (normal)
    for (double x : *normal)
      if (bad(x)) return true;
  return false;
}

bool Result::has_non_finite_number() const {
  return any_number([](double x) { return !std::isfinite(x); });
}

bool Result::has_nan() const {
  return any_number([](double x) { return std::isnan(x); });
}

namespace {

// What every mode of the reference answers: 2D and 3D, verdict, distance and witnesses, built in.
Info reference_info(const char* name, const char* scalar) {
  Info info;
  info.name = name;
  info.version = "gjkref " GJKREF_VERSION;
  info.scalar = scalar;
  info.in_2d = info.in_3d = true;
  info.capabilities = kDecides | kMeasures | kWitnesses;
  info.source = "built in";
  return info;
}

// The first finite coordinate of a shape of the case that is beyond T's range (it rounds to ±∞ in T), if there is one.
template <class T>
std::optional<double> first_beyond_range(const casefile::Shape& shape) {
  for (const auto& p : shape.points)
    for (const double x : p)
      if (std::isfinite(x) && !std::isfinite(ScalarCast<T, double>::apply(x))) return x;
  return std::nullopt;
}

// A floating EPA normal (any length, in EPA's power-of-two frame) as a unit vector in double: scaled by a power of two
// to a largest component near 1 first, so that neither its square nor the division leaves the range.
template <Vector V>
std::array<double, 3> unit_double(const V& n) {
  using Tr = ScalarTraits<scalar_t<V>>;
  const V scaled = scale_by_power_of_two(n, -Tr::frame_exponent(max_abs_component(n)));
  long double length = 0;
  for (int k = 0; k < V::dimension; ++k) length += static_cast<long double>(scaled[k]) * scaled[k];
  length = std::sqrt(length);
  std::array<double, 3> u{};
  for (int k = 0; k < V::dimension; ++k) u[k] = static_cast<double>(static_cast<long double>(scaled[k]) / length);
  return u;
}

// Every mode also measures the penetration depth of the pairs it calls intersecting: EPA (gjkref/epa.hpp) from its
// GJK's answer, in its own scalar, with the unit normal of the answer's facet (touching: of a plane through the origin
// supporting A⊖B). The exact mode rounds both correctly; the floating modes give |t| in EPA's frame and the normal
// made unit in long double (docs/contract.md holds them to the depth's allowance). An EPA that ends without a number
// (rounding-failure, its cap) says so in the detail, and the answer has no depth.

template <class T>
class Reference final : public Implementation {
 public:
  Reference(const char* name, const char* scalar) : info_(reference_info(name, scalar)) {
    info_.capabilities |= kPenetrates | kNormal;
  }
  const Info& info() const override { return info_; }

  Result run(const casefile::Case& c) override {
    Result out;
    if constexpr (is_exact_v<T>) {
      if (c.has_non_finite_coordinate()) {
        out.status = Status::InvalidInput;
        out.detail = "non-finite input (not representable)";
        return out;
      }
    }
    return casefile::in_dimension<T>(c, [&]<class V>() {
      const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
      const Options<V> options = casefile::to_options<V>(c);
      const auto start = std::chrono::steady_clock::now();
      const auto r = distance(a, b, options);
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      switch (r.status) {
        case gjkref::Status::Separated:
        case gjkref::Status::Intersecting:
          out.status = Status::Answered;
          out.separated = r.status == gjkref::Status::Separated;
          out.detail = to_string(r.stop_rule);
          // Which pass answered, when not the textbook's: "careful", "exact-finish" (gjkref/finish.hpp).
          if (r.pass != gjkref::Pass::Textbook) out.detail += std::string(", ") + to_string(r.pass) + " pass";
          break;
        case gjkref::Status::IterationLimit:
          out.status = Status::Failed;
          out.detail = std::string("iteration limit (") + to_string(r.stop_rule) + ")";
          return out;
        case gjkref::Status::InvalidInput:
          out.status = Status::InvalidInput;
          out.detail = to_string(r.input_error);
          // A finite coordinate of the case that rounds to ±∞ in T: said, rather than "non-finite" of a finite input.
          if constexpr (!is_exact_v<T>)
            if (const std::optional<double> x =
                    r.input_error == InputError::NonFiniteA   ? first_beyond_range<T>(c.a)
                    : r.input_error == InputError::NonFiniteB ? first_beyond_range<T>(c.b)
                                                              : std::nullopt) {
              char value[32];
              std::snprintf(value, sizeof value, "%.17g", *x);
              out.detail += std::string(" (the case's coordinate ") + value + " is beyond " + info_.scalar + "'s range)";
            }
          return out;
      }
      std::array<std::array<double, 3>, 2> w{};
      if constexpr (is_exact_v<T>) {
        // The exact answer's doubles, each the correct rounding of its rational (r.distance() and to_double are for
        // display: get_d truncates, and the square root of a rounded square rounds twice).
        out.distance = correctly_rounded_sqrt(r.squared_distance());
        for (int k = 0; k < V::dimension; ++k) {
          w[0][k] = round_to_double(r.witness_a[k]);
          w[1][k] = round_to_double(r.witness_b[k]);
        }
        out.exact_squared_distance = r.squared_distance();
      } else {
        out.distance = static_cast<double>(r.distance());
        for (int k = 0; k < V::dimension; ++k) {
          w[0][k] = ScalarTraits<T>::to_double(r.witness_a[k]);
          w[1][k] = ScalarTraits<T>::to_double(r.witness_b[k]);
        }
      }
      out.witnesses = w;
      if (r.status == gjkref::Status::Intersecting) {
        const auto start_depth = std::chrono::steady_clock::now();
        const Penetration<V> p = detail::expand(a, b, r, kDefaultMaxExpansions);
        out.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_depth).count();
        if (p.status == PenetrationStatus::Penetrating || p.status == PenetrationStatus::Touching) {
          if constexpr (is_exact_v<T>) {
            out.penetration = correctly_rounded_sqrt(p.squared_depth);
            std::array<Exact, V::dimension> u;  // its unit normal, each coordinate correctly rounded (any length
            for (int k = 0; k < V::dimension; ++k) u[k] = p.normal[k];  // would do; this one cannot overflow)
            out.normal = detail::round_unit(u);
          } else {
            out.penetration = p.depth();
            out.normal = unit_double(p.normal);
          }
          out.detail += std::string(", EPA ") + to_string(p.status);
        } else {
          out.detail += std::string(", EPA ") + to_string(p.status) +
                        (p.status == PenetrationStatus::InvalidInput ? std::string(": ") + to_string(p.gjk.input_error)
                                                                    : std::string()) +
                        " (no depth)";
        }
      }
      return out;
    });
  }

 private:
  Info info_;
};

// The certified mode (gjkref/certified.hpp): exact answers for the double input, at close to double speed.
class Certified final : public Implementation {
 public:
  // The certified mode also measures the penetration depth of intersecting pairs, exactly (the double EPA's certificate
  // checked exactly, else EPA in rationals: gjkref/certified_penetration.hpp), correctly rounded: judged bit for bit
  // like its distance. With it, the exact optimal unit normal, each coordinate correctly rounded (touching: a normal of
  // a plane through the origin supporting A⊖B).
  Certified() : info_(reference_info("reference-certified", "certified")) {
    info_.capabilities |= kPenetrates | kNormal;
  }
  const Info& info() const override { return info_; }

  Result run(const casefile::Case& c) override {
    Result out;
    return casefile::in_dimension<double>(c, [&]<class V>() {
      const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
      const Options<V> options = casefile::to_options<V>(c);
      const auto start = std::chrono::steady_clock::now();
      const CertifiedResult<V> r = certified_distance(a, b, options, CertifiedOutput::WithExact);
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (r.status == gjkref::Status::InvalidInput) {
        out.status = Status::InvalidInput;
        out.detail = to_string(r.input_error);
        return out;
      }
      out.status = Status::Answered;
      out.separated = r.status == gjkref::Status::Separated;
      out.contact_class = to_string(r.contact_class);
      out.detail = to_string(r.path);
      out.distance = r.distance;
      std::array<std::array<double, 3>, 2> w{};
      for (int k = 0; k < V::dimension; ++k) w[0][k] = (*r.witness_a)[k], w[1][k] = (*r.witness_b)[k];
      out.witnesses = w;
      out.exact_squared_distance = r.exact->squared_distance;
      if (r.status == gjkref::Status::Intersecting) {
        const auto start_depth = std::chrono::steady_clock::now();
        const CertifiedPenetration<V> p = certified_penetration(a, b);
        out.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_depth).count();
        if (p.status == PenetrationStatus::Penetrating || p.status == PenetrationStatus::Touching) {
          out.penetration = p.depth;
          std::array<double, 3> n{};
          for (int k = 0; k < V::dimension; ++k) n[k] = p.normal[k];
          out.normal = n;
        }
      }
      return out;
    });
  }

 private:
  Info info_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> reference_implementations() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<Reference<float>>("reference-float", "float"));
  out.push_back(std::make_unique<Reference<double>>("reference-double", "double"));
  out.push_back(std::make_unique<Reference<long double>>("reference-long-double", "long double"));
  out.push_back(std::make_unique<Reference<Exact>>("reference-exact", "exact"));
  out.push_back(std::make_unique<Certified>());
  return out;
}

std::string builtin_plugin_directory() {
  if (const char* dir = std::getenv("GJKREF_PLUGIN_DIR"); dir && *dir) return dir;
  // GJKREF_BUILTIN_PLUGINS: the plugin libraries this build made (impl/CMakeLists.txt), separated by ';'.
  const std::string names = GJKREF_BUILTIN_PLUGINS;
  const std::string first = names.substr(0, names.find(';'));
  std::error_code ec;
  if (first.empty() || std::filesystem::exists(std::filesystem::path(GJKREF_BUILTIN_PLUGIN_DIR) / first, ec))
    return GJKREF_BUILTIN_PLUGIN_DIR;
  // A program copied away from its build, or whose plugins were built apart (a fuzz target in ClusterFuzzLite's $OUT,
  // .clusterfuzzlite/build.sh), finds them beside itself, in gjkref-plugins/.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? GJKREF_BUILTIN_PLUGIN_DIR : (self.parent_path() / "gjkref-plugins").string();
}

PluginLoad open_builtin_implementations(WorkerLimits limits) {
  PluginLoad out;
  out.implementations = reference_implementations();
  // GJKREF_BUILTIN_PLUGINS: the plugin libraries this build made (impl/CMakeLists.txt), separated by ';'.
  const std::string names = GJKREF_BUILTIN_PLUGINS;
  std::size_t from = 0;
  while (from < names.size()) {
    std::size_t to = names.find(';', from);
    if (to == std::string::npos) to = names.size();
    const std::string file = builtin_plugin_directory() + "/" + names.substr(from, to - from);
    from = to + 1;
    PluginLoad loaded = open_plugin(file, limits);
    if (loaded.status != LoadStatus::Loaded) {
      if (out.status == LoadStatus::Loaded) out.status = loaded.status;
      out.error += (out.error.empty() ? "" : "\n") + loaded.error;
    }
    for (auto& i : loaded.implementations) out.implementations.push_back(std::move(i));
  }
  return out;
}

std::vector<std::unique_ptr<Implementation>> builtin_implementations(std::string& error, WorkerLimits limits) {
  PluginLoad loaded = open_builtin_implementations(limits);
  if (loaded.status != LoadStatus::Loaded) error += (error.empty() ? "" : "\n") + loaded.error;
  return std::move(loaded.implementations);
}

}  // namespace gjkref::impl
