// gjkref check (docs/comparing.md): implementations against the exact oracle on the property suite's families.
//
// The campaign is split into items (family, dimension, index), dealt to `jobs` shards (shard_positions): forked
// processes with their own implementation workers. A shard appends one JSON line per item to shard-K.jsonl as soon as
// the item is done, so a campaign killed at any point keeps everything it judged, and a rerun with the same arguments
// skips the items already in the logs. Once every item is judged, the counterexamples are chosen from the logs (the
// first of each kind in the campaign's order), shrunk and saved in `jobs` processes (save_counterexamples); the reports
// are then built from the logs and the saved files.
#include "check.hpp"
#include "source_id.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "generators.hpp"
#include "render.hpp"
#include "gjkref/casefile.hpp"
#include "gjkref/judge.hpp"
#include "gjkref/oracle.hpp"
#include "fault.hpp"
#include "selection.hpp"
#include "text.hpp"

namespace gjkref::cli {
namespace {

namespace fs = std::filesystem;
using casefile::Case;
using nlohmann::json;

// ---- families ------------------------------------------------------------------------------------------------------

struct Family {
  const char* name;
  rc::Gen<Case> (*generator)(int dim);
  const char* description;  // one line, for gjkref list
};

// The property suite's generators (proptests/generators.hpp, docs/properties.md).
const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"random", proptests::random_polytopes, "clouds of 1 to 64 lattice points"},
      {"touching", proptests::exactly_touching, "exactly touching pairs: B is A reflected through a boundary point"},
      {"on-feature", proptests::origin_on_feature, "the origin exactly on a vertex, an edge or a face of A-B"},
      {"lower-dimensional", proptests::lower_dimensional, "flat, collinear and single-point sets, duplicates"},
      {"near-touching", proptests::near_touching, "touching pairs moved apart or together by 2^-k, k <= 60"},
      {"needles", proptests::needles, "needle and sliver differences: a segment with points 2^-k off it, and a jittered copy"},
      {"scales", proptests::scales, "needles, plates, huge and tiny scales (2^+-100), large translations"},
      {"deep-overlap", proptests::deep_overlap, "clouds of 4 to 24 points overlapping by a good part of their size"},
      {"shallow-overlap", proptests::shallow_overlap, "touching pairs pushed together by 2^-k along the contact normal"},
      {"resting-contact", proptests::resting_contact, "boxes exactly face on face, edge on face, edge on edge, corner"},
      {"tied-facets", proptests::tied_facets, "congruent cubes offset along an axis or a diagonal: tied optimal facets"},
      {"thin-boxes", proptests::thin_boxes, "boxes 2^-k thick (aspect to 1e-6) overlapping across the thin axis"},
      {"posed-boxes", proptests::posed_boxes, "stacked boxes with corners computed from a pose, as an engine does"},
      {"depth-scales", proptests::depth_scales, "deep overlaps and tied cubes scaled by 2^+-40, moved by 1e6, 1e9, or stretched by 2^500, 2^-500, 2^-560 per axis"},
      {"warm-start", proptests::warm_started,
       "pairs of five families, warm-started from the previous pose's answer (B moved back by 2^-k)"},
  };
  return all;
}

struct Item {
  std::string family;
  int dim = 3;
  int index = 0;
  std::string key() const { return family + "/" + std::to_string(dim) + "/" + std::to_string(index); }
};

// The campaign's items in its order: index, then family, then dimension.
std::vector<Item> items_of(const CheckOptions& o) {
  std::vector<Item> items;
  for (int index = 0; index < o.cases; ++index)
    for (const std::string& f : o.families)
      for (int d : o.dims) items.push_back({f, d, index});
  return items;
}

// RapidCheck's size for item `index`: the point counts grow with it (up to 64 points a shape at 100; the coordinates are
// drawn uniformly at every size, docs/properties.md), so the campaign cycles through every size, as a property run does.
constexpr int kLargestSize = 100;

// The case of an item: a pure function of the seed and the item, so that a resumed campaign and a replay agree.
Case generate(std::uint64_t seed, const Item& item, int family_number) {
  const rc::Random random(rc::Random::Key{seed, static_cast<std::uint64_t>(family_number),
                                          static_cast<std::uint64_t>(item.dim), static_cast<std::uint64_t>(item.index)});
  const auto& family = families()[family_number];
  return family.generator(item.dim)(random, item.index % (kLargestSize + 1)).value();
}

// SIGINT or SIGTERM received (0: none). The parent forwards it to its shards as SIGTERM; a shard stops before its
// next item (a process saving counterexamples, before its next shrinking step), its workers with it; the parent then
// writes the report of what finished, marked partial.
volatile std::sig_atomic_t g_stop_signal = 0;

// ---- counterexamples -----------------------------------------------------------------------------------------------

// Counterexamples shrunk and saved per implementation, finding, family and dimension: the first of each kind in the
// campaign's order (index, then family, then dimension), chosen once the cases are judged, so that what is saved does
// not depend on the number of jobs or slices (save_counterexamples); the rest are counted only.
constexpr int kSavedCounterexamplesPerKind = 3;
// The most queries one shrink may make (each query also runs the oracle), and the most time it may take: a hang
// costs the query time limit per attempt, so hangs are saved unshrunk.
constexpr int kShrinkQueries = 400;
constexpr double kShrinkSeconds = 30;

// Does `c` still show `finding` on `implementation`? The oracle's own failure on `c` (a std::logic_error from it or
// from the judge's depth oracle: a failed certificate, two methods disagreeing) is a bug in gjkref, not an answer:
// it propagates, and shrink() keeps the case.
// An implementation's own std::logic_error on a candidate (only the in-process reference modes throw: a plugin runs
// in a worker, whose failures are statuses) is a bug in gjkref too, reported and saved the same way, under its own
// name rather than the oracle's.
bool still_fails(const Case& c, impl::Implementation& implementation, impl::Finding finding) {
  if (c.has_empty_shape()) return false;
  const oracle::Answer truth = oracle::fast_oracle(c);
  impl::Result r;
  try {
    injected_fault("run:" + implementation.info().name);
    r = implementation.run(c);
  } catch (const std::logic_error& e) {
    throw std::logic_error(implementation.info().name + " (not the oracle) threw: " + e.what());
  }
  return impl::judge(truth, r, implementation.info(), c).finding == finding;
}

// A case made while shrinking on which the oracle failed, and what it said.
struct ShrinkOracleFailure {
  Case c;
  std::string what;
};

// Candidates for a simpler coordinate than x, simplest first: 0, a small integer, x with fewer significant bits.
std::vector<double> simpler_values(double x) {
  std::vector<double> out = {0.0};
  if (std::fabs(x) < 1e15) out.push_back(std::round(x));
  int e = 0;
  const double m = std::frexp(x, &e);
  for (int bits : {1, 2, 4, 8, 16, 24, 32}) out.push_back(std::ldexp(std::round(std::ldexp(m, bits)), e - bits));
  out.erase(std::remove_if(out.begin(), out.end(), [x](double y) { return y == x || !std::isfinite(y); }), out.end());
  return out;
}

// Drops points and simplifies coordinates while the finding persists (a greedy, bounded search). When the oracle
// fails on a candidate, the search stops there: the candidate goes to `oracle_failure` and the case shrunk so far is
// returned.
Case shrink(Case c, impl::Implementation& implementation, impl::Finding finding,
            std::optional<ShrinkOracleFailure>& oracle_failure) {
  if (finding == impl::Finding::Hung) return c;
  int queries = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto budget_left = [&] {
    return queries < kShrinkQueries && g_stop_signal == 0 && !oracle_failure &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < kShrinkSeconds;
  };
  const auto try_case = [&](const Case& candidate) {
    ++queries;
    try {
      return still_fails(candidate, implementation, finding);
    } catch (const std::logic_error& e) {
      oracle_failure = ShrinkOracleFailure{candidate, e.what()};
      return false;
    }
  };
  const auto drop_points = [&] {
    for (bool progress = true; progress && budget_left();) {
      progress = false;
      for (auto* shape : {&c.a, &c.b})
        for (std::size_t i = 0; i < shape->points.size() && shape->points.size() > 1 && budget_left();) {
          Case candidate = c;
          candidate.erase_point(shape == &c.a, i);  // and the warm start's pairs with it
          if (try_case(candidate)) {
            c = std::move(candidate);
            progress = true;
          } else {
            ++i;
          }
        }
    }
  };
  drop_points();
  for (auto* shape : {&c.a, &c.b})
    for (std::size_t i = 0; i < shape->points.size(); ++i)
      for (int k = 0; k < c.dim && budget_left(); ++k)
        for (double y : simpler_values(shape->points[i][k])) {
          if (!budget_left()) break;
          Case candidate = c;
          (shape == &c.a ? candidate.a : candidate.b).points[i][k] = y;
          if (try_case(candidate)) {
            c = std::move(candidate);
            break;
          }
        }
  // Simpler coordinates often make points coincide: each is dropped when the failure stays without it (a failure that
  // needs the repeated point keeps it, as libraries do fail on repeats: cases/peers/).
  drop_points();
  return c;
}

// A file that cannot be written whole throws (gjkref then names it and exits 3): it is never renamed into place cut
// short, where a resumed campaign would take a truncated counterexample for a saved one.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".partial";
  {
    std::ofstream f(temporary, std::ios::binary);
    f << text;
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + temporary.string() + " (a full disk, or a file size limit)");
  }
  fs::rename(temporary, path);
}

// The same for a report written as a stream, checked once it is complete.
void check_written(std::ofstream& f, const fs::path& path) {
  f.flush();
  if (!f) throw std::runtime_error("cannot write " + path.string() + " (a full disk, or a file size limit)");
}

// ---- the campaign's identity ---------------------------------------------------------------------------------------

// What a directory's campaign is (campaign.json): a rerun with another identity is refused, one with the same resumes.
// It names the code too: gjkref's source identity (cli/source_id.cmake: the cases are generated, answered by the
// reference and judged by that code, and a counterexample is generated again when it is saved) and each
// implementation's version as it reports it (a plugin's own claim), so that one campaign's cases are never answered or
// judged by two codes. A slice (--shard K/N) also records which slice and the cases per family and dimension, which
// `gjkref merge` needs to rebuild the campaign; without them the identity is a whole campaign's, the one a merge writes.
json identity_of(const CheckOptions& o, std::uint64_t seed, const std::vector<std::string>& implementations,
                 const json& versions) {
  json identity = {{"format", "gjkref-check/1"},
                   {"seed", seed},
                   {"families", o.families},
                   {"dims", o.dims},
                   {"implementations", implementations},
                   {"source", source_id()},
                   {"versions", versions}};
  if (o.slice) {
    identity["slice"] = {{"index", o.slice->first}, {"count", o.slice->second}};
    identity["cases"] = o.cases;
  }
  return identity;
}

// The fields in which two campaign identities differ, in words ("seed, source"), for a refusal's message.
std::string differing_fields(const json& a, const json& b) {
  std::string fields;
  std::set<std::string> keys;
  if (a.is_object())
    for (const auto& [k, v] : a.items()) keys.insert(k);
  if (b.is_object())
    for (const auto& [k, v] : b.items()) keys.insert(k);
  for (const std::string& k : keys) {
    const bool in_a = a.is_object() && a.contains(k), in_b = b.is_object() && b.contains(k);
    if (in_a && in_b && a[k] == b[k]) continue;
    fields += (fields.empty() ? "" : ", ") + k + (in_a && in_b ? "" : in_a ? " (only in the first)" : " (only in the second)");
  }
  return fields.empty() ? "none" : fields;
}

// ---- the log's rows --------------------------------------------------------------------------------------------------

// A judged answer within its contract that saved no counterexample (nearly all of them) is logged compactly: an array
// of its fields in this order, null where a field is absent (trailing ones left out). An answer that was not judged
// (refused, or outside the contract's range) is [status, "not-judged"], with the implementation's detail third when it
// refused and said why. Every other answer — outside the contract, or a
// miss that saved a counterexample — keeps the full object with its names (docs/comparing.md, "Output").
constexpr const char* kNotJudged = "not-judged";
constexpr std::array<const char*, 15> kCompactRowFields = {
    "status",       "finding",         "within_contract", "seconds",        "scale",
    "separated",    "reported_distance", "reported_depth", "true_depth",     "distance_error",
    "witness_error", "depth_error",    "normal_error",    "contact_error",  "detail"};

json compact_row(const json& row) {
  json compact = json::array();
  for (const char* name : kCompactRowFields) compact.push_back(row.contains(name) ? row[name] : json());
  while (!compact.empty() && compact.back().is_null()) compact.erase(compact.size() - 1);
  return compact;
}

// A logged row as an object, whichever way it was logged.
json full_row(const json& logged) {
  if (!logged.is_array()) return logged;
  if (logged.size() >= 2 && logged[1] == kNotJudged) {
    json row = {{"status", logged[0]}, {"judged", false}};
    if (logged.size() == 3) row["detail"] = logged[2];
    return row;
  }
  json row = json::object();
  for (std::size_t i = 0; i < logged.size() && i < kCompactRowFields.size(); ++i)
    if (!logged[i].is_null()) row[kCompactRowFields[i]] = logged[i];
  return row;
}

// ---- reading the logs ----------------------------------------------------------------------------------------------
//
// A campaign resumes from its logs and its reports are built from them, so each line is checked before it is
// trusted: a line that is not one gjkref check writes (edited by hand, or of another version), or that holds an item
// outside this campaign (another --cases, family or dimension, or another slice), makes the run stop with a clear
// error (exit status 2), naming the file and the line, before anything is run or written. Skipping such a line would
// count or redo cases silently. Only the last line of a log may be cut (a kill in the middle of writing it): without
// its newline it is dropped, and its case redone.

// The value of enum E (its values 0 to `last`) whose to_string is `name`, if any.
template <class E>
std::optional<E> named(const std::string& name, E last) {
  for (int k = 0; k <= static_cast<int>(last); ++k)
    if (name == to_string(static_cast<E>(k))) return static_cast<E>(k);
  return std::nullopt;
}

std::optional<impl::Finding> finding_named(const std::string& name) { return named(name, impl::Finding::WrongClass); }

// What is wrong with a row's status and finding (names gjkref writes), or "".
std::string why_not_names(const json& status, const json& finding) {
  if (!named(status.get<std::string>(), impl::Status::Unsupported))
    return "a row whose status '" + status.get<std::string>() + "' is none gjkref writes";
  if (finding != kNotJudged && !finding_named(finding.get<std::string>()))
    return "a row whose finding '" + finding.get<std::string>() + "' is none gjkref writes";
  return "";
}

