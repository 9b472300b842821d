#include "gjkref/casefile.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace gjkref::casefile {
namespace {

using nlohmann::json;

// 2^53: every integer below it in magnitude is a double, so it prints and reads back as a plain JSON integer.
constexpr double kLargestPlainInteger = 9007199254740992.0;

struct Failure {
  std::string where, what;
};

std::string describe(const json& j) {
  std::string s = j.dump();
  constexpr std::size_t kShown = 40;  // characters of an offending value shown in a message
  return s.size() > kShown ? s.substr(0, kShown) + "..." : s;
}

double read_coordinate(const json& j, const std::string& where) {
  if (j.is_number()) {
    const double x = j.get<double>();
    if (!std::isfinite(x)) throw Failure{where, "number out of the double range: " + describe(j)};
    return x;
  }
  if (j.is_string()) {
    std::string why;
    if (auto x = parse_coordinate_string(j.get_ref<const std::string&>(), &why)) return *x;
    throw Failure{where, why};
  }
  throw Failure{where, "expected a number or a numeric string, got " + describe(j)};
}

void check_keys(const json& object, const std::set<std::string>& allowed, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    if (key == "transform" || key == "radius")
      throw Failure{where + "." + key, "reserved for a later version of the format; not supported yet"};
    if (!allowed.count(key)) throw Failure{where.empty() ? key : where + "." + key, "unknown field"};
  }
}

Shape read_shape(const json& j, int dim, const std::string& where) {
  if (!j.is_object()) throw Failure{where, "expected an object {\"points\": [...]}, got " + describe(j)};
  check_keys(j, {"points"}, where);
  if (!j.contains("points")) throw Failure{where + ".points", "missing"};
  const json& pts = j["points"];
  if (!pts.is_array()) throw Failure{where + ".points", "expected an array of points, got " + describe(pts)};
  Shape s;
  s.points.reserve(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string at = where + ".points[" + std::to_string(i) + "]";
    const json& p = pts[i];
    if (!p.is_array() || p.size() != static_cast<std::size_t>(dim))
      throw Failure{at, "expected " + std::to_string(dim) + " coordinates, got " + describe(p)};
    std::array<double, 3> q{0, 0, 0};
    for (int k = 0; k < dim; ++k) q[k] = read_coordinate(p[k], at + "[" + std::to_string(k) + "]");
    s.points.push_back(q);
  }
  return s;
}

WarmStart read_warm_start(const json& j, const Case& c) {
  const std::string where = "warm_start";
  if (!j.is_object())
    throw Failure{where, "expected an object {\"pairs\": [...]} or {\"direction\": [...]}, got " + describe(j)};
  check_keys(j, {"pairs", "direction"}, where);
  if (j.contains("pairs") == j.contains("direction"))
    throw Failure{where, "expected exactly one of \"pairs\" and \"direction\""};
  WarmStart w;
  if (j.contains("direction")) {
    const json& d = j["direction"];
    const std::string at = where + ".direction";
    if (!d.is_array() || d.size() != static_cast<std::size_t>(c.dim))
      throw Failure{at, "expected " + std::to_string(c.dim) + " coordinates, got " + describe(d)};
    std::array<double, 3> q{0, 0, 0};
    for (int k = 0; k < c.dim; ++k) {
      q[k] = read_coordinate(d[k], at + "[" + std::to_string(k) + "]");
      if (!std::isfinite(q[k]))
        throw Failure{at + "[" + std::to_string(k) + "]", "a warm-start direction must be finite"};
    }
    w.direction = q;
    return w;
  }
  const json& pairs = j["pairs"];
  const std::string at = where + ".pairs";
  if (!pairs.is_array() || pairs.empty() || pairs.size() > static_cast<std::size_t>(c.dim + 1))
    throw Failure{at, "expected 1 to " + std::to_string(c.dim + 1) + " pairs [index in a, index in b], got " +
                          describe(pairs)};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string pair_at = at + "[" + std::to_string(i) + "]";
    const json& p = pairs[i];
    if (!p.is_array() || p.size() != 2) throw Failure{pair_at, "expected [index in a, index in b], got " + describe(p)};
    std::array<std::size_t, 2> q{};
    for (int k = 0; k < 2; ++k) {
      const Shape& shape = k == 0 ? c.a : c.b;
      const std::string index_at = pair_at + "[" + std::to_string(k) + "]";
      if (!p[k].is_number_unsigned())
        throw Failure{index_at, "expected a point's index (an integer >= 0), got " + describe(p[k])};
      q[k] = p[k].get<std::size_t>();
      if (q[k] >= shape.points.size())
        throw Failure{index_at, "index " + std::to_string(q[k]) + " names no point of " + (k == 0 ? "a" : "b") + " (" +
                                    std::to_string(shape.points.size()) +
                                    (shape.points.size() == 1 ? " point)" : " points)")};
    }
    w.pairs.push_back(q);
  }
  return w;
}

