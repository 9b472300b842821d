#include "eval.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "gjkref/casefile.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/judge.hpp"
#include "gjkref/oracle.hpp"
#include "fault.hpp"
#include "selection.hpp"
#include "text.hpp"

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

// The width of the console table's "distance or depth" column: "depth " and a double in 17 significant digits,
// sign and three-digit exponent included (30 characters), and a space.
constexpr int kMeasuredColumn = 31;

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

std::string format_double(double x) {
  std::ostringstream os;
  os << std::setprecision(17) << x;
  return os.str();
}

}  // namespace

std::string warm_start_text(const casefile::Case& c) {
  if (c.warm_start->direction) return "direction " + vector_text(*c.warm_start->direction, c.dim);
  std::ostringstream os;
  os << "pairs";
  for (const auto& [ia, ib] : c.warm_start->pairs) os << " (" << ia << ", " << ib << ")";
  return os.str();
}

namespace {

// The most pairs of points n_A·n_B on which eval asks Boost.Geometry for its opinion. boost_geometry_opinion builds the
// hull of all n_A·n_B differences in memory, 16 bytes each before the hull's own copies: 20,000 + 20,000 points took
// 12.5 GB and more than a minute, for an opinion that is never judged. A million pairs take about 50 MB and under half a
// second, and every generated case (at most 64 points a shape) is far below it. Beyond it the opinion is skipped and
// said to be. A cost limit, not a tolerance.
constexpr double kOpinionReachPairs = 1e6;

// What one case added to eval's counts. oracle_disagreements: the oracle's methods disagreed or failed their
// certificates; internal_errors: the case's process ended without a result (a crash in gjkref, CGAL or a built-in
// library); oracle_timeouts: an oracle call passed its time limit, and no answer on the case was judged;
// one_method: cases beyond the second method's reach, answered by one exact method alone.
struct Tally {
  int evaluated = 0, disagreements = 0, oracle_disagreements = 0, internal_errors = 0, oracle_timeouts = 0,
      one_method = 0;
};

// A case on which an oracle failed: its line (JSON: "result": "oracle-failed", with the reason) or block (text) in
// `out`, so that the case is not missing from the results, and the message on `err`.
void report_oracle_failure(const Case& c, const std::string& file, const EvalOptions& options, const std::string& oracle,
                           const std::string& what, std::ostream& out, std::ostream& err) {
  const std::string why = oracle + " FAILED: " + what + "; no answer on this case is judged";
  if (options.json)
    out << json_text({{"name", c.name}, {"dim", c.dim}, {"file", file}, {"result", "oracle-failed"}, {"reason", why}})
        << "\n";
  else
    out << one_line(c.name) << " (" << c.dim << "D, " << file << ")\n  oracle-failed: " << why << "\n\n";
  err << "gjkref eval: " << oracle << " FAILED on case '" << one_line(c.name) << "' (" << file << "): " << what
      << "\nThis is a bug in gjkref; please report it with the case file.\n";
}

// One case: both exact methods, each implementation judged, the result written to `out` (a JSON line or a block of
// text), gjkref's own failures to `err`.
Tally evaluate_case(const Case& c, const std::string& file, const EvalOptions& options,
                    const std::vector<std::unique_ptr<impl::Implementation>>& chosen, std::ostream& out,
                    std::ostream& err) {
  Tally t;
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
    injected_fault("distance-oracle");
    truth = impl::within_hull_reach(c) ? oracle::hull_oracle(c) : oracle::fast_oracle(c);
    if (points <= oracle::kQpReachPoints) {
      check = oracle::qp_oracle(c);
      second = oracle::Method::Qp;
    } else if (truth.method == oracle::Method::Hull) {
      check = oracle::fast_oracle(c);
      if (check.method != oracle::Method::Hull) second = check.method;
    }
    if (!second) check = truth, ++t.one_method;
  } catch (const std::logic_error& e) {
    report_oracle_failure(c, file, options, "THE ORACLE", e.what(), out, err);
    ++t.oracle_disagreements;
    ++t.evaluated;
    return t;
  }
  bool methods_agree = truth.verdict == check.verdict && truth.squared_distance == check.squared_distance;
  for (int k = 0; k < 3; ++k)
    methods_agree = methods_agree && truth.witness_a[k] - truth.witness_b[k] == check.witness_a[k] - check.witness_b[k];
  if (!methods_agree) {
    err << "gjkref eval: THE TWO EXACT ORACLES DISAGREE on case '" << one_line(c.name) << "' (" << file << "): hull says "
        << oracle::to_string(truth.verdict) << " d^2 = " << truth.squared_distance << ", QP says "
        << oracle::to_string(check.verdict) << " d^2 = " << check.squared_distance
        << ". This is a bug in gjkref; please report it with the case file.\n";
    ++t.oracle_disagreements;
  }
  ++t.evaluated;
  // The penetration depth of touching and overlapping pairs: within the hull's reach by both methods (the hull's,
  // certificate checked, and the support method's: a disagreement is a bug in gjkref, as above); beyond it the
  // certified reference's, its certificate checked (impl::Truth::penetration), one method. Computed here, before any
  // answer is judged, so that its failure is said as the oracle's whichever method failed.
  const impl::Truth exact_truth(c, truth);
  std::optional<oracle::Penetration> depth;
  if (truth.verdict == oracle::Verdict::Overlapping || truth.verdict == oracle::Verdict::Touching) {
    try {
      injected_fault("depth-oracle");
      depth = exact_truth.penetration();
      if (depth->method == oracle::Method::Hull) oracle::cross_check_penetration(c, truth, *depth);
    } catch (const std::logic_error& e) {
      report_oracle_failure(c, file, options, "THE PENETRATION-DEPTH ORACLE", e.what(), out, err);
      ++t.oracle_disagreements;
      return t;
    }
  }
  nlohmann::json results = nlohmann::json::object();
  std::ostringstream rows;
  for (const auto& implementation : chosen) {
    const impl::Info& info = implementation->info();
    const impl::Result r = implementation->run(c);
    const impl::Judged j = impl::judge(exact_truth, r, info);  // the depth, if it needs one, is computed above
    if (!j.judged && r.status == impl::Status::Unsupported) continue;
    if (j.disagrees()) ++t.disagreements;
    const std::string agrees = impl::summary(j);
    nlohmann::json row = {{"verdict", verdict_text(r)},
                          {"status", impl::to_string(r.status)},
                          {"detail", r.detail},
                          {"judged", j.judged},
                          {"finding", impl::to_string(j.finding)},
                          {"agrees", !j.disagrees()},
                          {"within_band", j.within_band()}};
    if (!j.judged) row["not_judged"] = j.not_judged;
    if (!j.contacts_judged_in_part.empty()) row["contacts_judged_in_part"] = j.contacts_judged_in_part;
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
    const std::string detail = one_line(r.detail);
    rows << "  " << std::left << std::setw(26) << info.name << std::setw(16) << verdict_text(r)
         << std::setw(kMeasuredColumn) << measured << std::setw(30)
         << first_bytes(detail, 28) << agrees << "\n";
    if (j.disagrees() && detail.size() > 28) rows << "      details: " << detail << "\n";
  }
  // Boost.Geometry's double-precision answer (2D only): an opinion shown beside the exact one, never judged, and
  // skipped beyond its reach (kOpinionReachPairs).
  const bool opinion_within_reach = pairs <= kOpinionReachPairs;
  const std::optional<oracle::Opinion> opinion =
      opinion_within_reach ? oracle::boost_geometry_opinion(c) : std::nullopt;
  nlohmann::json opinions = nlohmann::json::object();
  if (c.dim == 2 && !opinion_within_reach) {
    std::ostringstream why;
    why << "skipped: " << std::setprecision(15) << pairs << " pairs of points, above the "
        << kOpinionReachPairs << " it is asked on (it builds the hull of every difference in memory)";
    opinions["boost-geometry"] = {{"skipped", why.str()}};
    rows << "  " << std::left << std::setw(26) << "boost-geometry (opinion)" << why.str() << "\n";
  }
  if (opinion) {
    const bool same = opinion->intersecting == (truth.verdict != oracle::Verdict::Separated);
    opinions["boost-geometry"] = {{"verdict", opinion->intersecting ? "intersecting" : "separated"},
                                  {"distance", opinion->distance},
                                  {"same_verdict_as_oracle", same}};
    rows << "  " << std::left << std::setw(26) << "boost-geometry (opinion)" << std::setw(16)
         << (opinion->intersecting ? "intersecting" : "separated") << std::setw(kMeasuredColumn)
         << format_double(opinion->distance) << std::setw(30) << "double, not judged"
         << (same ? "same verdict" : "other verdict") << "\n";
  }
  if (options.json) {
    nlohmann::json line = {{"result", "evaluated"},
                           {"name", c.name},
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
    if (truth.verdict == oracle::Verdict::InvalidInput) {  // no method ran: no distance and no certificate to report
      auto& o = line["oracle"];
      o["distance"] = nullptr;
      o["squared_distance"] = nullptr;
      o["certificate"] = "none";
      o["method"] = "none";
      o["second_method"] = "none";
      o["methods_agree"] = nullptr;
    }
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
      o["depth_method"] = oracle::to_string(depth->method);
      if (depth->method == oracle::Method::Hull) o["depth_methods_agree"] = true;
      else o["depth_methods_agree"] = nullptr;  // one method: the certified depth, beyond the hull's reach
    }
    out << json_text(line) << "\n";
  } else {
    out << one_line(c.name) << " (" << c.dim << "D, " << file << ")\n  oracle: " << oracle::to_string(truth.verdict);
    if (truth.verdict == oracle::Verdict::InvalidInput)
      out << " (no method runs on it: no distance, no certificate)\n";
    else
      out << ", d^2 = " << rational_text(truth.squared_distance) << ", d = " << format_double(truth.distance)
          << ", closest feature " << oracle::to_string(truth.feature) << ", certificate checked ("
          << oracle::to_string(truth.method) << " method"
          << (!second         ? std::string(", no second method within reach")
              : methods_agree ? std::string(", checked by the ") + oracle::to_string(*second) + " method"
                              : std::string(", THE ") + oracle::to_string(*second) + " METHOD DISAGREES")
          << ")\n";
    if (c.warm_start)
      out << "  warm start (the reference's modes; the others answer cold): " << warm_start_text(c) << "\n";
    if (depth && truth.verdict == oracle::Verdict::Overlapping)
      out << "  penetration depth: PD^2 = " << rational_text(depth->squared_depth) << ", PD = "
          << format_double(depth->depth) << ", " << depth->optimal.size() << " optimal facet(s) (normal "
          << vector_text(unit_normal(depth->optimal.front().normal), c.dim) << "), certificate checked, "
          << (depth->method == oracle::Method::Hull ? "both methods agree"
                                                    : "the certified reference's (beyond the hull's reach: one method)")
          << "\n";
    out
        << "  " << std::left << std::setw(26) << "implementation" << std::setw(16) << "verdict"
        << std::setw(kMeasuredColumn) << "distance or depth" << std::setw(30) << "details"
        << "agrees\n"
        << rows.str() << "\n";
  }
  return t;
}