// What is wrong with a logged row (an implementation's answer; compact_row, full_row), or "" when nothing is.
std::string why_not_a_row(const json& row) {
  const auto number_or_null = [](const json& x) { return x.is_null() || x.is_number(); };
  if (row.is_array()) {
    if (row.size() < 2 || !row[0].is_string() || !row[1].is_string())
      return "a compact row that does not begin with a status and a finding";
    if (const std::string why = why_not_names(row[0], row[1]); !why.empty()) return why;
    if (row[1] == kNotJudged)
      return row.size() == 2 || (row.size() == 3 && row[2].is_string()) ? ""
                                                                          : "a not-judged row with more than a detail";
    if (row.size() < 3 || !row[2].is_boolean()) return "a compact row without within_contract (its third field)";
    if (row.size() > kCompactRowFields.size()) return "a compact row with more fields than kCompactRowFields";
    for (std::size_t i = 3; i < row.size(); ++i) {
      const std::string field = kCompactRowFields[i];
      if (field == "detail") {
        if (!(row[i].is_null() || row[i].is_string())) return "a compact row whose detail is not a string";
        continue;
      }
      const bool separated = field == "separated";
      if (separated ? !(row[i].is_null() || row[i].is_boolean()) : !number_or_null(row[i]))
        return "a compact row whose " + field + " is not a " + (separated ? "boolean" : "number");
    }
    return "";
  }
  if (!row.is_object()) return "a row that is neither an array nor an object";
  if (!row.contains("status") || !row["status"].is_string() || !row.contains("finding") ||
      !row["finding"].is_string() || !row.contains("within_contract") || !row["within_contract"].is_boolean())
    return "a row without status, finding or within_contract";
  if (const std::string why = why_not_names(row["status"], row["finding"]); !why.empty()) return why;
  for (const char* name : kCompactRowFields) {
    if (!row.contains(name) || std::string(name) == "status" || std::string(name) == "finding" ||
        std::string(name) == "within_contract" || std::string(name) == "detail")
      continue;
    const bool separated = std::string(name) == "separated";
    if (separated ? !row[name].is_boolean() : !number_or_null(row[name]))
      return std::string("a row whose ") + name + " is not a " + (separated ? "boolean" : "number");
  }
  if (row.contains("detail") && !row["detail"].is_string()) return "a row whose detail is not a string";
  return "";
}

// What is wrong with a log line of a campaign whose items are `keys` and whose implementations are `names`, or "".
std::string why_not_a_log_line(const json& j, const std::set<std::string>& keys, const std::set<std::string>& names) {
  if (!j.is_object()) return "not a JSON object";
  if (!j.contains("key") || !j["key"].is_string() || !j.contains("family") || !j["family"].is_string() ||
      !j.contains("dim") || !j["dim"].is_number_integer() || !j.contains("index") || !j["index"].is_number_integer() ||
      !j.contains("kind") || !j["kind"].is_string())
    return "no key, family, dim, index or kind";
  const std::string key = j["key"].get<std::string>();
  if (key != Item{j["family"].get<std::string>(), j["dim"].get<int>(), j["index"].get<int>()}.key())
    return "its key " + key + " is not its family, dim and index";
  if (!keys.count(key))
    return "item " + key + " is not in this campaign (its families, dimensions and --cases, or this slice's share)";
  if (j.contains("oracle_failure")) return j["oracle_failure"].is_string() ? "" : "an oracle_failure that is not text";
  if (j.contains("oracle_timeout")) {
    const json& t = j["oracle_timeout"];
    return t.is_object() && t.contains("method") && t["method"].is_string() && t.contains("limit_seconds") &&
                   t["limit_seconds"].is_number()
               ? ""
               : "an oracle_timeout without its method and limit_seconds";
  }
  if (!j.contains("oracle") || !j["oracle"].is_string() || !j.contains("distance") ||
      !(j["distance"].is_null() || j["distance"].is_number()))
    return "no oracle verdict or distance";
  if (!named(j["oracle"].get<std::string>(), oracle::Verdict::InvalidInput))
    return "its oracle verdict '" + j["oracle"].get<std::string>() + "' is none gjkref writes";
  if (!j.contains("results") || !j["results"].is_object()) return "no results";
  for (const auto& [name, row] : j["results"].items()) {
    if (!names.count(name)) return "a result of '" + name + "', which is not one of this campaign's implementations";
    if (const std::string why = why_not_a_row(row); !why.empty()) return "the result of '" + name + "' is " + why;
  }
  return "";
}

// The logged lines of a directory, by key, each checked; or, at the first line that is not this campaign's, `error`:
// "FILE:LINE: what is wrong".
struct CampaignLogs {
  std::map<std::string, json> lines;
  std::string error;
};

CampaignLogs read_logs(const fs::path& dir, const std::set<std::string>& keys, const std::vector<std::string>& order) {
  CampaignLogs logs;
  const std::set<std::string> names(order.begin(), order.end());
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream f(file, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(f), {}};
    std::size_t from = 0;
    for (int number = 1; from < text.size(); ++number) {
      const std::size_t end = text.find('\n', from);
      if (end == std::string::npos) break;  // the last line, cut by a kill: its case is redone
      const json j = json::parse(text.substr(from, end - from), nullptr, false);
      from = end + 1;
      if (const std::string why = why_not_a_log_line(j, keys, names); !why.empty()) {
        logs.error = file.string() + ":" + std::to_string(number) + ": " + why;
        logs.lines.clear();
        return logs;
      }
      logs.lines[j["key"].get<std::string>()] = j;
    }
  }
  return logs;
}

// The keys of `items` at `positions`.
std::set<std::string> keys_at(const std::vector<Item>& items, const std::vector<std::size_t>& positions) {
  std::set<std::string> keys;
  for (const std::size_t k : positions) keys.insert(items[k].key());
  return keys;
}

// ---- counterexamples to save -----------------------------------------------------------------------------------

// Is a judged row one whose case is a counterexample? Every answer outside the contract, and every intersecting pair
// called separated (a miss, even where a floating implementation's contract allows it).
bool to_be_saved(const json& row) {
  if (!row.is_object() || !row.contains("within_contract")) return false;
  const std::string finding = row["finding"].get<std::string>();
  return !row["within_contract"].get<bool>() ||
         finding == impl::to_string(impl::Finding::SeparatedWhileTouching) ||
         finding == impl::to_string(impl::Finding::SeparatedWhileOverlapping);
}

// counterexamples/IMPLEMENTATION/FINDING/FAMILY-Dd-INDEX.json, relative to the campaign's directory.
fs::path counterexample_path(const std::string& implementation, const std::string& finding, const Item& item) {
  return fs::path("counterexamples") / implementation / finding /
         (item.family + "-" + std::to_string(item.dim) + "d-" + std::to_string(item.index) + ".json");
}

// The item a counterexample file is of (FAMILY-Dd-INDEX.json), or nullopt for another file.
std::optional<Item> item_of_counterexample(const fs::path& file) {
  if (file.extension() != ".json") return std::nullopt;
  const std::string stem = file.stem().string();
  const auto last = stem.rfind('-');
  if (last == std::string::npos || last == 0) return std::nullopt;
  const auto before = stem.rfind('-', last - 1);
  if (before == std::string::npos) return std::nullopt;
  const std::string dim = stem.substr(before + 1, last - before - 1), index = stem.substr(last + 1);
  if ((dim != "2d" && dim != "3d") || index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  int number = 0;  // an index beyond int's range is no item of a campaign (std::stoi threw, and stopped every report)
  const auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), number);
  if (error != std::errc() || end != index.data() + index.size()) return std::nullopt;
  return Item{stem.substr(0, before), dim[0] - '0', number};
}

// One answer whose case is to be shrunk and saved.
struct Candidate {
  Item item;
  std::string implementation, finding, detail, oracle;  // oracle: its verdict on the case as generated
};

// The counterexamples to save: of each kind (implementation, finding, family, dimension), the first
// kSavedCounterexamplesPerKind in the campaign's order among the logged answers, read from every log in `dir`. A slice
// chooses among its own cases; since each of a whole campaign's first of a kind is among its slice's first,
// `gjkref merge` keeps the first of the union (prune_counterexamples) and saves what one run saves.
std::vector<Candidate> counterexamples_to_save(const fs::path& dir) {
  std::map<std::string, std::vector<std::pair<std::tuple<int, std::string, int>, Candidate>>> by_kind;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream f(entry.path());
    for (std::string text; std::getline(f, text);) {
      const json j = json::parse(text, nullptr, false);
      if (!j.is_object() || !j.contains("results")) continue;
      const Item item{j["family"].get<std::string>(), j["dim"].get<int>(), j["index"].get<int>()};
      for (const auto& [name, row] : j["results"].items()) {
        if (!to_be_saved(row)) continue;
        Candidate c{item, name, row["finding"].get<std::string>(),
                    row.contains("detail") ? row["detail"].get<std::string>() : "", j["oracle"].get<std::string>()};
        const std::string kind = name + "/" + c.finding + "/" + item.family + "/" + std::to_string(item.dim);
        by_kind[kind].push_back({{item.index, item.family, item.dim}, std::move(c)});
      }
    }
  }
  std::vector<Candidate> chosen;
  for (auto& [kind, candidates] : by_kind) {
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < candidates.size() && k < kSavedCounterexamplesPerKind; ++k)
      chosen.push_back(std::move(candidates[k].second));
  }
  return chosen;
}

// After merging slices: of each kind, the first kSavedCounterexamplesPerKind files by case index (the campaign's order
// within one family and dimension) stay, with their pictures; the others go.
void prune_counterexamples(const fs::path& dir) {
  const fs::path root = dir / "counterexamples";
  if (std::error_code ec; !fs::is_directory(root, ec)) return;
  std::map<std::string, std::vector<std::pair<int, fs::path>>> by_kind;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto item = item_of_counterexample(entry.path());
    if (!item) continue;
    by_kind[entry.path().parent_path().string() + "/" + item->family + "/" + std::to_string(item->dim)].push_back(
        {item->index, entry.path()});
  }
  for (auto& [kind, files] : by_kind) {
    std::sort(files.begin(), files.end());
    for (std::size_t k = kSavedCounterexamplesPerKind; k < files.size(); ++k) {
      fs::path picture = files[k].second;
      picture.replace_extension(".svg");
      fs::remove(files[k].second);
      fs::remove(picture);
    }
  }
}

std::string safe_name(std::string s);

// An oracle call that passes its time limit while a counterexample is shrunk (or its note and picture are made)
// cannot be stopped either: the saving process ends (oracle::on_time_limit), and save_counterexamples starts the
// saving again, which goes on with the counterexamples not yet saved. Before it ends, this action saves the one being
// shrunk as generated, unshrunk, with a note that says why, so that nothing found is lost and the next round does
// not shrink it again. It runs on the oracle's watchdog thread while the saving thread is inside the call, so what it
// reads (set by save_counterexample before it shrinks) does not change under it.
struct ShrinkRecord {
  fs::path file;     // the counterexample's path
  std::string text;  // the case file to write there: the case as generated, with its note
  std::string key;
};
ShrinkRecord g_shrinking;

void save_unshrunk_on_oracle_timeout(const Case&, const char* method, double limit_seconds) {
  if (g_shrinking.file.empty()) return;
  try {
    fs::create_directories(g_shrinking.file.parent_path());
    write_atomically(g_shrinking.file, g_shrinking.text);
    std::fprintf(stderr,
                 "gjkref check: the oracle's %s method passed its time limit of %g s on a case made while shrinking "
                 "the counterexample %s; saved unshrunk as %s\n",
                 method, limit_seconds, g_shrinking.key.c_str(), g_shrinking.file.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gjkref check: the counterexample %s could not be saved: %s\n", g_shrinking.key.c_str(),
                 e.what());
  }
}

// Shrinks one candidate's case and saves it, with its picture, as counterexample_path(...) in `dir`. false when the
// oracle failed on a case made while shrinking: that case is saved in oracle-failures/ (KEY-shrinking-IMPL.json) and
// named on stderr, and the counterexample is saved as shrunk until then.
bool save_counterexample(const fs::path& dir, const Candidate& cand, const Case& c, const CheckOptions& o,
                         std::uint64_t seed, impl::Implementation& implementation,
                         impl::Implementation& exact_reference) {
  const impl::Info& info = implementation.info();
  const std::optional<impl::Finding> finding = finding_named(cand.finding);
  if (!finding) return true;
  const bool plugged = std::find(o.plugins.begin(), o.plugins.end(), info.source) != o.plugins.end();
  const std::string found = "Found by gjkref check --seed " + std::to_string(seed) + ", family " + cand.item.family +
                            ", " + std::to_string(cand.item.dim) + "D, case " + std::to_string(cand.item.index) + " (" +
                            c.name + ")";
  const std::string replay = "Replay: gjkref eval --impl " + info.name +
                             (plugged ? " --plugin " + info.source : std::string()) + " FILE";
  const fs::path file = dir / counterexample_path(info.name, cand.finding, cand.item);
  {
    Case unshrunk = c;
    unshrunk.name = info.name + "/" + cand.finding + "/" + cand.item.key();
    unshrunk.note = info.name + " (" + info.version + "): " + cand.finding +
                    (cand.detail.empty() ? "" : " (" + cand.detail + ")") + "; the oracle says " + cand.oracle +
                    ". Not shrunk: the oracle passed its time limit (--oracle-time-limit) on a case made while "
                    "shrinking it. " + found + ". " + replay;
    g_shrinking = {file, casefile::write_collection({unshrunk}), cand.item.key()};
  }
  std::optional<ShrinkOracleFailure> oracle_failure;
  Case small = shrink(c, implementation, *finding, oracle_failure);
  if (oracle_failure) {
    const fs::path file = dir / "oracle-failures" /
                          (safe_name(cand.item.key()) + "-shrinking-" + safe_name(info.name) + ".json");
    fs::create_directories(file.parent_path());
    Case saved = oracle_failure->c;
    saved.name = info.name + "/" + cand.finding + "/" + cand.item.key() + "/shrinking";
    saved.note = "THE ORACLE FAILED on this case, made while shrinking a counterexample of " + info.name + " (" +
                 cand.finding + "): " + oracle_failure->what;
    write_atomically(file, casefile::write(saved));
    std::fprintf(stderr,
                 "gjkref check: THE ORACLE FAILED on a case made while shrinking the counterexample %s/%s/%s (saved "
                 "as %s): a bug in gjkref; please report it\n",
                 info.name.c_str(), cand.finding.c_str(), cand.item.key().c_str(), file.string().c_str());
  }
  if (g_stop_signal != 0) {  // cut short: saved by the campaign's resumption
    g_shrinking = {};
    return !oracle_failure;
  }
  small.name = info.name + "/" + cand.finding + "/" + cand.item.key();
  // The note describes the shrunk case (the oracle's verdict on it), and the replay names the plugin library when the
  // implementation came from --plugin.
  std::optional<oracle::Answer> small_truth;
  try {
    small_truth = oracle::fast_oracle(small);
  } catch (const std::logic_error&) {
    // No verdict (and no picture) when the oracle fails on the shrunk case; that failure is reported apart.
  }
  std::ostringstream note;
  note << info.name << " (" << info.version << "): " << cand.finding
       << (cand.detail.empty() ? "" : " (" + cand.detail + ")") << "; on this case the oracle says "
       << (small_truth ? oracle::to_string(small_truth->verdict) : "nothing (it failed)")
       << " (on the case as generated: " << cand.oracle << "). " << found << ", shrunk from " << c.a.points.size()
       << "+" << c.b.points.size() << " to " << small.a.points.size() << "+" << small.b.points.size() << " points. "
       << replay;
  small.note = note.str();
  Case original = c;
  original.name = small.name + "/unshrunk";
  original.note = "The case as generated, before shrinking.";
  fs::create_directories(file.parent_path());
  // The picture first: the case file is what marks a counterexample as saved.
  if (small_truth) {
    try {
      std::vector<Drawn> drawn;
      for (impl::Implementation* shown : {&implementation, &exact_reference}) {
        const impl::Result shown_result = shown->run(small);
        drawn.push_back({shown->info().name, shown_result,
                         impl::summary(impl::judge(*small_truth, shown_result, shown->info(), small))});
      }
      fs::path picture = file;
      picture.replace_extension(".svg");
      write_atomically(picture, render_svg(small, *small_truth, drawn));
    } catch (const std::logic_error&) {
      // No picture when the oracle fails on the shrunk case (its depth); the failure shows in its report.
    }
  }
  write_atomically(file, casefile::write_collection({small, original}));
  g_shrinking = {};
  return !oracle_failure;
}