Case read_case(const json& j, bool with_format) {
  if (!j.is_object()) throw Failure{"", "expected a case object, got " + describe(j)};
  std::set<std::string> allowed = {"name", "dim", "a", "b", "note", "warm_start"};
  if (with_format) allowed.insert("format");
  check_keys(j, allowed, "");
  Case c;
  if (!j.contains("name") || !j["name"].is_string()) throw Failure{"name", "missing or not a string"};
  c.name = j["name"].get<std::string>();
  if (!j.contains("dim")) throw Failure{"dim", "missing"};
  if (!j["dim"].is_number_integer() || (j["dim"] != 2 && j["dim"] != 3))
    throw Failure{"dim", "expected 2 or 3, got " + describe(j["dim"])};
  c.dim = j["dim"].get<int>();
  for (const char* key : {"a", "b"})
    if (!j.contains(key)) throw Failure{key, "missing"};
  c.a = read_shape(j["a"], c.dim, "a");
  c.b = read_shape(j["b"], c.dim, "b");
  if (j.contains("note")) {
    if (!j["note"].is_string()) throw Failure{"note", "expected a string, got " + describe(j["note"])};
    c.note = j["note"].get<std::string>();
  }
  if (j.contains("warm_start")) c.warm_start = read_warm_start(j["warm_start"], c);
  return c;
}

std::string case_label(const json& j, std::size_t index) {
  std::string label = "case #" + std::to_string(index + 1);
  if (j.is_object() && j.contains("name") && j["name"].is_string())
    label = "case '" + j["name"].get<std::string>() + "' (#" + std::to_string(index + 1) + ")";
  return label;
}

std::string join(std::string_view a, const std::string& b) {
  if (b.empty()) return std::string(a);
  return std::string(a) + ": " + b;
}

}  // namespace

void Case::erase_point(bool of_a, std::size_t i) {
  auto& points = (of_a ? a : b).points;
  points.erase(points.begin() + static_cast<std::ptrdiff_t>(i));
  if (!warm_start) return;
  auto& pairs = warm_start->pairs;
  const int k = of_a ? 0 : 1;
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](const auto& p) { return p[k] == i; }), pairs.end());
  for (auto& p : pairs)
    if (p[k] > i) --p[k];
  if (!warm_start->direction && pairs.empty()) warm_start.reset();
}

bool Case::has_non_finite_coordinate() const {
  for (const Shape* s : {&a, &b})
    for (const auto& p : s->points)
      for (double x : p)
        if (!std::isfinite(x)) return true;
  return false;
}

std::optional<double> parse_coordinate_string(std::string_view s, std::string* why) {
  const auto fail = [&](std::string message) -> std::optional<double> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  const std::string text(s);
  if (text == "nan") return std::nan("");
  if (text == "inf" || text == "+inf") return HUGE_VAL;
  if (text == "-inf") return -HUGE_VAL;
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return fail("expected a number in the string, got \"" + text + "\"");
  // strtod reads C99 hex-floats and decimals, correctly rounded, in the "C" locale (gjkref never changes it).
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return fail("not a number: \"" + text + "\"");
  if (!std::isfinite(x)) {
    if (errno == ERANGE) return fail("out of the double range: \"" + text + "\"");
    return fail("write NaN and infinities as \"nan\", \"inf\" or \"-inf\", not \"" + text + "\"");
  }
  return x;  // underflow to a subnormal or to zero is the nearest double, and accepted
}

// The deepest nesting of arrays and objects in `text`, outside strings, stopping as soon as it exceeds `limit`.
int nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    else if (ch == '[' || ch == '{') deepest = std::max(deepest, ++depth);
    else if (ch == ']' || ch == '}') --depth;
    if (deepest > limit) break;
  }
  return deepest;
}