// ---- one process per case ------------------------------------------------------------------------------------------
//
// Each case is evaluated in a process of its own, forked from eval, whose output comes back through a pipe as one JSON
// line. A CGAL call cannot be stopped, so an oracle call that passes its time limit ends that process
// (oracle::on_time_limit), and eval reports the case as `oracle-timeout`; any other end without a result (a crash in
// CGAL or in an in-process library, memory exhausted) is reported for that case alone. Cases before and after are not
// affected, and each result is written as soon as its case is done.

int g_result_fd = -1;  // the case process's end of the pipe

void write_message(const nlohmann::json& message) {
  const std::string text = json_text(message) + "\n";
  const char* p = text.data();
  for (std::size_t left = text.size(); left > 0;) {
    const ssize_t k = ::write(g_result_fd, p, left);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    p += k;
    left -= static_cast<std::size_t>(k);
  }
}

void send_oracle_timeout(const Case&, const char* method, double limit_seconds) {
  write_message({{"oracle_timeout", method}, {"limit_seconds", limit_seconds}});
}

// A case whose process ended without a result: its line (JSON) or block (text), and what it adds to the counts.
Tally report_unfinished(const Case& c, const std::string& file, const EvalOptions& options, const nlohmann::json& said,
                        int status, std::ostream& out, std::ostream& err) {
  Tally t;
  std::string result, why;
  if (said.contains("oracle_timeout")) {
    result = "oracle-timeout";
    std::ostringstream os;
    os << "the oracle's " << said["oracle_timeout"].get<std::string>() << " method passed its time limit of "
       << said["limit_seconds"].get<double>() << " s of CPU time (--oracle-time-limit); no answer on this case is judged";
    why = os.str();
    ++t.oracle_timeouts;
  } else if (said.contains("too_large")) {
    result = "too-large";
    why = "memory ran out while evaluating this case (" + said["too_large"].get<std::string>() +
          "); no answer on it is judged";
    ++t.internal_errors;
  } else {
    result = "internal-error";
    std::ostringstream os;
    if (said.contains("internal_error"))
      os << "gjkref failed: " << said["internal_error"].get<std::string>();
    else if (WIFSIGNALED(status))
      os << "the case's process ended with signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")";
    else
      os << "the case's process ended with status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    os << " before its result; a bug in gjkref or in a built-in library: please report it with the case file";
    why = os.str();
    ++t.internal_errors;
  }
  if (options.json)
    out << json_text({{"name", c.name}, {"dim", c.dim}, {"file", file}, {"result", result}, {"reason", why}}) << "\n";
  else
    out << one_line(c.name) << " (" << c.dim << "D, " << file << ")\n  " << result << ": " << why << "\n\n";
  if (result != "oracle-timeout") err << "gjkref eval: case '" << one_line(c.name) << "' (" << file << "): " << why << "\n";
  return t;
}