// ---- one shard -----------------------------------------------------------------------------------------------------

std::set<std::string> done_items(const fs::path& dir) {
  std::set<std::string> done;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream f(entry.path());
    for (std::string line; std::getline(f, line);) {
      const json j = json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("key")) done.insert(j["key"].get<std::string>());
    }
  }
  return done;
}

// A log cut by a kill ends in a partial line: cut it off before appending.
void drop_partial_line(const fs::path& log) {
  if (!fs::exists(log)) return;
  std::string text;
  {
    std::ifstream f(log, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(f), {});
  }
  if (text.empty() || text.back() == '\n') return;
  const auto cut = text.rfind('\n');
  fs::resize_file(log, cut == std::string::npos ? 0 : cut + 1);
}

std::string safe_name(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') ch = '_';
  return s;
}

// An oracle failed its own certificate (a bug in gjkref or CGAL): the case is kept in oracle-failures/ and the item
// logged as an oracle failure, with no results.
void save_oracle_failure(const fs::path& dir, const Item& item, const Case& c, const char* what,
                         const std::logic_error& e, json& line) {
  const fs::path file = dir / "oracle-failures" / (safe_name(item.key()) + ".json");
  fs::create_directories(file.parent_path());
  Case saved = c;
  saved.note = what + std::string(e.what());
  write_atomically(file, casefile::write(saved));
  line["oracle_failure"] = e.what();
}

// An oracle call that passes its time limit cannot be stopped; the shard process ends instead
// (oracle::on_time_limit), and the parent starts it again, which resumes after the item. Before it ends, this action
// logs the item as an oracle timeout (with no results: its answers are judged nowhere) and keeps the case that took
// too long in oracle-failures/KEY-timeout.json. It runs on the oracle's watchdog thread while the shard's own thread is
// inside the call, so what it reads (set by run_shard before each item) does not change under it.
struct TimeoutRecord {
  fs::path dir;
  int log = -1, progress = -1;
  json item;  // the item's key, family, dimension, index and kind
};
TimeoutRecord g_timeout;

void log_oracle_timeout(const Case& c, const char* method, double limit_seconds) {
  json line = g_timeout.item;
  const std::string key = line["key"].get<std::string>();
  std::ostringstream note;
  note << "The oracle's " << method << " method passed its time limit of " << limit_seconds
       << " s of CPU time on this case (gjkref check, item " << key << "; --oracle-time-limit sets the limit).";
  line["oracle_timeout"] = {{"method", method}, {"limit_seconds", limit_seconds}};
  try {
    const fs::path file = g_timeout.dir / "oracle-failures" / (safe_name(key) + "-timeout.json");
    fs::create_directories(file.parent_path());
    Case saved = c;
    saved.note = note.str();
    write_atomically(file, casefile::write(saved));
    line["oracle_timeout"]["case"] = fs::relative(file, g_timeout.dir).string();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gjkref check: the case of %s, which passed the oracle's time limit, could not be saved: %s\n",
                 key.c_str(), e.what());
  }
  const std::string text = json_text(line) + "\n";
  if (::write(g_timeout.log, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    std::fprintf(stderr, "gjkref check: could not log the oracle timeout of %s\n", key.c_str());
  const char tick = 1;
  if (::write(g_timeout.progress, &tick, 1) != 1) {
    // The parent is gone; the log is what matters.
  }
}

// The items of shard `shard` of `jobs`, as positions in `items`: a deal of a fixed shuffle of all positions, so that
// every shard gets the same mix of families and dimensions (dealing the campaign's order in turn would give one shard
// every 2D case and another every 3D case, since the order cycles through the dimensions innermost). The shuffle
// depends on nothing but the count, so a resumed campaign deals the same hands. Fisher–Yates on SplitMix64: the same
// on every standard library, unlike std::shuffle.
std::vector<std::size_t> shard_positions(std::size_t count, int shard, int jobs) {
  std::vector<std::size_t> order(count);
  for (std::size_t k = 0; k < count; ++k) order[k] = k;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (std::size_t k = count; k > 1; --k) std::swap(order[k - 1], order[next() % k]);
  std::vector<std::size_t> mine;
  for (std::size_t k = static_cast<std::size_t>(shard); k < count; k += static_cast<std::size_t>(jobs))
    mine.push_back(order[k]);
  std::sort(mine.begin(), mine.end());  // in the campaign's order: early cases first, as before
  return mine;
}

// Why `dir` cannot hold a campaign's output (created if missing, and written to as a probe), or "" when it can.
std::string why_not_an_output_directory(const fs::path& dir) {
  if (dir.empty()) return "no directory named";
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) return "exists and is not a directory";
  fs::create_directories(dir, ec);
  if (ec) return "cannot be created: " + ec.message();
  const fs::path probe = dir / ".gjkref-write-probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return std::string("cannot be written to: ") + std::strerror(errno);
  ::close(fd);
  fs::remove(probe, ec);
  return "";
}

// The lock a campaign holds on its directory while it runs: two runs writing one --out logged every case twice, and the
// second run's counterexamples and reports overwrote the first's. flock's lock belongs to the open file, which the
// forked shards share, and ends when the last process holding it does; the file itself stays, empty.
constexpr const char* kLockFile = ".gjkref-lock";

// Takes the lock on `dir` for the rest of this process, or says why not.
std::string lock_the_directory(const fs::path& dir) {
  const fs::path file = dir / kLockFile;
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) return std::string("cannot create ") + file.string() + ": " + std::strerror(errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    return error == EWOULDBLOCK ? "another gjkref check is running in it; wait for that one to end, or use another --out"
                                : std::string("cannot lock ") + file.string() + ": " + std::strerror(error);
  }
  return "";  // fd stays open: the lock lasts until the process ends
}

void note_stop_signal(int signal) { g_stop_signal = signal; }

void on_stop_signals(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the parent's blocking read returns EINTR and forwards the signal
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

// Shard `shard` of `shards`: its items (shard_positions), logged to shard-SHARD.jsonl in `dir`.
bool run_shard(int shard, int shards, const std::vector<Item>& items, std::uint64_t seed,
               std::vector<std::unique_ptr<impl::Implementation>>& implementations, const fs::path& dir,
               int progress_fd) {
  bool cut_short = false;  // by a stop signal, before its last item
  const fs::path log_path = dir / ("shard-" + std::to_string(shard) + ".jsonl");
  // Its own log's cut line first: read before, a line cut just before its newline parsed whole, counted its item as
  // done, and was then dropped, so that the item was never logged.
  drop_partial_line(log_path);
  const std::set<std::string> done = done_items(dir);
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  // A log that cannot be written stops the shard as a failure of gjkref's (exit status 3: run_campaign's shard
  // process), never silently: a campaign whose cases were not logged has not judged them.
  if (log < 0) throw std::runtime_error("cannot open " + log_path.string() + ": " + std::strerror(errno));
  g_timeout.dir = dir;
  g_timeout.log = log;
  g_timeout.progress = progress_fd;
  oracle::on_time_limit(log_oracle_timeout);
  std::map<std::string, int> family_number;
  for (std::size_t i = 0; i < families().size(); ++i) family_number[families()[i].name] = static_cast<int>(i);
  for (const std::size_t k : shard_positions(items.size(), shard, shards)) {
    if (g_stop_signal != 0) {
      cut_short = true;
      break;
    }
    const Item& item = items[k];
    if (done.count(item.key())) continue;
    const Case c = generate(seed, item, family_number[item.family]);
    json line = {{"key", item.key()}, {"family", item.family}, {"dim", item.dim}, {"index", item.index},
                 {"kind", c.name}};
    g_timeout.item = line;
    oracle::Answer truth;
    try {
      injected_fault("distance-oracle");
      truth = oracle::fast_oracle(c);
    } catch (const std::logic_error& e) {
      save_oracle_failure(dir, item, c, "THE ORACLE FAILED: ", e, line);
    }
    if (!line.contains("oracle_failure")) {
      line["oracle"] = oracle::to_string(truth.verdict);
      line["distance"] = truth.distance;
      const impl::Truth exact_truth(c, truth);
      json results = json::object();
      for (auto& implementation : implementations) {
        const impl::Info& info = implementation->info();
        impl::Result r;
        try {
          injected_fault("run:" + info.name);
          r = implementation->run(c);
        } catch (const std::exception& e) {
          // An in-process reference mode's own failure (a plugin's arrive as statuses from its worker): its answer on
          // this case is that it threw, judged and logged like any answer, and the shard goes on past the item (the
          // exception ended the shard, and every resumed run stopped on the same item). Saving its counterexample
          // runs it again, where it throws again: that case is kept in oracle-failures/ as gjkref's own failure
          // (still_fails), exit status 3.
          r = impl::Result{};
          r.status = impl::Status::Threw;
          r.detail = std::string("threw: ") + e.what();
        }
        impl::Judged j;
        try {
          j = impl::judge(exact_truth, r, info);
        } catch (const std::logic_error& e) {
          save_oracle_failure(dir, item, c, "THE ORACLE FAILED (penetration depth): ", e, line);
          break;
        }
        if (r.status == impl::Status::Unsupported) continue;  // not in this dimension: nothing to log
        if (!j.judged) {  // compact: why it was not judged is the same for every case of its kind (gjkref eval says),
                          // but a refusal's reason is the implementation's and may differ from case to case
          results[info.name] = json::array({impl::to_string(r.status), kNotJudged});
          if (r.status == impl::Status::Refused && !r.detail.empty()) results[info.name].push_back(r.detail);
          continue;
        }
        json row = {{"status", impl::to_string(r.status)}, {"finding", impl::to_string(j.finding)},
                    {"within_contract", j.within_contract}, {"seconds", r.seconds}, {"scale", j.scale}};
        if (r.status == impl::Status::Answered) row["separated"] = r.separated;
        if (r.distance && std::isfinite(*r.distance)) row["reported_distance"] = *r.distance;
        if (r.penetration && std::isfinite(*r.penetration)) row["reported_depth"] = *r.penetration;
        if (exact_truth.penetration_computed()) row["true_depth"] = exact_truth.penetration().depth;
        if (j.distance_error) row["distance_error"] = *j.distance_error;
        if (j.witness_error) row["witness_error"] = *j.witness_error;
        if (j.depth_error) row["depth_error"] = *j.depth_error;
        if (j.normal_error) row["normal_error"] = *j.normal_error;
        if (j.contact_error) row["contact_error"] = *j.contact_error;
        // The implementation's detail (how it answered: for the reference, the stop rule and the pass; for the
        // certified mode, its path) on every row that has one, so that results.csv can count the paths per family.
        if (!r.detail.empty()) row["detail"] = r.detail;
        // Logged in full: every answer outside the contract, and every intersecting pair called separated
        // (save_counterexamples saves the first of each kind).
        const bool full = to_be_saved(row);
        const bool compact = !full;
        results[info.name] = compact ? compact_row(row) : row;
      }
      if (!line.contains("oracle_failure")) line["results"] = results;
    }
    // An item during which the campaign was interrupted is not logged (a worker may have been signalled with it):
    // the resumed campaign does it again.
    if (g_stop_signal != 0) {
      cut_short = true;
      break;
    }
    const std::string text = json_text(line) + "\n";
    const ssize_t written = ::write(log, text.data(), text.size());
    if (written != static_cast<ssize_t>(text.size())) {
      if (g_stop_signal != 0) {  // interrupted: the campaign is stopping, and resumes from what was logged
        cut_short = true;
        break;
      }
      const std::string why = written < 0 ? std::strerror(errno)
                                          : std::to_string(written) + " of " + std::to_string(text.size()) +
                                                " bytes written (a file size limit, or the disk full)";
      ::close(log);
      throw std::runtime_error("cannot write " + log_path.string() + ": " + why);
    }
    const char tick = 1;
    if (::write(progress_fd, &tick, 1) != 1) {
      // The parent is gone; the log is what matters.
    }
  }
  ::close(log);
  return !cut_short;
}

// ---- reports -------------------------------------------------------------------------------------------------------

struct Tally {
  int judged = 0, disagreements = 0, not_judged = 0, refused = 0;  // refused: also counted in not_judged
  // By finding; a wrong verdict inside the verdict band (allowed by the contract) under "FINDING+band".
  std::map<std::string, int> findings;
  // By the implementation's detail on a judged answer (for the reference: stop rule and pass; certified: path).
  std::map<std::string, int> details;
  std::vector<double> errors, relative_errors, scaled_errors, seconds, depth_errors, scaled_depth_errors, normal_errors;

  int count(std::initializer_list<std::string> keys) const {
    int n = 0;
    for (const auto& k : keys)
      if (const auto it = findings.find(k); it != findings.end()) n += it->second;
    return n;
  }
  int count(impl::Finding f) const { return count({impl::to_string(f)}); }
  int count_all(impl::Finding f) const {
    return count({impl::to_string(f), std::string(impl::to_string(f)) + "+band"});
  }
};

// The median and the largest of what was measured; none when nothing was (report.json writes null and the tables "-":
// a 0 there read as "exact" for an implementation that reported no such number).
std::optional<double> median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}
std::optional<double> largest(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return *std::max_element(v.begin(), v.end());
}
std::optional<double> times(std::optional<double> x, double k) { return x ? std::optional<double>(*x * k) : x; }
json as_json(std::optional<double> x) { return x ? json(*x) : json(nullptr); }