Parsed parse(std::string_view text, std::string_view source) {
  Parsed out;
  if (text.size() > kMaxDocumentBytes) {
    out.error = Error{std::string(source), "too large: " + std::to_string(text.size()) + " bytes (the reader takes at most " +
                                               std::to_string(kMaxDocumentBytes) + ")"};
    return out;
  }
  if (nesting_depth(text, kMaxNesting) > kMaxNesting) {
    out.error = Error{std::string(source), "nested more than " + std::to_string(kMaxNesting) +
                                               " levels deep (a gjkref-case/1 document needs 5)"};
    return out;
  }
  json doc;
  // Keys seen in each open object: a key given twice is refused (JSON parsers differ on which one they keep).
  std::vector<std::set<std::string>> keys;
  std::optional<std::string> duplicate;
  const json::parser_callback_t watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
        !duplicate)
      duplicate = parsed.get<std::string>();
    return true;
  };
  try {
    doc = json::parse(text.begin(), text.end(), watch);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers such as 1e999
    out.error = Error{std::string(source), std::string("not valid JSON: ") + e.what()};
    return out;
  }
  if (duplicate) {
    out.error = Error{std::string(source), "the key \"" + *duplicate + "\" appears twice in one object"};
    return out;
  }
  std::string where(source);
  try {
    if (!doc.is_object()) throw Failure{"", "expected a JSON object, got " + describe(doc)};
    if (!doc.contains("format")) throw Failure{"format", "missing (expected \"gjkref-case/1\")"};
    if (doc["format"] != std::string(kFormat)) throw Failure{"format", "expected \"gjkref-case/1\", got " + describe(doc["format"])};
    if (doc.contains("cases")) {
      check_keys(doc, {"format", "cases"}, "");
      const json& list = doc["cases"];
      if (!list.is_array()) throw Failure{"cases", "expected an array of cases, got " + describe(list)};
      // A collection without a case would evaluate to "0 disagreements": a silent pass on a file that checks nothing.
      if (list.empty()) throw Failure{"cases", "empty (a collection holds at least one case)"};
      for (std::size_t i = 0; i < list.size(); ++i) {
        try {
          out.cases.push_back(read_case(list[i], false));
        } catch (Failure& f) {
          throw Failure{join(case_label(list[i], i), f.where), f.what};
        }
      }
    } else {
      try {
        out.cases.push_back(read_case(doc, true));
      } catch (Failure& f) {
        throw Failure{join(case_label(doc, 0), f.where), f.what};
      }
    }
  } catch (const Failure& f) {
    out.cases.clear();
    out.error = Error{join(where, f.where), f.what};
  }
  return out;
}

Parsed read_file(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Parsed out;
    out.error = Error{path, "cannot open the file"};
    return out;
  }
  // At most one byte beyond the limit: a file that never ends (/dev/zero) or is larger than any case is refused by
  // its size, not read whole first.
  max_bytes = std::min(max_bytes, kMaxDocumentBytes);
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= max_bytes && in.read(buffer, sizeof buffer).gcount() > 0)
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    Parsed out;
    out.error = Error{path, "cannot read the file"};
    return out;
  }
  if (text.size() > max_bytes) {
    Parsed out;
    out.error =
        Error{path, "too large: more than " + std::to_string(max_bytes) + " bytes (the reader takes at most that)"};
    return out;
  }
  return parse(text, path);
}

std::string format_coordinate(double x) {
  if (std::isnan(x)) return "\"nan\"";
  if (std::isinf(x)) return x > 0 ? "\"inf\"" : "\"-inf\"";
  if (x == std::trunc(x) && std::fabs(x) < kLargestPlainInteger && !(x == 0 && std::signbit(x))) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", x);
    return buffer;
  }
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "\"%a\"", x);
  return buffer;
}

namespace {

void write_body(std::ostringstream& os, const Case& c, const std::string& indent) {
  os << indent << "\"name\": " << json(c.name).dump() << ", \"dim\": " << c.dim << ",\n";
  for (const auto& [key, shape] : {std::pair<const char*, const Shape*>{"a", &c.a}, {"b", &c.b}}) {
    os << indent << "\"" << key << "\": { \"points\": [";
    for (std::size_t i = 0; i < shape->points.size(); ++i) {
      os << (i ? ", " : "") << "[";
      for (int k = 0; k < c.dim; ++k) os << (k ? ", " : "") << format_coordinate(shape->points[i][k]);
      os << "]";
    }
    os << "] },\n";
  }
  if (c.warm_start && c.warm_start->direction) {
    os << indent << "\"warm_start\": { \"direction\": [";
    for (int k = 0; k < c.dim; ++k) os << (k ? ", " : "") << format_coordinate((*c.warm_start->direction)[k]);
    os << "] },\n";
  } else if (c.warm_start) {
    os << indent << "\"warm_start\": { \"pairs\": [";
    for (std::size_t i = 0; i < c.warm_start->pairs.size(); ++i)
      os << (i ? ", " : "") << "[" << c.warm_start->pairs[i][0] << ", " << c.warm_start->pairs[i][1] << "]";
    os << "] },\n";
  }
  os << indent << "\"note\": " << json(c.note).dump();
}

}  // namespace

std::string write(const Case& c) {
  std::ostringstream os;
  os << "{ \"format\": \"" << kFormat << "\",\n";
  write_body(os, c, "  ");
  os << " }\n";
  return os.str();
}

std::string write_collection(const std::vector<Case>& cases) {
  std::ostringstream os;
  os << "{ \"format\": \"" << kFormat << "\",\n  \"cases\": [";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    os << (i ? ",\n    {\n" : "\n    {\n");
    write_body(os, cases[i], "      ");
    os << " }";
  }
  os << "\n  ] }\n";
  return os.str();
}

}  // namespace gjkref::casefile