// A case evaluated in eval's own process, because no process could be started for it (fork or pipe failed: the
// process limit, memory). An oracle call there that passes its limit cannot be stopped either, so eval ends: this
// action reports the case as oracle-timeout in its place, says that the cases after it were not evaluated, and ends
// eval with exit status 3 (gjkref failed to finish), where it aborted. It runs on the watchdog's thread while eval's
// thread is inside the call, so what it reads (set before the case) does not change under it.
struct InProcessCase {
  const Case* c = nullptr;
  const std::string* file = nullptr;
  const EvalOptions* options = nullptr;
  std::string why_in_process;
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
};
InProcessCase g_in_process;

void report_in_process_timeout(const Case&, const char* method, double limit_seconds) {
  const InProcessCase& x = g_in_process;
  // The case's line or block, as for a case whose own process passed the limit.
  report_unfinished(*x.c, *x.file, *x.options, {{"oracle_timeout", method}, {"limit_seconds", limit_seconds}}, 0, *x.out,
                    *x.err);
  x.out->flush();
  std::fprintf(stderr,
               "gjkref eval: stopped at case '%s' (%s): it ran in eval's own process (%s), where an oracle call past "
               "its time limit cannot be stopped; the cases after it were not evaluated\n",
               one_line(x.c->name).c_str(), x.file->c_str(), x.why_in_process.c_str());
  std::fflush(nullptr);
  std::_Exit(3);
}