// report.json counts at most this many distinct details per implementation (and per family): the most frequent, ties
// by text. A detail names how an answer was reached — the reference's modes give at most a dozen, the libraries' adapters
// a few more — but an implementation may write a value into it (libccd's adapters give the contact position), and one
// count per answer made the main job's report.json 6 MB. The rest are counted together (`other_details`).
constexpr std::size_t kReportedDetails = 20;

// The `details` and `other_details` of a summary in report.json.
std::pair<json, json> reported_details(const std::map<std::string, int>& details) {
  std::vector<std::pair<std::string, int>> by_count(details.begin(), details.end());
  std::stable_sort(by_count.begin(), by_count.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  json shown = json::object(), others = json();
  int distinct = 0, answers = 0;
  for (std::size_t i = 0; i < by_count.size(); ++i) {
    if (i < kReportedDetails) {
      shown[by_count[i].first] = by_count[i].second;
    } else {
      ++distinct;
      answers += by_count[i].second;
    }
  }
  if (distinct > 0) others = {{"distinct", distinct}, {"answers", answers}};
  return {shown, others};
}

std::string format_number(double x) {
  std::ostringstream os;
  os << std::setprecision(3) << x;
  return os.str();
}
std::string format_number(std::optional<double> x) { return x ? format_number(*x) : "-"; }

// The columns of the tables: a title and the count it shows.
struct Column {
  const char* title;
  int (*count)(const Tally&);
};
const std::vector<Column>& columns() {
  using F = impl::Finding;
  static const std::vector<Column> all = {
      {"sep. while touching", [](const Tally& t) { return t.count_all(F::SeparatedWhileTouching); }},
      {"sep. while overlapping", [](const Tally& t) { return t.count_all(F::SeparatedWhileOverlapping); }},
      {"int. while separated, beyond band", [](const Tally& t) { return t.count(F::IntersectingWhileSeparated); }},
      {"int. while separated, within band",
       [](const Tally& t) { return t.count({std::string(impl::to_string(F::IntersectingWhileSeparated)) + "+band"}); }},
      {"distance missing", [](const Tally& t) { return t.count(F::MissingDistance); }},
      {"distance outside", [](const Tally& t) { return t.count(F::DistanceOutsideContract); }},
      {"witness missing", [](const Tally& t) { return t.count(F::MissingWitnesses); }},
      {"witness outside", [](const Tally& t) { return t.count(F::WitnessOutsideContract); }},
      {"depth missing", [](const Tally& t) { return t.count(F::MissingDepth); }},
      {"depth outside", [](const Tally& t) { return t.count(F::DepthOutsideContract); }},
      {"normal missing", [](const Tally& t) { return t.count(F::MissingNormal); }},
      {"normal outside", [](const Tally& t) { return t.count(F::NormalOutsideContract); }},
      {"contact missing", [](const Tally& t) { return t.count(F::MissingContacts); }},
      {"contact outside", [](const Tally& t) { return t.count(F::ContactOutsideContract); }},
      {"failed", [](const Tally& t) { return t.count(F::Failed); }},
      {"threw", [](const Tally& t) { return t.count(F::Threw); }},
      {"crashed", [](const Tally& t) { return t.count(F::Crashed); }},
      {"hung", [](const Tally& t) { return t.count(F::Hung); }},
      {"NaN/inf", [](const Tally& t) { return t.count(F::NonFiniteNumber); }},
      {"invalid-input errors", [](const Tally& t) { return t.count(F::WrongInvalidInput); }},
      {"wrong class", [](const Tally& t) { return t.count(F::WrongClass); }},
  };
  return all;
}

void table_row(std::ostream& md, const std::string& first, const Tally& t) {
  md << "| " << first << " | " << t.judged << " | " << t.not_judged << " | " << t.refused << " | " << t.disagreements;
  for (const Column& column : columns()) md << " | " << column.count(t);
  md << " | " << format_number(median(t.errors)) << " | " << format_number(largest(t.errors)) << " | "
     << format_number(largest(t.relative_errors)) << " | " << format_number(largest(t.scaled_errors)) << " | "
     << format_number(median(t.depth_errors)) << " | " << format_number(largest(t.depth_errors)) << " | "
     << format_number(largest(t.scaled_depth_errors)) << " | "
     << format_number(largest(t.normal_errors)) << " | " << format_number(times(median(t.seconds), 1e6)) << " |\n";
}

// The report's summary, before its tables: the implementations whose every judged answer is within its contract, and
// for each other one how many answers are outside, by finding (results.csv's names, most frequent first; a wrong
// verdict inside the verdict band is allowed, and counted only in the tables), and the families where most of them are.
void write_summary(std::ostream& md, const std::map<std::string, Tally>& by_implementation,
                   const std::map<std::pair<std::string, std::string>, Tally>& by_implementation_family,
                   const std::vector<std::string>& order) {
  constexpr std::size_t kFamiliesNamed = 3;
  const auto by_count = [](std::vector<std::pair<std::string, int>>& v) {
    std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  };
  md << "## Summary\n\n";
  std::string clean, none_judged;
  for (const std::string& name : order) {
    const auto it = by_implementation.find(name);
    if (it == by_implementation.end() || it->second.disagreements > 0) continue;
    if (it->second.judged == 0)
      none_judged += (none_judged.empty() ? "" : ", ") + name + " (" + std::to_string(it->second.not_judged) + ")";
    else
      clean += (clean.empty() ? "" : ", ") + name + " (" + std::to_string(it->second.judged) + ")";
  }
  if (!clean.empty()) md << "Every judged answer within its contract (answers judged): " << clean << ".\n\n";
  if (!none_judged.empty()) md << "No answer judged (answers not judged): " << none_judged << ".\n\n";
  bool listed = false;
  for (const std::string& name : order) {
    const auto it = by_implementation.find(name);
    if (it == by_implementation.end() || it->second.disagreements == 0) continue;
    listed = true;
    const Tally& t = it->second;
    std::vector<std::pair<std::string, int>> findings, families;
    for (const auto& [finding, n] : t.findings)
      if (!finding.ends_with("+band")) findings.emplace_back(finding, n);
    for (const auto& [k, f] : by_implementation_family)
      if (k.first == name && f.disagreements > 0) families.emplace_back(k.second, f.disagreements);
    by_count(findings);
    by_count(families);
    std::ostringstream share;  // md's own format stays as it is
    share << std::fixed << std::setprecision(2) << 100.0 * t.disagreements / t.judged;
    md << "- **" << name << "**: " << t.disagreements << " of " << t.judged << " judged answers outside the contract ("
       << share.str() << " %)";
    const char* separator = ": ";
    for (const auto& [finding, n] : findings) {
      md << separator << finding << " " << n;
      separator = ", ";
    }
    md << "; most in " << families[0].first << " (" << families[0].second << ")";
    for (std::size_t i = 1; i < std::min(families.size(), kFamiliesNamed); ++i)
      md << ", " << families[i].first << " (" << families[i].second << ")";
    md << ".\n";
  }
  if (listed) md << "\n";
}

void table_header(std::ostream& md, const char* first) {
  std::vector<std::string> titles = {first, "answers judged", "not judged", "of which refused", "outside the contract"};
  for (const Column& column : columns()) titles.push_back(column.title);
  for (const char* title : {"distance error, median", "max", "max relative to d", "max relative to M",
                            "depth error, median", "max", "max relative to M", "normal error, max",
                            "µs per query, median"})
    titles.push_back(title);
  for (const std::string& title : titles) md << "| " << title << " ";
  md << "|\n";
  for (std::size_t i = 0; i < titles.size(); ++i) md << "|---";
  md << "|\n";
}

struct Reports {
  std::map<std::string, Tally> by_implementation;
  std::map<std::pair<std::string, std::string>, Tally> by_implementation_family;  // family: "touching 3D"
  int items = 0, oracle_failures = 0, disagreements = 0;
  // Of oracle_failures, cases made while shrinking a counterexample (files in oracle-failures/, not log lines).
  int oracle_failures_while_shrinking = 0;
  // The cases counted in oracle_failures, each with its case file and the reason when a log line gives it: those of
  // the log in key order, then those made while shrinking, by file name.
  std::vector<json> oracle_failure_cases;
  // Cases not judged because an oracle call passed its time limit (log_oracle_timeout), in key order.
  std::vector<json> oracle_timeouts;
  std::vector<std::string> counterexamples;
  std::map<std::string, std::string> reasons;  // by counterexample file: what was expected and what came back
};

// The implementations given cases with no answer judged: every answer refused or on input outside their contract's
// range. A run that judged nothing of an implementation has not tested it, and a gate on it must not pass (exit status
// 4, docs/comparing.md). Each with why: "NAME (R refused, N outside its range)". (An implementation in none of the
// run's dimensions was given no case and logged nothing; neither was one on a case whose oracle call timed out.)
std::vector<std::string> unjudged_implementations(const Reports& rep, const std::vector<std::string>& order) {
  std::vector<std::string> names;
  for (const std::string& name : order) {
    const auto it = rep.by_implementation.find(name);
    if (it == rep.by_implementation.end() || it->second.judged > 0) continue;
    const Tally& t = it->second;
    std::string why = std::to_string(t.refused) + " refused";
    if (t.not_judged > t.refused) why += ", " + std::to_string(t.not_judged - t.refused) + " outside its range";
    names.push_back(name + " (" + why + ")");
  }
  return names;
}

// The exit status's last clause, after the failures of gjkref (3) and answers outside the contract (1): 4 when an
// implementation had no answer judged, else 0. Says which on `err`.
int nothing_judged_status(const Reports& rep, const std::vector<std::string>& order, const char* command,
                          std::ostream& err) {
  const std::vector<std::string> unjudged = unjudged_implementations(rep, order);
  if (unjudged.empty()) return 0;
  err << "gjkref " << command << ": no answer judged: ";
  for (std::size_t i = 0; i < unjudged.size(); ++i) err << (i ? ", " : "") << unjudged[i];
  err << "; nothing of " << (unjudged.size() == 1 ? "it" : "them") << " was tested (exit status 4)\n";
  return 4;
}

// --fail-on-refusal's gate (docs/comparing.md, "Exit status"), after the failures of gjkref (3) and answers outside the
// contract (1): 5 when an implementation the gate names (every one for an empty list; names read as --impl reads
// them against `known`, named_by) refused an input, naming each with its count on `err`, together with exit status
// 4's message, which 5 comes before; else 0.
int refusal_status(const Reports& rep, const std::vector<std::string>& order, const std::vector<std::string>& gate,
                   const std::vector<std::string>& known, const char* command, std::ostream& err) {
  const auto gated = [&](const std::string& name) {
    return gate.empty() ||
           std::any_of(gate.begin(), gate.end(), [&](const std::string& w) { return named_by(w, name, known); });
  };
  std::string refusing;
  for (const std::string& name : order)
    if (const auto it = rep.by_implementation.find(name);
        it != rep.by_implementation.end() && it->second.refused > 0 && gated(name))
      refusing += (refusing.empty() ? "" : ", ") + name + " (" + std::to_string(it->second.refused) + ")";
  if (refusing.empty()) return 0;
  err << "gjkref " << command << ": inputs refused (--fail-on-refusal): " << refusing << "\n";
  nothing_judged_status(rep, order, command, err);  // its message too: 5 comes before 4
  return 5;
}

// The same in report.md, where a '|' would also end a table cell.
std::string markdown_text(const std::string& text) {
  std::string out;
  for (const char ch : one_line(text)) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

// A text cell of results.csv: on one line (one_line), quoted, with each quote doubled (RFC 4180); empty text stays an
// empty cell.
std::string csv_text(const std::string& text) {
  if (text.empty()) return "";
  std::string quoted = "\"";
  for (const char ch : one_line(text)) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

// junit.xml, for CI systems that show test results: one test suite per implementation and one test case per family
// and dimension it answered. A test case fails when any of its answers is outside the contract (the failure's message
// counts them; its text gives them by finding, and the counterexamples saved with their replay command); it is skipped
// when none of its answers was judged. The same answers as report.md and results.csv.
void write_junit(const fs::path& dir, const Reports& rep, const std::vector<std::string>& order, std::uint64_t seed,
                 bool partial) {
  // The saved counterexamples by implementation and family ("random 2D"), in the report's order.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> saved;
  for (const std::string& file : rep.counterexamples) {
    const fs::path path(file);
    const auto item = item_of_counterexample(path);
    if (!item) continue;
    const std::string implementation = path.parent_path().parent_path().filename().string();
    saved[{implementation, item->family + " " + std::to_string(item->dim) + "D"}].push_back(file);
  }
  // The seconds inside an implementation's calls, as xs:decimal (some JUnit readers refuse an exponent), to the
  // microsecond.
  const auto decimal = [](double seconds) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(6) << seconds;
    return text.str();
  };
  const auto seconds = [](const Tally& t) { return std::accumulate(t.seconds.begin(), t.seconds.end(), 0.0); };
  int tests = 0, failures = 0, skipped = 0;
  std::ostringstream suites;
  for (const std::string& name : order) {
    int suite_tests = 0, suite_failures = 0, suite_skipped = 0;
    double suite_seconds = 0;
    std::ostringstream cases;
    for (const auto& [k, t] : rep.by_implementation_family) {
      if (k.first != name) continue;
      ++suite_tests;
      suite_seconds += seconds(t);
      cases << "    <testcase classname=\"gjkref." << xml_text(name) << "\" name=\"" << xml_text(k.second)
            << "\" time=\"" << decimal(seconds(t)) << "\"";
      if (t.disagreements > 0) {
        ++suite_failures;
        cases << ">\n      <failure type=\"outside-the-contract\" message=\"" << t.disagreements << " of " << t.judged
              << " judged answers outside the contract\">";
        for (const auto& [finding, n] : t.findings)
          if (!finding.ends_with("+band")) cases << xml_text(finding) << ": " << n << "\n";
        if (const auto it = saved.find(k); it != saved.end()) {
          cases << "Saved, shrunk (each file's note gives its replay command):\n";
          for (const std::string& file : it->second) {
            const auto reason = rep.reasons.find(file);
            cases << xml_text(file) << (reason != rep.reasons.end() ? ": " + xml_text(reason->second) : "") << "\n";
          }
        }
        cases << "</failure>\n    </testcase>\n";
      } else if (t.judged == 0) {
        ++suite_skipped;
        cases << ">\n      <skipped message=\"no answer judged (" << t.not_judged << " not judged, " << t.refused
              << " refused)\"/>\n    </testcase>\n";
      } else {
        cases << "/>\n";
      }
    }
    if (suite_tests == 0) continue;
    tests += suite_tests;
    failures += suite_failures;
    skipped += suite_skipped;
    suites << "  <testsuite name=\"" << xml_text(name) << "\" tests=\"" << suite_tests << "\" failures=\""
           << suite_failures << "\" errors=\"0\" skipped=\"" << suite_skipped << "\" time=\"" << decimal(suite_seconds)
           << "\">\n" << cases.str() << "  </testsuite>\n";
  }
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- gjkref check, seed " << seed
      << (partial ? "; partial (report.md says why)" : "") << " -->\n<testsuites name=\"gjkref check\" tests=\""
      << tests << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n"
      << suites.str() << "</testsuites>\n";
  write_atomically(dir / "junit.xml", xml.str());
}

// `campaign_items`: the cases the directory should hold (the campaign's, or the slice's). `stopped_by`: the signal that
// interrupted the campaign (0: it ran to the end). The reports say they are partial when it was interrupted or when
// fewer cases are logged than it should hold (a shard that stopped early; in a merge, a slice missing or unfinished),
// with `why_partial` saying why when it is known. `scope`: a line on what part of the campaign the directory holds (""
// for a whole campaign).
// `lines`: the logs, checked (read_logs).
Reports build_reports(const fs::path& dir, const std::map<std::string, json>& lines,
                      const std::vector<std::string>& order, std::uint64_t seed, const CheckOptions& o,
                      std::size_t campaign_items, int stopped_by, const std::string& scope = "",
                      const std::string& why_partial = "") {
  Reports rep;
  std::vector<json> shrinking_failures;  // listed after the log's (rep.oracle_failure_cases)
  // The cases on which the oracle failed while a counterexample was shrunk are files (save_counterexample), counted at
  // every report: a resumed campaign, which does not shrink that counterexample again, and a merge still report them
  // and exit with status 3.
  {
    std::error_code ec;
    std::vector<std::string> shrinking;
    for (const auto& entry : fs::directory_iterator(dir / "oracle-failures", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.find("-shrinking-") != std::string::npos && entry.path().extension() == ".json")
        shrinking.push_back(name);
    }
    std::sort(shrinking.begin(), shrinking.end());
    rep.oracle_failures_while_shrinking = static_cast<int>(shrinking.size());
    rep.oracle_failures = rep.oracle_failures_while_shrinking;
    for (const std::string& name : shrinking)
      shrinking_failures.push_back({{"case", "oracle-failures/" + name}, {"while_shrinking", true}});
  }
  std::map<std::string, std::string> reasons;  // by "KEY IMPLEMENTATION": what was expected and what came back
  // results.csv and report.md are written as streams, to FILE.partial, and renamed into place once complete and checked:
  // a write that fails leaves neither cut short (nor a good copy of a run before replaced by one).
  std::ofstream csv(dir / "results.csv.partial");
  csv << "family,dim,index,kind,oracle,true_distance,true_depth,implementation,status,separated,reported_distance,"
         "reported_depth,finding,within_contract,distance_error,witness_error,depth_error,normal_error,contact_error,"
         "seconds,detail\n";
  csv << std::setprecision(17);
  // A number of a log line, when it is there: JSON has no infinity or NaN (nlohmann writes them as null), so a
  // non-finite value reads as absent.
  const auto number = [](const json& row, const char* key) -> std::optional<double> {
    const auto it = row.find(key);
    if (it == row.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  const auto field = [&number](const json& row, const char* key) -> std::string {
    const std::optional<double> x = number(row, key);
    if (!x) return "";
    std::ostringstream os;
    os << std::setprecision(17) << *x;
    return os.str();
  };
  for (const auto& [key, j] : lines) {
    ++rep.items;
    if (j.contains("oracle_failure")) {  // a row, so that the case is in results.csv as its timeout would be
      ++rep.oracle_failures;
      rep.oracle_failure_cases.push_back({{"key", key},
                                          {"reason", j["oracle_failure"]},
                                          {"case", "oracle-failures/" + safe_name(key) + ".json"},
                                          {"while_shrinking", false}});
      csv << j["family"].get<std::string>() << "," << j["dim"] << "," << j["index"] << ",\""
          << j["kind"].get<std::string>() << "\",oracle-failed,,,,,,,,,,,,,,,,\n";
      continue;
    }
    if (j.contains("oracle_timeout")) {
      json timeout = j.at("oracle_timeout");
      timeout["key"] = key;
      rep.oracle_timeouts.push_back(timeout);
      csv << j["family"].get<std::string>() << "," << j["dim"] << "," << j["index"] << ",\""
          << j["kind"].get<std::string>() << "\",oracle-timeout,,,,,,,,,,,,,,,,\n";
      continue;
    }
    const std::string family = j["family"].get<std::string>() + " " + std::to_string(j["dim"].get<int>()) + "D";
    for (const auto& [name, logged] : j.at("results").items()) {
      const json row = full_row(logged);
      if (row.contains("judged") && !row["judged"].get<bool>()) {
        const bool refused = row["status"] == impl::to_string(impl::Status::Refused);
        for (Tally* t : {&rep.by_implementation[name], &rep.by_implementation_family[{name, family}]}) {
          ++t->not_judged;
          if (refused) ++t->refused;
        }
        csv << j["family"].get<std::string>() << "," << j["dim"] << "," << j["index"] << ",\""
            << j["kind"].get<std::string>() << "\"," << j["oracle"].get<std::string>() << "," << field(j, "distance")
            << ",," << name << "," << row["status"].get<std::string>() << ",,,,not-judged,,,,,,,,"
            << csv_text(row.contains("detail") ? row["detail"].get<std::string>() : "") << "\n";
        continue;
      }
      if (!row["within_contract"].get<bool>()) ++rep.disagreements;
      for (Tally* t : {&rep.by_implementation[name], &rep.by_implementation_family[{name, family}]}) {
        ++t->judged;
        const double m = number(row, "scale").value_or(0);
        if (const auto e = number(row, "depth_error")) {
          t->depth_errors.push_back(*e);
          if (m > 0) t->scaled_depth_errors.push_back(*e / m);
        }
        if (const auto e = number(row, "normal_error")) t->normal_errors.push_back(*e);
        const bool within = row["within_contract"].get<bool>();
        const std::string finding = row["finding"].get<std::string>();
        if (!within) ++t->disagreements;
        if (finding != impl::to_string(impl::Finding::None)) ++t->findings[finding + (within ? "+band" : "")];
        if (const auto seconds = number(row, "seconds")) t->seconds.push_back(*seconds);
        if (row.contains("detail")) ++t->details[row["detail"].get<std::string>()];
        if (const auto e = number(row, "distance_error")) {
          const double d = number(j, "distance").value_or(0);
          t->errors.push_back(*e);
          if (d > 0) t->relative_errors.push_back(*e / d);
          if (m > 0) t->scaled_errors.push_back(*e / m);
        }
      }
      if (to_be_saved(row)) {
        // One line: the exact answer, then what came back and by how much it is off (as generated, before shrinking).
        std::ostringstream why;
        why << std::setprecision(6) << "exact: " << j["oracle"].get<std::string>() << ", d = " << field(j, "distance");
        if (!field(row, "true_depth").empty()) why << ", PD = " << field(row, "true_depth");
        why << "; answered: ";
        if (row.contains("separated")) why << (row["separated"].get<bool>() ? "separated" : "intersecting");
        else why << row["status"].get<std::string>();
        for (const auto& [key, label] : {std::pair{"reported_distance", "distance"}, {"reported_depth", "depth"},
                                         {"distance_error", "distance error"}, {"depth_error", "depth error"},
                                         {"normal_error", "normal error"}, {"witness_error", "witness error"},
                                         {"contact_error", "contact error"}})
          if (const auto x = number(row, key)) why << ", " << label << " " << *x;
        if (row.contains("detail") && !row["detail"].get<std::string>().empty())
          why << " (" << row["detail"].get<std::string>() << ")";
        reasons[key + " " + name] = why.str();
      }
      csv << j["family"].get<std::string>() << "," << j["dim"] << "," << j["index"] << ",\""
          << j["kind"].get<std::string>() << "\"," << j["oracle"].get<std::string>() << "," << field(j, "distance")
          << "," << field(row, "true_depth") << "," << name << "," << row["status"].get<std::string>() << ","
          << (row.contains("separated") ? (row["separated"].get<bool>() ? "true" : "false") : "") << ","
          << field(row, "reported_distance") << "," << field(row, "reported_depth") << ","
          << row["finding"].get<std::string>() << "," << (row["within_contract"].get<bool>() ? "true" : "false") << ","
          << field(row, "distance_error") << "," << field(row, "witness_error") << "," << field(row, "depth_error")
          << "," << field(row, "normal_error") << "," << field(row, "contact_error") << "," << field(row, "seconds")
          << "," << csv_text(row.contains("detail") ? row["detail"].get<std::string>() : "") << "\n";
    }
  }
  // The counterexamples saved (save_counterexamples), each with the reason of its answer in the logs.
  if (std::error_code ec; fs::is_directory(dir / "counterexamples", ec))
    for (const auto& entry : fs::recursive_directory_iterator(dir / "counterexamples")) {
      const auto item = item_of_counterexample(entry.path());
      if (!item) continue;
      const std::string file = fs::relative(entry.path(), dir).string();
      rep.counterexamples.push_back(file);
      const std::string name = entry.path().parent_path().parent_path().filename().string();
      if (const auto it = reasons.find(item->key() + " " + name); it != reasons.end()) rep.reasons[file] = it->second;
    }
  std::sort(rep.counterexamples.begin(), rep.counterexamples.end());

  const bool partial =
      stopped_by != 0 || static_cast<std::size_t>(rep.items) < campaign_items || !why_partial.empty();
  std::ofstream md(dir / "report.md.partial");
  md << "# gjkref check report\n\n";
  if (stopped_by != 0)
    md << "**Partial:** the campaign was interrupted (" << (stopped_by == SIGINT ? "SIGINT" : "SIGTERM") << ") after "
       << rep.items << " of its " << campaign_items << " cases; rerun the same command to resume it.\n\n";
  else if (partial)
    md << "**Partial:** " << rep.items << " of the " << campaign_items << " cases"
       << (why_partial.empty() ? "" : "; " + why_partial) << ".\n\n";
  if (!scope.empty()) md << scope << "\n\n";
  md << "Seed " << seed << "; " << rep.items << " cases (" << o.cases << " per family and dimension asked); "
     << rep.oracle_failures << " oracle failures"
     << (rep.oracle_failures_while_shrinking > 0
             ? " (" + std::to_string(rep.oracle_failures_while_shrinking) + " of them on cases made while shrinking)"
             : std::string())
     << "; " << rep.oracle_timeouts.size()
     << " cases not judged because the oracle passed its time limit. Every answer is judged against the exact oracle under "
     << "docs/contract.md with the implementation's own scalar (docs/comparing.md). Distance errors are absolute, "
     << "relative to the true distance d, and relative to M, the input's scale.\n\n";
  write_summary(md, rep.by_implementation, rep.by_implementation_family, order);
  md << "## By implementation\n\n";
  table_header(md, "implementation");
  for (const std::string& name : order)
    if (rep.by_implementation.count(name)) table_row(md, name, rep.by_implementation[name]);
  md << "\n## By implementation and family\n\n";
  table_header(md, "implementation, family");
  for (const std::string& name : order)
    for (const auto& [k, t] : rep.by_implementation_family)
      if (k.first == name) table_row(md, name + ", " + k.second, t);
  // How the reference's modes answered, per family: its details are a few names (stop rule and pass; the certified
  // mode's path), so their counts are the paths' frequencies (docs/algorithm.md). Other implementations' details are
  // free text, in results.csv.
  bool paths_shown = false;
  for (const std::string& name : order) {
    if (name.rfind("reference-", 0) != 0) continue;
    for (const auto& [k, t] : rep.by_implementation_family) {
      if (k.first != name || t.details.empty()) continue;
      if (!paths_shown)
        md << "\n## How the reference answered\n\nPer mode and family, the judged answers by the mode's detail: the "
           << "stop rule, and the pass when it was not the textbook's (`careful`, `exact-finish`, `unchecked`); for "
           << "`reference-certified`, the path (docs/algorithm.md).\n\n| implementation, family | answers by detail |\n"
           << "|---|---|\n";
      paths_shown = true;
      md << "| " << name << ", " << k.second << " |";
      const char* separator = " ";
      int with_detail = 0;
      for (const auto& [detail, n] : t.details) {
        md << separator << markdown_text(detail) << ": " << n;
        separator = "; ";
        with_detail += n;
      }
      // Rows without a detail: failed answers, or answers logged by a gjkref older than the detail (a resumed campaign).
      if (with_detail < t.judged) md << separator << "no detail: " << t.judged - with_detail;
      md << " |\n";
    }
  }
  md << "\n## Counterexamples\n\nShrunk, as gjkref-case/1 files (the second case in each file is the case as "
     << "generated), each with a picture of the shrunk case (`gjkref render`) and the replay command in its note. Per "
     << "implementation, finding, family and dimension, the first " << kSavedCounterexamplesPerKind
     << " in the campaign's order are saved, however many jobs or slices ran it; the tables count all. Each line gives the exact answer and what came "
     << "back, on the case as generated.\n";
  // Grouped by implementation, then finding (the files' paths are counterexamples/IMPLEMENTATION/FINDING/...).
  std::string implementation_shown, finding_shown;
  for (const std::string& file : rep.counterexamples) {
    const fs::path path(file);
    const std::string implementation = path.parent_path().parent_path().filename().string();
    const std::string finding = path.parent_path().filename().string();
    if (implementation != implementation_shown) md << "\n### " << implementation << "\n";
    if (implementation != implementation_shown || finding != finding_shown) md << "\n**" << finding << "**\n\n";
    implementation_shown = implementation, finding_shown = finding;
    const std::string picture = fs::path(file).replace_extension(".svg").string();
    md << "- [" << path.filename().string() << "](" << file << ")";
    if (fs::exists(dir / picture)) md << " ([picture](" << picture << "))";
    md << ": " << one_line(rep.reasons[file]) << "\n";
  }

  rep.oracle_failure_cases.insert(rep.oracle_failure_cases.end(), shrinking_failures.begin(), shrinking_failures.end());
  if (!rep.oracle_failure_cases.empty()) {
    md << "\n## Oracle failures\n\nCases on which an exact oracle failed: its certificate did not check, or its two "
       << "methods disagreed. Each is a bug in gjkref or CGAL to report, with its case file; no answer on it is "
       << "judged.\n\n";
    for (const json& f : rep.oracle_failure_cases) {
      const std::string file = f["case"].get<std::string>();
      md << "- " << (f.contains("key") ? f["key"].get<std::string>() : fs::path(file).stem().string()) << " ([case]("
         << file << "))";
      if (f["while_shrinking"].get<bool>()) md << ": a case made while shrinking a counterexample";
      if (f.contains("reason")) md << ": " << one_line(f["reason"].get<std::string>());
      md << "\n";
    }
  }

  if (!rep.oracle_timeouts.empty()) {
    md << "\n## Oracle timeouts\n\nCases on which an oracle call passed its time limit (`--oracle-time-limit`, CPU "
       << "seconds): no answer on them is judged. Each case is saved; `gjkref eval` replays it (with a larger "
       << "`--oracle-time-limit`).\n\n";
    for (const json& t : rep.oracle_timeouts) {
      md << "- " << t["key"].get<std::string>() << ": the " << t["method"].get<std::string>() << " method, limit "
         << t["limit_seconds"].get<double>() << " s";
      if (t.contains("case")) md << " ([case](" << t["case"].get<std::string>() << "))";
      md << "\n";
    }
  }

  json report = {{"seed", seed}, {"items", rep.items}, {"campaign_items", campaign_items},
                 {"partial", partial}, {"oracle_failures", rep.oracle_failures},
                 {"oracle_failures_while_shrinking", rep.oracle_failures_while_shrinking},
                 {"oracle_failure_cases", rep.oracle_failure_cases},
                 {"oracle_timeouts", rep.oracle_timeouts},
                 {"counterexamples", rep.counterexamples}};
  const auto summary = [](const Tally& t) {
    auto [details, other_details] = reported_details(t.details);
    json summary{{"cases", t.judged},
                 {"not_judged", t.not_judged},
                 {"refused", t.refused},
                 {"disagreements", t.disagreements},
                 {"depth_error",
                  {{"median", as_json(median(t.depth_errors))}, {"max", as_json(largest(t.depth_errors))}}},
                 {"max_depth_error_relative_to_scale", as_json(largest(t.scaled_depth_errors))},
                 {"max_normal_error", as_json(largest(t.normal_errors))},
                 {"findings", t.findings},
                 {"details", std::move(details)},
                 {"distance_error", {{"median", as_json(median(t.errors))}, {"max", as_json(largest(t.errors))}}},
                 {"max_relative_error", as_json(largest(t.relative_errors))},
                 {"max_error_relative_to_scale", as_json(largest(t.scaled_errors))},
                 {"median_seconds_per_query", as_json(median(t.seconds))}};
    if (!other_details.is_null()) summary["other_details"] = std::move(other_details);
    return summary;
  };
  for (const auto& [name, t] : rep.by_implementation) report["implementations"][name] = summary(t);
  for (const auto& [k, t] : rep.by_implementation_family) report["by_family"][k.first][k.second] = summary(t);
  check_written(csv, dir / "results.csv.partial");
  check_written(md, dir / "report.md.partial");
  csv.close();
  md.close();
  for (const char* name : {"results.csv", "report.md"}) {
    std::error_code ec;
    fs::rename(dir / (std::string(name) + ".partial"), dir / name, ec);
    if (ec) throw std::runtime_error("cannot write " + (dir / name).string() + ": " + ec.message());
  }
  write_atomically(dir / "report.json", json_text(report, 2) + "\n");
  write_junit(dir, rep, order, seed, partial);
  return rep;
}

// The table printed at the end: one line per implementation (the columns: docs/comparing.md).
void print_table(std::ostream& out, const Reports& rep, const std::vector<std::string>& order) {
  const int w = 24;
  out << std::left << std::setw(w) << "implementation" << std::right << std::setw(8) << "answers" << std::setw(8)
      << "refused" << std::setw(7) << "wrong" << std::setw(7) << "band" << std::setw(10) << "sep-touch" << std::setw(10) << "sep-overl"
      << std::setw(8) << "int-sep" << std::setw(6) << "dist" << std::setw(5) << "wit" << std::setw(7) << "depth"
      << std::setw(7) << "normal" << std::setw(8) << "contact" << std::setw(7) << "failed" << std::setw(6) << "crash"
      << std::setw(5) << "hung" << std::setw(10) << "max err/M" << std::setw(12) << "depth err/M"
      // "µs" is three bytes wide to setw and two characters on the screen.
      << std::setw(11) << "µs/query" << "\n";
  using F = impl::Finding;
  for (const std::string& name : order) {
    const auto it = rep.by_implementation.find(name);
    if (it == rep.by_implementation.end()) continue;
    const Tally& t = it->second;
    int band = 0;
    for (const auto& [k, n] : t.findings)
      if (k.size() > 5 && k.compare(k.size() - 5, 5, "+band") == 0) band += n;
    out << std::left << std::setw(w) << name << std::right << std::setw(8) << t.judged << std::setw(8) << t.refused
        << std::setw(7) << t.disagreements << std::setw(7) << band << std::setw(10) << t.count_all(F::SeparatedWhileTouching)
        << std::setw(10) << t.count_all(F::SeparatedWhileOverlapping) << std::setw(8)
        << t.count(F::IntersectingWhileSeparated) << std::setw(6)
        << t.count(F::DistanceOutsideContract) + t.count(F::MissingDistance) << std::setw(5)
        << t.count(F::WitnessOutsideContract) + t.count(F::MissingWitnesses) << std::setw(7)
        << t.count(F::DepthOutsideContract) + t.count(F::MissingDepth) << std::setw(7)
        << t.count(F::NormalOutsideContract) + t.count(F::MissingNormal) << std::setw(8)
        << t.count(F::ContactOutsideContract) + t.count(F::MissingContacts) << std::setw(7)
        << t.count(F::Failed) + t.count(F::Threw) + t.count(F::NonFiniteNumber) + t.count(F::WrongInvalidInput)
        << std::setw(6) << t.count(F::Crashed) << std::setw(5) << t.count(F::Hung) << std::setw(10)
        << format_number(largest(t.scaled_errors)) << std::setw(12) << format_number(largest(t.scaled_depth_errors))
        << std::setw(10) << format_number(times(median(t.seconds), 1e6)) << "\n";
  }
}

}  // namespace

int run_list(const std::vector<std::string>& plugins, std::ostream& out, std::ostream& err) {
  auto all = select_implementations({}, plugins, err);
  if (!all) return 2;
  out << "implementations (name, scalar, dimensions, what it answers, version):\n";
  for (const auto& i : *all) {
    const impl::Info& info = i->info();
    std::string answers;
    for (const auto& [capability, word] : {std::pair{impl::kDecides, "verdict"}, {impl::kMeasures, "distance"},
                                           {impl::kWitnesses, "witnesses"}, {impl::kPenetrates, "depth"},
                                           {impl::kNormal, "normal"}, {impl::kContacts, "contacts"}})
      if (info.can(capability)) answers += (answers.empty() ? "" : ",") + std::string(word);
    const std::string dims = info.in_2d && info.in_3d ? "2D,3D" : info.in_2d ? "2D" : "3D";
    out << "  " << std::left << std::setw(24) << info.name << std::setw(13) << info.scalar << std::setw(7) << dims
        << std::setw(54) << answers << one_line(info.version) << "\n";
  }
  out << "families (gjkref check --family; docs/properties.md):\n";
  for (const Family& f : families()) out << "  " << std::left << std::setw(20) << f.name << f.description << "\n";
  return 0;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const auto& f : families()) names.push_back(f.name);
  return names;
}

// A process saving counterexamples that finished, but on which the oracle failed while shrinking one (its cases are
// in oracle-failures/, named on stderr).
constexpr int kOracleFailedWhileShrinking = 4;

// A shard or a process saving counterexamples that a stop signal ended before its work was done exits with the shell's
// status for it, 128 + the signal (one that had finished its work when the signal came exits as it would have): the
// parent tells it from one that finished (0). When gjkref itself was not signalled, the signal was sent to that
// process alone, and the campaign did not finish: it is reported as stopped early (exit status 3), not as clean.
// Pinned by CTest cli.check-interrupt.
int stopped_status() { return 128 + g_stop_signal; }
bool stopped_by_a_signal(int status) {
  return WIFEXITED(status) && (WEXITSTATUS(status) == 128 + SIGINT || WEXITSTATUS(status) == 128 + SIGTERM);
}
// The messages for processes that a signal stopped while gjkref was not stopped (what, exit status), said once every
// process has been waited for, and only if gjkref is still not stopped: a signal sent to the whole process group
// (Ctrl-C) can reach a process and end it before it reaches gjkref, and then the campaign is interrupted, not
// stopped in one of its processes.
void report_signalled_alone(std::ostream& err, const std::vector<std::pair<std::string, int>>& signalled) {
  if (g_stop_signal != 0) return;
  for (const auto& [what, status] : signalled)
    err << "gjkref check: " << what << " was stopped by "
        << (WEXITSTATUS(status) == 128 + SIGINT ? "SIGINT" : "SIGTERM") << ", sent to it alone\n";
}

// Shrinks and saves the counterexamples of counterexamples_to_save() not yet saved, dealt to o.jobs forked processes.
// false when one of them stopped early (its message is on stderr); `oracle_failed` is set when the oracle failed on a
// case made while shrinking. A process that ended because an oracle call passed its time limit has saved the
// counterexample it was shrinking unshrunk (save_unshrunk_on_oracle_timeout): the saving starts again on the rest,
// as long as each round saves one more.
bool save_counterexamples(const fs::path& dir, const CheckOptions& o, std::uint64_t seed,
                          std::vector<std::unique_ptr<impl::Implementation>>& implementations, std::ostream& err,
                          bool& oracle_failed, std::size_t left_before = 0) {
  std::vector<Candidate> to_save;
  for (Candidate& cand : counterexamples_to_save(dir))
    if (!fs::exists(dir / counterexample_path(cand.implementation, cand.finding, cand.item)))
      to_save.push_back(std::move(cand));
  if (to_save.empty()) return true;
  if (left_before != 0 && to_save.size() >= left_before) return false;  // the last round saved nothing: stop
  const int processes = std::min(o.jobs, static_cast<int>(to_save.size()));
  if (o.progress)
    err << "saving " << to_save.size() << " counterexamples (shrinking each) in " << processes << " jobs\n";
  err.flush();
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = ::fork();
    if (pid < 0) break;
    if (pid > 0) {
      pids.push_back(pid);
      continue;
    }
    int status = 0;
    oracle::on_time_limit(save_unshrunk_on_oracle_timeout);
    try {
      std::map<std::string, impl::Implementation*> by_name;
      for (auto& i : implementations) by_name[i->info().name] = i.get();
      auto references = impl::reference_implementations();
      const auto exact = std::find_if(references.begin(), references.end(),  // the exact reference, for the pictures
                                      [](const auto& r) { return r->info().name == "reference-exact"; });
      if (exact == references.end()) throw std::logic_error("no reference-exact among the reference implementations");
      std::map<std::string, int> family_number;
      for (std::size_t i = 0; i < families().size(); ++i) family_number[families()[i].name] = static_cast<int>(i);
      for (std::size_t t = static_cast<std::size_t>(p); t < to_save.size() && g_stop_signal == 0;
           t += static_cast<std::size_t>(processes)) {
        const Candidate& cand = to_save[t];
        if (!by_name.count(cand.implementation) || !family_number.count(cand.item.family)) continue;
        const Case c = generate(seed, cand.item, family_number[cand.item.family]);
        if (!save_counterexample(dir, cand, c, o, seed, *by_name[cand.implementation], **exact))
          status = kOracleFailedWhileShrinking;
      }
      // Cut short by a stop signal: one of its counterexamples is not saved (save_counterexample leaves the one it
      // was shrinking to the resumption), whatever else it met (an oracle failure is in oracle-failures/ already).
      for (std::size_t t = static_cast<std::size_t>(p); g_stop_signal != 0 && t < to_save.size();
           t += static_cast<std::size_t>(processes))
        if (!fs::exists(dir / counterexample_path(to_save[t].implementation, to_save[t].finding, to_save[t].item))) {
          status = stopped_status();
          break;
        }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gjkref check: saving counterexamples stopped: %s\n", e.what());
      status = 3;
    }
    implementations.clear();  // stops the process's workers
    std::fflush(nullptr);
    ::_exit(status);
  }
  bool all_finished = static_cast<int>(pids.size()) == processes;
  bool forwarded = false, timed_out = false;
  std::vector<std::pair<std::string, int>> signalled_alone;
  for (const pid_t pid : pids) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
      if (g_stop_signal != 0 && !forwarded) {
        for (const pid_t other : pids) ::kill(other, SIGTERM);
        forwarded = true;
      }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kOracleFailedWhileShrinking)
      oracle_failed = true;
    else if (WIFEXITED(status) && WEXITSTATUS(status) == oracle::kTimeLimitExitStatus)
      timed_out = true;
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      all_finished = false;
      if (stopped_by_a_signal(status) && g_stop_signal == 0)
        signalled_alone.emplace_back("a process saving counterexamples", status);
    }
  }
  report_signalled_alone(err, signalled_alone);
  if (timed_out && all_finished && g_stop_signal == 0)
    return save_counterexamples(dir, o, seed, implementations, err, oracle_failed, to_save.size());
  return all_finished;
}

int run_check(const CheckOptions& given, std::ostream& out, std::ostream& err) {
  CheckOptions o = given;
  const std::vector<std::string> known = family_names();
  if (o.families.empty()) o.families = known;
  for (const std::string& f : o.families)
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      err << "gjkref check: unknown family '" << f << "'; known:";
      for (const auto& n : known) err << " " << n;
      err << "\n";
      return 2;
    }
  if (o.dims.empty()) o.dims = {2, 3};
  for (int d : o.dims)
    if (d != 2 && d != 3) {
      err << "gjkref check: --dim takes 2 or 3\n";
      return 2;
    }
  if (o.cases < 1) {
    err << "gjkref check: --cases must be at least 1\n";
    return 2;
  }
  if (o.jobs < 1 || o.jobs > kMaxJobs) {
    err << "gjkref check: --jobs: a whole number from 1 to " << kMaxJobs << "\n";
    return 2;
  }
  if (o.slice && !(o.slice->second >= 1 && o.slice->first >= 0 && o.slice->first < o.slice->second)) {
    err << "gjkref check: --shard K/N needs N >= 1 and 0 <= K < N\n";
    return 2;
  }
  // Without --seed a new campaign draws one; a campaign resumed without --seed keeps the one it started with (below).
  std::uint64_t seed = o.seed ? *o.seed : std::random_device{}();
  std::vector<std::string> every_name;  // every implementation's, chosen or not (named_by)
  auto selected = select_implementations(o.implementations, o.plugins, err,
                                         {o.time_limit_seconds, o.memory_limit_mib}, &every_name);
  if (!selected) return 2;
  auto& implementations = *selected;
  std::vector<std::string> order;
  json versions = json::object();
  for (const auto& i : implementations) {
    order.push_back(i->info().name);
    versions[i->info().name] = i->info().version;
  }
  // An --impl entry none of whose implementations answers a dimension asked for would be given no case, and a campaign
  // without any (implementation, dimension) pair would judge nothing and pass: both are refused. (A group is refused
  // only when none of its members answers; an implementation chosen by default, or a plugin run whole, simply answers
  // in its own dimensions.)
  const auto answers_a_dimension = [&](const impl::Info& info) {
    return std::any_of(o.dims.begin(), o.dims.end(), [&](int d) { return d == 2 ? info.in_2d : info.in_3d; });
  };
  const auto is_a_name = [&](const std::string& w) { return std::find(order.begin(), order.end(), w) != order.end(); };
  for (const std::string& w : o.implementations) {
    bool answers = false;
    for (const auto& i : implementations)
      if ((is_a_name(w) ? i->info().name == w : chooses(w, i->info().name)) && answers_a_dimension(i->info()))
        answers = true;
    if (!answers) {
      err << "gjkref check: --impl " << w << ": " << (is_a_name(w) ? "it answers" : "its implementations answer")
          << " none of the dimensions --dim asks for: it would be given no case\n";
      return 2;
    }
  }
  // --fail-on-refusal=NAMES, read as --impl reads names (named_by): each must choose an implementation of the
  // campaign that is given cases (a gate on none, or on one that answers no dimension asked for, would pass on
  // anything; refusal_status applies it).
  if (o.fail_on_refusal)
    for (const std::string& w : *o.fail_on_refusal)
      if (std::none_of(implementations.begin(), implementations.end(), [&](const auto& i) {
            return named_by(w, i->info().name, every_name) && answers_a_dimension(i->info());
          })) {
        err << "gjkref check: --fail-on-refusal " << one_line(w)
            << ": names no implementation of this campaign that is given cases (--impl, --dim)\n";
        return 2;
      }
  // A plugin run whole is not refused for that, but said to be untested (its 2D implementations with --dim 3 were
  // given no case, without a word).
  for (const std::string& plugin : o.plugins) {
    bool chosen = false, answers = false;
    for (const auto& i : implementations)
      if (i->info().source == plugin) chosen = true, answers |= answers_a_dimension(i->info());
    if (chosen && !answers)
      err << "gjkref check: warning: --plugin " << one_line(plugin) << ": its implementations answer none of the "
          << "dimensions --dim asks for: they are given no case\n";
  }
  if (std::none_of(implementations.begin(), implementations.end(),
                   [&](const auto& i) { return answers_a_dimension(i->info()); })) {
    err << "gjkref check: no implementation chosen answers the dimensions asked for: nothing would be judged\n";
    return 2;
  }

  const fs::path dir = o.out;
  if (const std::string why = why_not_an_output_directory(dir); !why.empty()) {
    err << "gjkref check: --out " << (dir.empty() ? "\"\"" : dir.string()) << ": " << why << "\n";
    return 2;
  }
  if (const std::string why = lock_the_directory(dir); !why.empty()) {
    err << "gjkref check: --out " << dir.string() << ": " << why << "\n";
    return 2;
  }
  json identity = identity_of(o, seed, order, versions);
  const fs::path identity_file = dir / "campaign.json";
  if (fs::exists(identity_file)) {
    std::ifstream f(identity_file);
    const json before = json::parse(f, nullptr, false);
    // An unreadable campaign.json (cut short, emptied) says nothing about whose the logs are: refused like a missing
    // one. (A parse failure is a "discarded" value, which compares unequal to nothing: it must be asked for.)
    if (before.is_discarded()) {
      err << "gjkref check: " << identity_file.string() << " is not valid JSON, so which campaign the logs in "
          << dir.string() << " belong to is unknown; use another --out, or remove it\n";
      return 2;
    }
    // "Rerun the same command to resume": a command without --seed resumes with the campaign's own seed.
    if (!o.seed && before.is_object() && before.contains("seed") && before["seed"].is_number_unsigned()) {
      seed = before["seed"].get<std::uint64_t>();
      identity = identity_of(o, seed, order, versions);
    }
    if (before != identity) {
      err << "gjkref check: " << dir.string() << " holds another campaign (" << identity_file.string()
          << " differs in: " << differing_fields(before, identity)
          << "; a different source or versions mean another build of gjkref or of an implementation, whose answers "
          << "would mix with the logged ones); use another --out or remove it\n";
      return 2;
    }
    out << "resuming the campaign in " << dir.string() << "\n";
  } else {
    // Logs without their campaign.json: whose seed they were run with is unknown, and adopting them would mix two
    // campaigns' cases in one report.
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".jsonl") {
        err << "gjkref check: " << dir.string() << " holds logs (" << entry.path().filename().string()
            << ") but no campaign.json, so which campaign they belong to is unknown; use another --out, or remove "
            << "the logs\n";
        return 2;
      }
    // Anything else there is not gjkref's: its reports (report.md, results.csv, ...) would overwrite it.
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().filename() == kLockFile) continue;
      err << "gjkref check: " << dir.string() << " holds " << entry.path().filename().string()
          << " but no campaign.json: a new campaign needs a new or empty directory (its reports would overwrite what "
          << "is there); use another --out\n";
      return 2;
    }
    write_atomically(identity_file, json_text(identity, 2) + "\n");
  }
  out << "gjkref check: seed " << seed << ", " << o.cases << " cases per family and dimension, families";
  for (const auto& f : o.families) out << " " << f;
  out << ", " << order.size() << " implementations, " << o.jobs << " jobs";
  if (o.slice) out << ", slice " << o.slice->first << "/" << o.slice->second;
  out << ", output in " << dir.string() << "\n";
  out.flush();

  const std::vector<Item> items = items_of(o);
  // A slice K of N runs the items of shard K of N; its J jobs are shards K, K + N, ..., K + N(J − 1) of N·J, which
  // together deal the same items (shard_positions deals position k to shard k mod the count). So a campaign run as N
  // slices of J jobs logs and saves exactly what one run with N·J jobs does (docs/scaling.md).
  const int shard_count = o.slice ? o.slice->second * o.jobs : o.jobs;
  const auto shard_index = [&](int job) { return o.slice ? o.slice->first + o.slice->second * job : job; };
  // The items this directory holds: the campaign's, or the slice's share.
  std::vector<std::size_t> positions(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) positions[k] = k;
  if (o.slice) positions = shard_positions(items.size(), o.slice->first, o.slice->second);
  const std::set<std::string> keys = keys_at(items, positions);
  const std::size_t to_run = keys.size();
  // What is logged already, every line checked before the campaign resumes from it (read_logs).
  const CampaignLogs before = read_logs(dir, keys, order);
  if (!before.error.empty()) {
    err << "gjkref check: " << before.error << "\nThe logs in " << dir.string() << " are not this campaign's (another "
        << "--cases, or edited): use another --out; or remove that line, and its case is redone\n";
    return 2;
  }
  const std::size_t already = before.lines.size();

  int progress[2];
  if (::pipe(progress) != 0) {
    err << "gjkref check: cannot create a pipe\n";
    return 2;
  }
  g_stop_signal = 0;
  on_stop_signals(note_stop_signal);
  oracle::set_time_limit(o.oracle_time_limit_seconds);
  // Every log's cut last line goes before any shard reads what is done: a resumed campaign may deal the items to other
  // shards (--jobs is not part of it), and a shard reading another's log before that one dropped its cut line would
  // count a line cut just before its newline as done.
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".jsonl") drop_partial_line(entry.path());
  // The running shards (process id → job), and each job's log size when it last started: a shard that ends on the
  // oracle's time limit has logged its item as an oracle timeout (log_oracle_timeout) and is started again, to go on
  // after it; one whose log did not grow would only repeat the item, and is reported as stopped instead.
  std::map<pid_t, int> running;
  std::vector<std::pair<std::string, int>> signalled_alone;  // report_signalled_alone
  std::map<int, std::uintmax_t> log_size_at_start;
  const auto log_size = [&](int job) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(dir / ("shard-" + std::to_string(shard_index(job)) + ".jsonl"), ec);
    return ec ? std::uintmax_t{0} : size;
  };
  const auto start_shard = [&](int job) {
    const int shard = shard_index(job);
    out.flush();
    err.flush();
    std::fflush(nullptr);  // nothing buffered may be written twice, by a shard too
    log_size_at_start[job] = log_size(job);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(progress[0]);
      int status = 0;
      try {
        if (!run_shard(shard, shard_count, items, seed, implementations, dir, progress[1])) status = stopped_status();
      } catch (const std::exception& e) {
        // A failure of gjkref's own (a file it cannot write, ...): named, and the shard ends; what it logged stays.
        std::fprintf(stderr, "gjkref check: shard %d stopped: %s\n", shard, e.what());
        status = 3;
      }
      implementations.clear();  // stops the shard's workers
      std::fflush(nullptr);
      ::_exit(status);
    }
    if (pid > 0) running[pid] = job;
    return pid > 0;
  };
  // A stop signal while the shards start ends the starting: those running are stopped by the loop below.
  for (int job = 0; job < o.jobs && g_stop_signal == 0; ++job)
    if (!start_shard(job)) {
      err << "gjkref check: cannot fork\n";
      for (const auto& [pid, j] : running) ::kill(pid, SIGTERM);
      return 2;
    }
  // The rate is measured from the first item finished in this run, not from the start: loading the implementations
  // and skipping a resumed campaign's logged items take time that says nothing about the rest. The ETA is shown once
  // kEtaAfterItems items give a rate.
  constexpr std::size_t kEtaAfterItems = 20;
  std::optional<std::chrono::steady_clock::time_point> first_done;
  std::size_t finished = already, finished_at_first = already;
  const bool tty = o.progress && ::isatty(STDERR_FILENO);
  std::size_t next_report = 0;
  bool forwarded = false, shard_died = false;
  const auto show_progress = [&](std::size_t ticks) {
    const auto now = std::chrono::steady_clock::now();
    if (!first_done) first_done = now, finished_at_first = finished;
    finished += ticks;
    const double seconds = std::chrono::duration<double>(now - *first_done).count();
    const std::size_t measured = finished - finished_at_first;
    const double rate = seconds > 0 ? static_cast<double>(measured) / seconds : 0;
    const int percent = static_cast<int>(100 * finished / to_run);
    if (o.progress && (tty || finished >= next_report || finished == to_run)) {
      constexpr int kBarWidth = 30;
      const int filled = kBarWidth * percent / 100;
      err << (tty ? "\r" : "") << "[" << std::string(filled, '=') << std::string(kBarWidth - filled, ' ') << "] "
          << finished << "/" << to_run << " cases, ";
      if (measured >= kEtaAfterItems && rate > 0)
        err << std::fixed << std::setprecision(1) << rate << " cases/s, ETA "
            << static_cast<long long>(static_cast<double>(to_run - finished) / rate) << " s   "
            << std::defaultfloat;
      else
        err << "measuring the rate   ";
      err << (tty ? "" : "\n");
      next_report = finished + to_run / 10;
    }
  };
  // The parent keeps the pipe's writing end (to start shards again), so it watches its shards end rather than
  // waiting for the end of the pipe.
  char buffer[256];
  while (!running.empty()) {
    pollfd ready{progress[0], POLLIN, 0};
    const int polled = ::poll(&ready, 1, 200);
    if (g_stop_signal != 0 && !forwarded) {
      for (const auto& [pid, job] : running) ::kill(pid, SIGTERM);
      forwarded = true;
    }
    if (polled > 0 && (ready.revents & POLLIN) != 0) {
      const ssize_t k = ::read(progress[0], buffer, sizeof buffer);
      if (k > 0) show_progress(static_cast<std::size_t>(k));
    }
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      const pid_t pid = it->first;
      const int job = it->second;
      if (::waitpid(pid, &status, WNOHANG) != pid) {
        ++it;
        continue;
      }
      it = running.erase(it);
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
      if (stopped_by_a_signal(status)) {
        if (g_stop_signal != 0) continue;  // gjkref is stopping too: the campaign is interrupted, and says so
        signalled_alone.emplace_back("shard " + std::to_string(shard_index(job)), status);
      }
      const bool timed_out = WIFEXITED(status) && WEXITSTATUS(status) == oracle::kTimeLimitExitStatus;
      if (timed_out && g_stop_signal == 0 && log_size(job) > log_size_at_start[job] && start_shard(job)) continue;
      if (!(timed_out && g_stop_signal != 0)) shard_died = true;
    }
  }
  ::close(progress[1]);
  for (ssize_t k; (k = ::read(progress[0], buffer, sizeof buffer)) > 0;) show_progress(static_cast<std::size_t>(k));
  report_signalled_alone(err, signalled_alone);
  if (tty) err << "\n";
  ::close(progress[0]);
  // The counterexamples, chosen now that the cases are judged (the first of each kind in the campaign's order, so that
  // one job and many save the same), shrunk and saved in `jobs` processes. Those already saved (by a run this one
  // resumes) are not redone; an interrupted campaign saves none now, and its resumption does.
  bool oracle_failed_while_shrinking = false;
  const bool saving_stopped =
      g_stop_signal == 0 && !save_counterexamples(dir, o, seed, implementations, err, oracle_failed_while_shrinking);
  // The reports are written with the signals still only noted: a second SIGINT (timeout(1) and a terminal's process
  // group each deliver one) killed gjkref while it wrote them, leaving no report and a results.csv cut short. Writing
  // them takes moments; a signal during it changes nothing, the campaign having stopped already or finished.
  const int stopped_by = g_stop_signal;
  std::string scope;
  if (o.slice)
    scope = "**Slice " + std::to_string(o.slice->first) + "/" + std::to_string(o.slice->second) + "** of a campaign of " +
            std::to_string(items.size()) + " cases: this directory holds " + std::to_string(to_run) +
            " of them. `gjkref merge --out DIR` with every slice's directory writes the campaign's report "
            "(docs/scaling.md).";
  // The logs again, with what the shards added (lines gjkref itself wrote: one that does not check is a bug).
  const CampaignLogs logs = read_logs(dir, keys, order);
  if (!logs.error.empty()) {
    err << "gjkref check: a shard logged a line gjkref cannot read back, a bug in gjkref: " << logs.error << "\n";
    return 3;
  }
  const Reports rep = build_reports(dir, logs.lines, order, seed, o, to_run, stopped_by, scope,
                                    shard_died ? "a shard process stopped early; rerun the same command to resume" : "");
  out << "\n";
  print_table(out, rep, order);
  out << "\n" << rep.items << " cases; " << rep.counterexamples.size() << " counterexamples saved; report: "
      << (dir / "report.md").string() << ", " << (dir / "report.json").string() << ", "
      << (dir / "results.csv").string() << "\n";
  if (rep.oracle_failures > 0)
    err << "gjkref check: THE ORACLE FAILED on " << rep.oracle_failures << " cases (saved in "
        << (dir / "oracle-failures").string() << "): a bug in gjkref; please report it\n";
  if (!rep.oracle_timeouts.empty())
    err << "gjkref check: " << rep.oracle_timeouts.size() << " cases not judged: an oracle call passed its time limit of "
        << o.oracle_time_limit_seconds << " s (listed in report.md; cases in " << (dir / "oracle-failures").string()
        << ")\n";
  if (shard_died)
    err << "gjkref check: a shard process stopped early (its message is above); what it finished is in the report; "
        << "rerun the same command to resume\n";
  if (saving_stopped)
    err << "gjkref check: a process saving counterexamples stopped early (its message is above); rerun the same "
        << "command to save the rest\n";
  if (oracle_failed_while_shrinking)
    err << "gjkref check: THE ORACLE FAILED on a case made while shrinking a counterexample (named above, saved in "
        << (dir / "oracle-failures").string() << "): a bug in gjkref; please report it\n";
  // Exit status (docs/comparing.md): 3 when gjkref itself failed (an oracle, a shard), else 1 when any judged answer
  // is outside its contract, else 5 with --fail-on-refusal when any input was refused, else 4 when an implementation
  // had no answer judged, else 0.
  if (stopped_by != 0) {
    err << "gjkref check: interrupted (" << (stopped_by == SIGINT ? "SIGINT" : "SIGTERM") << ") after " << rep.items
        << " of " << to_run << " cases; the report is partial. Rerun the same command to resume.\n";
    return 128 + stopped_by;
  }
  if (shard_died || saving_stopped || oracle_failed_while_shrinking || rep.oracle_failures > 0) return 3;
  if (rep.disagreements > 0) {
    err << "gjkref check: " << rep.disagreements << " answers outside their contract\n";
    return 1;
  }
  if (o.fail_on_refusal)
    if (const int status = refusal_status(rep, order, *o.fail_on_refusal, every_name, "check", err)) return status;
  return nothing_judged_status(rep, order, "check", err);
}