Tally evaluate_in_eval(const Case& c, const std::string& file, const EvalOptions& options,
                       const std::vector<std::unique_ptr<impl::Implementation>>& chosen, std::ostream& out,
                       std::ostream& err, const std::string& why) {
  err << "gjkref eval: case '" << one_line(c.name) << "' (" << file << ") evaluated in eval's own process: " << why
      << "\n";
  g_in_process = {&c, &file, &options, why, &out, &err};
  oracle::on_time_limit(report_in_process_timeout);
  struct Restore {  // however the case ends
    ~Restore() {
      oracle::on_time_limit(nullptr);
      g_in_process = {};
    }
  } restore;
  // An error ends this case alone, reported as a case's process that ended without a result would be.
  try {
    return evaluate_case(c, file, options, chosen, out, err);
  } catch (const std::bad_alloc& e) {
    return report_unfinished(c, file, options, {{"too_large", e.what()}}, 0, out, err);
  } catch (const std::exception& e) {
    return report_unfinished(c, file, options, {{"internal_error", e.what()}}, 0, out, err);
  }
}

Tally evaluate_in_a_process(const Case& c, const std::string& file, const EvalOptions& options,
                            const std::vector<std::unique_ptr<impl::Implementation>>& chosen, std::ostream& out,
                            std::ostream& err) {
  int fds[2];
  out.flush();
  err.flush();
  std::fflush(nullptr);  // nothing buffered may be written twice
  if (::pipe(fds) != 0)
    return evaluate_in_eval(c, file, options, chosen, out, err, std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = is_fault_injected("fork") ? (errno = EAGAIN, -1) : ::fork();
  if (pid < 0) {
    const std::string why = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return evaluate_in_eval(c, file, options, chosen, out, err, why);
  }
  if (pid == 0) {
    // The case's process dies with eval, however eval dies (SIGTERM from a supervisor to eval alone, a kill), and its
    // workers die with it (PR_SET_PDEATHSIG, impl/worker.cpp): nothing is left running an oracle or waiting on a hung
    // plugin until --time-limit, up to 10^6 s.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);  // eval died before prctl took effect
    ::close(fds[0]);
    g_result_fd = fds[1];
    oracle::on_time_limit(send_oracle_timeout);
    std::ostringstream case_out, case_err;
    try {
      const Tally t = evaluate_case(c, file, options, chosen, case_out, case_err);
      write_message({{"evaluated", t.evaluated},
                     {"disagreements", t.disagreements},
                     {"oracle_disagreements", t.oracle_disagreements},
                     {"one_method", t.one_method},
                     {"out", case_out.str()},
                     {"err", case_err.str()}});
    } catch (const std::bad_alloc& e) {
      write_message({{"too_large", e.what()}});
    } catch (const std::exception& e) {
      write_message({{"internal_error", e.what()}});
    }
    std::fflush(nullptr);
    ::_exit(0);  // the workers this process started end with it (PR_SET_PDEATHSIG)
  }
  ::close(fds[1]);
  std::string received;
  char buffer[65536];
  for (;;) {
    const ssize_t k = ::read(fds[0], buffer, sizeof buffer);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    received.append(buffer, static_cast<std::size_t>(k));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  nlohmann::json said = nlohmann::json::object();
  if (const auto end = received.find('\n'); end != std::string::npos) {
    nlohmann::json parsed = nlohmann::json::parse(received.substr(0, end), nullptr, false);
    if (parsed.is_object()) said = std::move(parsed);
  }
  if (said.contains("evaluated") && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    out << said["out"].get<std::string>();
    err << said["err"].get<std::string>();
    Tally t;
    t.evaluated = said["evaluated"].get<int>();
    t.disagreements = said["disagreements"].get<int>();
    t.oracle_disagreements = said["oracle_disagreements"].get<int>();
    t.one_method = said["one_method"].get<int>();
    return t;
  }
  return report_unfinished(c, file, options, said, status, out, err);
}

}  // namespace

int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err) {
  auto selected = select_implementations(options.implementations, options.plugins, err,
                                         {options.time_limit_seconds, options.memory_limit_mib});
  if (!selected) return 2;
  const auto& chosen = *selected;

  oracle::set_time_limit(options.oracle_time_limit_seconds);
  int status = 0;
  int evaluated = 0, disagreements = 0, oracle_disagreements = 0, internal_errors = 0, oracle_timeouts = 0,
      one_method = 0;
  // A file refused whole: its reason on stderr and, with --json, a line of its own in the file's place (a reader of
  // the lines alone would otherwise see the file's cases missing without a word); exit status 2 at the end.
  const auto refuse = [&](const std::string& file, const std::string& why) {
    err << "gjkref eval: " << message_text(why) << "\n";
    if (options.json) out << json_text({{"file", file}, {"result", "rejected"}, {"reason", message_text(why)}}) << "\n";
    status = 2;
  };
  for (const std::string& file : options.files) {
    std::error_code ec;
    if (file.empty()) {  // casefile's message names the file, and '' would leave it nameless
      refuse(file, "an empty argument ('') names no case file");
      continue;
    }
    if (std::filesystem::is_directory(file, ec)) {  // read_file would read it as an empty, malformed file
      refuse(file, file + ": is a directory (give its case files: " + file + "/*.json)");
      continue;
    }
    const casefile::Parsed parsed = casefile::read_file(file);
    if (parsed.error) {
      refuse(file, parsed.error->message());
      continue;
    }
    for (const Case& c : parsed.cases) {
      const Tally t = evaluate_in_a_process(c, file, options, chosen, out, err);
      evaluated += t.evaluated;
      disagreements += t.disagreements;
      oracle_disagreements += t.oracle_disagreements;
      internal_errors += t.internal_errors;
      one_method += t.one_method;
      oracle_timeouts += t.oracle_timeouts;
      out.flush();  // each case's result as soon as it is known: a later failure cannot take it with it
    }
  }
  if (!options.json)
    out << evaluated << " cases; " << disagreements
        << " answers outside their contract (docs/contract.md); the exact "
        << "oracle methods (hull, QP; penetration depth: hull, support) agree on "
        << evaluated - oracle_disagreements - one_method << " of the " << evaluated - one_method
        << " cases two of them answered"
        << (one_method > 0 ? "; " + std::to_string(one_method) + " beyond the second method's reach, answered by one" : "")
        << (oracle_timeouts > 0 ? "; " + std::to_string(oracle_timeouts) + " cases not judged (oracle-timeout)" : "")
        << (internal_errors > 0 ? "; " + std::to_string(internal_errors) + " cases without a result (gjkref failed)"
                                : "")
        << "\n";
  if (oracle_timeouts > 0)
    err << "gjkref eval: " << oracle_timeouts << " cases not judged: an oracle call passed its time limit of "
        << options.oracle_time_limit_seconds << " s (--oracle-time-limit)\n";
  // Exit status (docs/comparing.md): 2 for usage or input errors, else 3 when an oracle failed or a case's process
  // ended without a result, else 1 when any judged answer is outside its contract, else 0. An oracle timeout leaves
  // its case unjudged and the status as it is.
  if (status == 0 && (oracle_disagreements > 0 || internal_errors > 0)) status = 3;
  if (status == 0 && disagreements > 0) status = 1;
  return status;
}

}  // namespace gjkref::cli