// ---- gjkref merge ---------------------------------------------------------------------------------------------------

static int merge_slices(const MergeOptions& m, std::ostream& out, std::ostream& err);

int run_merge(const MergeOptions& m, std::ostream& out, std::ostream& err) {
  try {
    return merge_slices(m, out, err);
  } catch (const json::exception& e) {  // a campaign.json or log edited into what gjkref check never writes
    err << "gjkref merge: a slice's files are malformed (a campaign.json or a log edited; " << one_line(e.what())
        << ")\n";
    return 2;
  }
}

static int merge_slices(const MergeOptions& m, std::ostream& out, std::ostream& err) {
  if (m.dirs.empty()) {
    err << "gjkref merge: name the directories of the slices (gjkref check --shard K/N --out DIR)\n";
    return 2;
  }
  // Every directory holds a slice of one campaign: the same identity but for the slice, the same count of slices,
  // each slice once.
  json whole;
  int count = 0;
  std::set<int> indices;
  std::vector<std::pair<int, fs::path>> given;  // each directory with its slice index
  for (const std::string& d : m.dirs) {
    if (d.empty()) {  // fs::path("") / "campaign.json" is the working directory's
      err << "gjkref merge: an empty argument ('') names no slice directory\n";
      return 2;
    }
    const fs::path file = fs::path(d) / "campaign.json";
    std::ifstream f(file);
    json identity = f ? json::parse(f, nullptr, false) : json();
    const auto whole_number = [](const json& j, const char* key) {
      return j.is_object() && j.contains(key) && j[key].is_number_integer();
    };
    const auto non_empty_array = [](const json& j, const char* key) {
      return j.contains(key) && j[key].is_array() && !j[key].empty();
    };
    // As identity_of writes it (an edited file with no family gave a merge of "0 of 0 cases", exit 0).
    const bool slice = identity.is_object() && identity.value("format", json()) == "gjkref-check/1" &&
                       identity.contains("source") && identity["source"].is_string() &&
                       identity.contains("versions") && identity["versions"].is_object() &&
                       identity.contains("slice") &&
                       whole_number(identity["slice"], "index") && whole_number(identity["slice"], "count") &&
                       whole_number(identity, "cases") && whole_number(identity, "seed") &&
                       identity["seed"].is_number_unsigned() &&  // a seed is 0 to 2^64 − 1 (−1 was read as 2^64 − 1)
                       non_empty_array(identity, "families") && non_empty_array(identity, "dims") &&
                       non_empty_array(identity, "implementations");
    if (!slice) {
      err << "gjkref merge: " << d << " holds no slice of a campaign (" << file.string()
          << " is missing, malformed, or was not written by gjkref check --shard K/N)\n";
      return 2;
    }
    // What --shard K/N and --cases accept (an edited file could hold anything: a count of 0 made the deal of the
    // cases below loop for ever).
    const auto within = [](const json& j, const char* key, std::int64_t low, std::int64_t high) {
      const std::int64_t v = j[key].is_number_unsigned() && j[key].get<std::uint64_t>() > std::uint64_t(high)
                                 ? high + 1
                                 : j[key].get<std::int64_t>();
      return v >= low && v <= high;
    };
    constexpr std::int64_t kLargest = std::numeric_limits<int>::max();
    if (!within(identity["slice"], "count", 1, kLargest) ||
        !within(identity["slice"], "index", 0, identity["slice"]["count"].get<std::int64_t>() - 1) ||
        !within(identity, "cases", 1, kLargest)) {
      err << "gjkref merge: " << file.string() << " names no slice gjkref check writes (its slice needs 0 <= index < "
          << "count, and cases >= 1)\n";
      return 2;
    }
    const int index = identity["slice"]["index"].get<int>(), slices = identity["slice"]["count"].get<int>();
    identity.erase("slice");
    if (whole.is_null()) {
      whole = identity;
      count = slices;
    } else if (identity != whole || slices != count) {
      err << "gjkref merge: " << d << " holds a slice of another campaign (its campaign.json differs from "
          << m.dirs.front() << "'s in: "
          << (slices != count ? std::string("the number of slices") : differing_fields(whole, identity))
          << "; a different source or versions mean another build of gjkref or of an implementation)\n";
      return 2;
    }
    if (!indices.insert(index).second) {
      err << "gjkref merge: slice " << index << "/" << count << " is named twice (" << d << ")\n";
      return 2;
    }
    // Its logs must be files: a directory, a device or a pipe named shard-K.jsonl is no log of a slice (one was read
    // for ever from /dev/zero).
    for (const auto& entry : fs::directory_iterator(d))
      if (entry.path().extension() == ".jsonl" && !fs::is_regular_file(entry.path())) {
        err << "gjkref merge: " << entry.path().string() << " is not a regular file: no log gjkref check writes\n";
        return 2;
      }
    given.push_back({index, d});
  }
  // Each slice's logs, checked: its share of the campaign's items, its implementations (read_logs).
  CheckOptions campaign;
  campaign.families = whole["families"].get<std::vector<std::string>>();
  campaign.dims = whole["dims"].get<std::vector<int>>();
  campaign.cases = whole["cases"].get<int>();
  const auto order = whole["implementations"].get<std::vector<std::string>>();
  const std::vector<Item> items = items_of(campaign);
  std::map<int, std::size_t> logged_of_slice, share_of_slice, unsaved_of_slice;
  for (const auto& [index, slice_dir] : given) {
    const std::vector<std::size_t> share = shard_positions(items.size(), index, count);
    const CampaignLogs logs = read_logs(slice_dir, keys_at(items, share), order);
    if (!logs.error.empty()) {
      err << "gjkref merge: slice " << index << "/" << count << "'s logs are not its campaign's: " << logs.error << "\n";
      return 2;
    }
    logged_of_slice[index] = logs.lines.size();
    share_of_slice[index] = share.size();
    // A slice stopped after its last case was logged but before its counterexamples were saved (killed by a scheduler)
    // has every case and not every counterexample: it did not finish either.
    std::size_t unsaved = 0;
    for (const Candidate& cand : counterexamples_to_save(slice_dir))
      unsaved += !fs::exists(slice_dir / counterexample_path(cand.implementation, cand.finding, cand.item));
    unsaved_of_slice[index] = unsaved;
  }
  const fs::path dir = m.out;
  // An output inside a slice (or the slice itself) would be copied into itself, recursively, and the slice altered.
  for (const std::string& d : m.dirs) {
    std::error_code ec;
    const auto resolved = [&ec](const fs::path& p) {  // absolute, links resolved, without a trailing separator
      const fs::path r = fs::weakly_canonical(p, ec);
      return r.has_filename() ? r : r.parent_path();
    };
    const fs::path slice = resolved(d), output = resolved(dir);
    if (ec || dir.empty()) continue;
    const auto [end, rest] = std::mismatch(slice.begin(), slice.end(), output.begin(), output.end());
    if (end == slice.end()) {
      err << "gjkref merge: --out " << dir.string() << " is inside the slice " << d
          << " (it would be copied into itself); merge into a directory outside every slice\n";
      return 2;
    }
  }
  if (const std::string why = why_not_an_output_directory(dir); !why.empty()) {
    err << "gjkref merge: --out " << (dir.empty() ? "\"\"" : dir.string()) << ": " << why << "\n";
    return 2;
  }
  if (!fs::is_empty(dir)) {
    err << "gjkref merge: --out " << dir.string() << " is not empty; merge into a new or empty directory\n";
    return 2;
  }
  // The slices' logs (shard-K.jsonl: each shard's index is the campaign's, so no two slices share a name), their
  // counterexamples and their oracle failures, copied.
  try {
    for (const std::string& d : m.dirs)
      for (const auto& entry : fs::directory_iterator(d)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".jsonl")
          fs::copy_file(entry.path(), dir / name, fs::copy_options::none);
        else if (entry.is_directory() && (name == "counterexamples" || name == "oracle-failures"))
          fs::copy(entry.path(), dir / name, fs::copy_options::recursive);
      }
  } catch (const fs::filesystem_error& e) {
    // A file it could not read or write (docs/comparing.md: exit status 3). The directory was empty: what was copied
    // into it goes, so that the same command can run again once the cause is mended.
    std::error_code ec;
    std::vector<fs::path> copied;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      copied.push_back(it->path());
    for (const fs::path& p : copied) fs::remove_all(p, ec);
    const bool emptied = fs::is_empty(dir, ec) && !ec;
    err << "gjkref merge: stopped: " << e.what()
        << (emptied ? " (nothing is left in " + dir.string() + ")"
                    : " (what was copied into " + dir.string() + " could not all be removed: remove it before merging again)")
        << "\n";
    return 3;
  }
  // Each slice saved the first counterexamples of each kind among its own cases; the first of the union are the
  // campaign's (counterexamples_to_save).
  prune_counterexamples(dir);
  whole.erase("cases");
  write_atomically(dir / "campaign.json", json_text(whole, 2) + "\n");

  const CheckOptions& o = campaign;
  const std::uint64_t seed = whole["seed"].get<std::uint64_t>();
  const std::size_t campaign_items = static_cast<std::size_t>(o.cases) * o.families.size() * o.dims.size();
  // Why the merge is partial, if it is: slices missing, and slices that did not finish (interrupted, or cut off by a
  // scheduler's time limit): each slice's logged cases against its share of the deal (shard_positions).
  std::string why_partial;
  // Slice k is dealt positions k, k + count, ...: those from the number of cases on have none, and missing they take
  // nothing from the campaign (their absence made the report say "partial" while the merge said it was whole).
  const int dealt = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(count), items.size()));
  const auto slices_dealt_given =
      static_cast<int>(std::count_if(indices.begin(), indices.end(), [&](int k) { return k < dealt; }));
  if (slices_dealt_given < dealt) {
    why_partial = "merged " + std::to_string(indices.size()) + " of the campaign's " + std::to_string(count) +
                  " slices; missing:";
    // As runs ("3/8", "5-7/8"): as long as the slices given, not the count (999,998 missing ones were listed one by
    // one, a report of 14 MB).
    for (int k = 0; k < dealt; ++k) {
      if (indices.count(k)) continue;
      int last = k;
      while (last + 1 < dealt && !indices.count(last + 1)) ++last;
      why_partial += " " + std::to_string(k) + (last > k ? "-" + std::to_string(last) : "") + "/" + std::to_string(count);
      k = last;
    }
  }
  bool unfinished = false;
  for (const auto& [index, logged] : logged_of_slice) {
    const std::string slice = "slice " + std::to_string(index) + "/" + std::to_string(count);
    if (logged < share_of_slice[index])
      why_partial += (why_partial.empty() ? "" : "; ") + slice + " did not finish (" + std::to_string(logged) +
                     " of its " + std::to_string(share_of_slice[index]) +
                     " cases; rerun it, then merge again into a new directory)";
    else if (unsaved_of_slice[index] > 0)
      why_partial += (why_partial.empty() ? "" : "; ") + slice + " did not finish: " +
                     std::to_string(unsaved_of_slice[index]) +
                     " of its counterexamples are not saved (rerun it, then merge again into a new directory)";
    unfinished |= logged < share_of_slice[index] || unsaved_of_slice[index] > 0;
  }
  std::set<std::string> all_keys;
  for (const Item& item : items) all_keys.insert(item.key());
  const CampaignLogs logs = read_logs(dir, all_keys, order);
  if (!logs.error.empty()) {  // each slice's logs were checked above: only a copy gone wrong gets here
    err << "gjkref merge: the merged logs cannot be read back: " << logs.error << "\n";
    return 3;
  }
  const Reports rep = build_reports(dir, logs.lines, order, seed, o, campaign_items, 0, "", why_partial);
  out << "gjkref merge: " << m.dirs.size() << " of " << count << " slices of the campaign with seed " << seed
      << ", output in " << dir.string() << "\n\n";
  print_table(out, rep, order);
  out << "\n" << rep.items << " of " << campaign_items << " cases; " << rep.counterexamples.size()
      << " counterexamples saved; report: " << (dir / "report.md").string() << ", " << (dir / "report.json").string()
      << ", " << (dir / "results.csv").string() << "\n";
  // --fail-on-refusal=NAMES, as check reads it, against the campaign's implementations: each name must choose one
  // that was given cases (one in none of the campaign's dimensions logged nothing), or the gate would pass on anything.
  if (m.fail_on_refusal)
    for (const std::string& w : *m.fail_on_refusal)
      if (std::none_of(order.begin(), order.end(), [&](const std::string& name) {
            return named_by(w, name, order) && rep.by_implementation.count(name) > 0;
          })) {
        err << "gjkref merge: --fail-on-refusal " << one_line(w)
            << ": names no implementation of this campaign that was given cases\n";
        return 2;
      }
  const bool partial = static_cast<std::size_t>(rep.items) < campaign_items || unfinished;
  if (partial)
    err << "gjkref merge: the report is partial: " << rep.items << " of " << campaign_items << " cases"
        << (unfinished ? "; " + why_partial : " (a slice is missing or did not finish; rerun it, then merge again into a new directory)")
        << "\n";
  if (rep.oracle_failures > 0) {
    err << "gjkref merge: THE ORACLE FAILED on " << rep.oracle_failures << " cases (saved in "
        << (dir / "oracle-failures").string() << "): a bug in gjkref; please report it\n";
    return 3;
  }
  // A partial campaign (cases missing: the reports say "partial") is not a verdict on the implementations, whatever
  // its answers: 3, as a shard of check that stopped early, so that a CI job gated on the merge fails.
  if (rep.disagreements > 0) err << "gjkref merge: " << rep.disagreements << " answers outside their contract\n";
  if (partial) return 3;
  if (rep.disagreements > 0) return 1;
  if (m.fail_on_refusal)
    if (const int status = refusal_status(rep, order, *m.fail_on_refusal, order, "merge", err)) return status;
  return nothing_judged_status(rep, order, "merge", err);
}

}  // namespace gjkref::cli
