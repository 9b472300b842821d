// gjkref render (cli/render.hpp).
#include "render.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <new>
#include <sstream>

#include "gjkref/case_shapes.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/judge.hpp"
#include "eval.hpp"
#include "selection.hpp"
#include "text.hpp"

namespace gjkref::cli {
namespace {

using P2 = std::array<double, 2>;

using P3 = std::array<double, 3>;

// The views of a picture. 2D: the case's own plane. 3D: two orthographic views, along (1, 1, 1) and along (1, −1, 0),
// whose directions are orthogonal; the second view's plane contains the first's direction, so what one view stacks
// (a gap along its direction, which can make a touching pair look overlapping) the other shows side by side.
struct View {
  const char* name;
  P2 (*project)(const P3&);
};
const View kPlane{"", [](const P3& p) { return P2{p[0], p[1]}; }};
const View kAlongDiagonal{"along (1,1,1)", [](const P3& p) {
                            return P2{(p[0] - p[1]) / std::sqrt(2.0), (p[0] + p[1] - 2 * p[2]) / std::sqrt(6.0)};
                          }};
const View kAcrossDiagonal{"along (1,-1,0)", [](const P3& p) { return P2{(p[0] + p[1]) / std::sqrt(2.0), p[2]}; }};

std::vector<View> views_of(int dim) {
  if (dim == 2) return {kPlane};
  return {kAlongDiagonal, kAcrossDiagonal};
}

std::vector<P2> projected(const std::vector<P3>& points, const View& view) {
  std::vector<P2> out;
  for (const P3& p : points) out.push_back(view.project(p));
  return out;
}

// Andrew's monotone chain over doubles (for display): the hull's vertices counter-clockwise; one or two points when
// the set is a point or collinear.
std::vector<P2> hull_of(std::vector<P2> pts) {
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return pts;
  const auto cross = [](const P2& o, const P2& a, const P2& b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  };
  std::vector<P2> h(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k - 1);
  return h;
}

// The picture's power-of-two frame: every coordinate drawn is x·2^−exponent, exponent that of the largest finite
// |coordinate| of the case, so that the drawn coordinates are below 2 in magnitude (their differences below 4) and
// the panels' scales stay finite: a case near ±2^1023 made differences of +∞, and a subnormal one a scale of +∞, and
// the picture's coordinates came out as "inf" (an SVG that draws nothing). Scaling by a power of two is exact unless
// the result is subnormal: the shapes keep their form. The scale bars say their lengths in the data's units.
int frame_exponent_of(const casefile::Case& c) {
  double largest = 0;
  for (const auto* shape : {&c.a, &c.b})
    for (const auto& p : shape->points)
      for (int k = 0; k < c.dim; ++k)
        if (std::isfinite(p[k])) largest = std::max(largest, std::fabs(p[k]));
  return ScalarTraits<double>::frame_exponent(largest);
}
P3 framed(const P3& p, int exponent) {
  return {std::ldexp(p[0], -exponent), std::ldexp(p[1], -exponent), std::ldexp(p[2], -exponent)};
}
double framed(const mpq_class& x, int exponent) {
  mpq_class y = x;
  if (exponent > 0) mpq_div_2exp(y.get_mpq_t(), y.get_mpq_t(), static_cast<unsigned long>(exponent));
  if (exponent < 0) mpq_mul_2exp(y.get_mpq_t(), y.get_mpq_t(), static_cast<unsigned long>(-exponent));
  return y.get_d();
}

// Is every coordinate of p (in dimension dim) finite? Only such points are drawn: a rational has no infinity or NaN
// (mpq_class(inf) is a division by zero in GMP, SIGFPE), and an infinite coordinate has no place in a picture.
bool finite_point(const P3& p, int dim) {
  for (int k = 0; k < dim; ++k)
    if (!std::isfinite(p[k])) return false;
  return true;
}

// The points of a shape that can be drawn (finite_point).
std::vector<P3> finite_points(const std::vector<P3>& points, int dim) {
  std::vector<P3> out;
  for (const P3& p : points)
    if (finite_point(p, dim)) out.push_back(p);
  return out;
}

// The same over the exact differences a − b (2D) of the finite points: the hull's vertices are decided exactly, then
// drawn in double, in the picture's frame.
std::vector<P2> exact_difference_hull(const casefile::Case& c, int exponent) {
  using Q = std::array<mpq_class, 2>;
  std::vector<Q> pts;
  for (const auto& a : finite_points(c.a.points, c.dim))
    for (const auto& b : finite_points(c.b.points, c.dim))
      pts.push_back({mpq_class(a[0]) - mpq_class(b[0]), mpq_class(a[1]) - mpq_class(b[1])});
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  std::vector<Q> h;
  if (pts.size() < 3) {
    h = pts;
  } else {
    const auto cross = [](const Q& o, const Q& a, const Q& b) {
      return mpq_class((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]));
    };
    h.resize(2 * pts.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      while (k >= 2 && sgn(cross(h[k - 2], h[k - 1], pts[i])) <= 0) --k;
      h[k++] = pts[i];
    }
    for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
      while (k >= t && sgn(cross(h[k - 2], h[k - 1], pts[i])) <= 0) --k;
      h[k++] = pts[i];
    }
    h.resize(k - 1);
  }
  std::vector<P2> out;
  for (const Q& q : h) out.push_back({framed(q[0], exponent), framed(q[1], exponent)});
  return out;
}

// The exact reference's simplex after each iteration: the run stopped by an iteration limit of 0, 1, 2, ... until it
// stops by itself. The path of the algorithm without instrumenting it.
constexpr int kLongestPath = 64;

std::vector<std::vector<P3>> reference_path(const casefile::Case& c, int exponent) {
  std::vector<std::vector<P3>> path;
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return path;
  casefile::in_dimension<Exact>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    for (int k = 0; k <= kLongestPath; ++k) {
      Options<V> options = casefile::to_options<V>(c);  // the case's warm start, if it has one
      options.max_iterations = k;
      const auto r = distance(a, b, options);
      std::vector<P3> simplex;
      for (int i = 0; i < r.simplex.size; ++i) {
        P3 w{0, 0, 0};
        for (int d = 0; d < V::dimension; ++d) w[d] = framed(r.simplex.points[i].w[d], exponent);
        simplex.push_back(w);
      }
      path.push_back(simplex);
      if (r.status != gjkref::Status::IterationLimit) break;
    }
    return 0;
  });
  return path;
}

std::string number(double x) {
  std::ostringstream os;
  os << std::setprecision(6) << x;
  return os.str();
}

// Lines of at most `width` characters (UTF-8 continuation bytes not counted), broken at spaces where there are any.
std::vector<std::string> wrapped(const std::string& text, std::size_t width) {
  const auto length = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
  };
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    while (length(word) > width) {  // a word longer than a line is cut, between characters (not inside one's bytes)
      if (!line.empty()) lines.push_back(line), line.clear();
      std::size_t cut = 0;
      for (std::size_t characters = 0; cut < word.size(); ++cut)
        if ((static_cast<unsigned char>(word[cut]) & 0xC0) != 0x80 && characters++ == width) break;
      lines.push_back(word.substr(0, cut));
      word = word.substr(cut);
    }
    if (!line.empty() && length(line) + 1 + length(word) > width) lines.push_back(line), line.clear();
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// A scale bar's length in the data's units: 1, 2 or 5 times a power of ten, near a quarter of the extent.
double bar_length(double extent) {
  if (!(extent > 0) || !std::isfinite(extent)) return 0;
  const double target = extent / 4;
  const double power = std::pow(10.0, std::floor(std::log10(target)));
  for (const double step : {5.0, 2.0, 1.0})
    if (step * power <= target) return step * power;
  return power;
}

// A panel: a square of the picture onto which a set of points is fitted.
class Panel {
 public:
  Panel(double left, double top, double size, const std::vector<P2>& everything, int exponent)
      : left_(left), top_(top), size_(size), exponent_(exponent) {
    lo_ = hi_ = everything.empty() ? P2{0, 0} : everything.front();
    for (const P2& p : everything)
      for (int k = 0; k < 2; ++k) {
        lo_[k] = std::min(lo_[k], p[k]);
        hi_[k] = std::max(hi_[k], p[k]);
      }
    extent_ = std::max(hi_[0] - lo_[0], hi_[1] - lo_[1]);
    scale_ = extent_ > 0 && std::isfinite(extent_) ? (size_ - 2 * kMargin) / extent_ : 1;
  }
  // A bar at the panel's lower left: its length in the data's units, so a picture of a 2^−64 gap says so.
  std::string scale_bar() const {
    const double length = bar_length(extent_);
    if (!(length > 0)) return "";
    const double x = left_ + kMargin, y = top_ + size_ - 8, w = length * scale_;
    std::ostringstream s;
    s << "<path d=\"M" << number(x) << "," << number(y - 4) << "V" << number(y) << "H" << number(x + w) << "V"
      << number(y - 4) << "\" stroke=\"black\" fill=\"none\"/>\n<text x=\"" << number(x + w + 6) << "\" y=\""
      << number(y) << "\" font-size=\"11\">" << in_data_units(length) << "</text>\n";
    return s.str();
  }
  // A length in the frame, in the data's units: length·2^exponent, or, where that leaves double's normal range, the
  // two factors.
  std::string in_data_units(double length) const {
    const double data = std::ldexp(length, exponent_);
    if (std::isfinite(data) && data >= std::numeric_limits<double>::min()) return number(data);
    return number(length) + "·2^" + std::to_string(exponent_);
  }
  // The picture's coordinates of p (y down).
  P2 pixel(const P2& p) const {
    return {left_ + kMargin + (p[0] - lo_[0]) * scale_, top_ + size_ - kMargin - (p[1] - lo_[1]) * scale_};
  }
  std::string at(const P2& p) const {
    const P2 xy = pixel(p);
    return number(xy[0]) + "," + number(xy[1]);
  }
  std::string outline(const std::vector<P2>& pts, const std::string& style) const {
    if (pts.empty()) return "";
    if (pts.size() == 1) {
      const P2 xy = pixel(pts[0]);
      return "<circle cx=\"" + number(xy[0]) + "\" cy=\"" + number(xy[1]) + "\" r=\"3\" " + style + "/>\n";
    }
    std::string s = "<polygon points=\"";
    for (const P2& p : pts) s += at(p) + " ";
    return s + "\" " + style + "/>\n";
  }

 private:
  static constexpr double kMargin = 20;
  double left_, top_, size_;
  int exponent_;  // the picture's frame (frame_exponent_of)
  P2 lo_{}, hi_{};
  double extent_ = 0, scale_ = 1;
};

// The answers' colours: 20 distinct ones, none of them the shapes' blue, orange or green (more answers than that
// reuse them in order).
const char* const kColours[] = {"#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
                                "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#000080", "#b8860b",
                                "#008080", "#ff1493", "#4b0082", "#556b2f", "#a0522d", "#2f4f4f"};
constexpr std::size_t kColourCount = sizeof kColours / sizeof kColours[0];

}  // namespace

// The most pairs of points n_A·n_B render draws. A⊖B is drawn from every difference a − b: in 2D its hull is decided
// exactly, in rationals, in 3D in double. Measured (2D, the costlier): 250,000 pairs in 2.6 s and 0.12 GB, a million in
// 13 s and 0.47 GB, 4 million in 62 s and 1.85 GB; 20,000 + 20,000 points (4·10^8 pairs) ended in std::bad_alloc. A
// million keeps a picture to seconds and half a gigabyte. A cost limit, not a tolerance. Pinned by CTest
// cli.render-too-large.
constexpr double kRenderReachPairs = 1e6;

namespace {

// Characters of a text line that fit across the picture (13-pixel sans-serif, two panels wide).
constexpr std::size_t kLineCharacters = 120;

}  // namespace

std::string render_svg(const casefile::Case& c, const oracle::Answer& truth, const std::vector<Drawn>& answers) {
  constexpr double kPanel = 420, kTop = 30, kRowGap = 30, kLine = 18;
  const int exponent = frame_exponent_of(c);
  // What is finite is drawn; a case with a non-finite coordinate is invalid input (the oracle's line says so), and
  // the text says how many points were left out.
  std::vector<P3> a, b;
  for (const P3& p : finite_points(c.a.points, c.dim)) a.push_back(framed(p, exponent));
  for (const P3& p : finite_points(c.b.points, c.dim)) b.push_back(framed(p, exponent));
  const std::size_t not_drawn = c.a.points.size() + c.b.points.size() - a.size() - b.size();
  std::vector<P3> differences;
  for (const P3& p : a)
    for (const P3& q : b) differences.push_back({p[0] - q[0], p[1] - q[1], p[2] - q[2]});
  const auto path = reference_path(c, exponent);
  const std::vector<View> views = views_of(c.dim);

  // The text under the panels, wrapped: the oracle's line, then one per answer (in the answer's colour).
  std::vector<std::pair<std::string, const char*>> text;
  for (const std::string& line :
       wrapped("oracle: " + std::string(oracle::to_string(truth.verdict)) +
                   (truth.verdict == oracle::Verdict::InvalidInput
                        ? std::string(" (no distance)")
                        : ", distance " + number(truth.distance) + ", closest feature " +
                              oracle::to_string(truth.feature)) +
                   "; reference path: " + std::to_string(path.size()) + " simplices" +
                   (c.warm_start ? ", warm-started from " + warm_start_text(c) : ""),
               kLineCharacters))
    text.push_back({line, "black"});
  if (not_drawn > 0)
    text.push_back({"invalid input: " + std::to_string(not_drawn) +
                         (not_drawn == 1 ? " point has" : " points have") +
                         " a non-finite coordinate and " + (not_drawn == 1 ? "is" : "are") +
                         " not drawn; the picture shows the finite points",
                     "black"});
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const Drawn& d = answers[i];
    const impl::Result& r = d.result;
    std::string said = r.status == impl::Status::Answered ? (r.separated ? "separated" : "intersecting")
                                                          : impl::to_string(r.status);
    if (r.distance) said += ", distance " + number(*r.distance);
    if (r.status != impl::Status::Answered && !r.detail.empty()) said += " (" + r.detail + ")";
    for (const std::string& line : wrapped(d.name + ": " + said + " — " + d.judgement, kLineCharacters))
      text.push_back({line, kColours[i % kColourCount]});
  }

  const double rows_height = static_cast<double>(views.size()) * (kPanel + kRowGap);
  const double height = kTop + rows_height + kLine * static_cast<double>(text.size() + 1);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << 2 * kPanel + 20 << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"20\" font-weight=\"bold\">" << xml_text(c.name) << " (" << c.dim << "D"
      << (c.dim == 3 ? ", two orthogonal views" : "") << ")</text>\n";
  for (std::size_t row = 0; row < views.size(); ++row) {
    const View& view = views[row];
    const double top = kTop + static_cast<double>(row) * (kPanel + kRowGap);
    const std::vector<P2> pa = projected(a, view), pb = projected(b, view);
    std::vector<P2> shapes = pa;
    shapes.insert(shapes.end(), pb.begin(), pb.end());
    for (const Drawn& d : answers)
      if (d.judged && d.result.witnesses)
        for (const auto& w : *d.result.witnesses)
          if (finite_point(w, c.dim)) shapes.push_back(view.project(framed(w, exponent)));
    const std::vector<P2> difference =
        c.dim == 2 ? exact_difference_hull(c, exponent) : hull_of(projected(differences, view));
    std::vector<P2> right = difference;
    right.push_back({0, 0});
    for (const auto& simplex : path)
      for (const P3& w : simplex) right.push_back(view.project(w));
    const Panel left_panel(0, top, kPanel, shapes, exponent), right_panel(kPanel + 20, top, kPanel, right, exponent);
    const std::string seen = c.dim == 3 ? std::string(" — view ") + view.name : "";
    svg << "<text x=\"10\" y=\"" << top + 14 << "\">A (blue), B (orange), witnesses" << seen << "</text>\n"
        << "<text x=\"" << kPanel + 30 << "\" y=\"" << top + 14
        << "\">A⊖B (green), origin (+), the reference's path (last: black)</text>\n"
        << "<rect x=\"0\" y=\"" << top << "\" width=\"" << kPanel << "\" height=\"" << kPanel
        << "\" fill=\"none\" stroke=\"#ccc\"/>\n<rect x=\"" << kPanel + 20 << "\" y=\"" << top << "\" width=\"" << kPanel
        << "\" height=\"" << kPanel << "\" fill=\"none\" stroke=\"#ccc\"/>\n";
    svg << left_panel.outline(hull_of(pa), "fill=\"#1f77b4\" fill-opacity=\"0.25\" stroke=\"#1f77b4\"")
        << left_panel.outline(hull_of(pb), "fill=\"#ff7f0e\" fill-opacity=\"0.25\" stroke=\"#ff7f0e\"");
    for (std::size_t i = 0; i < answers.size(); ++i) {
      const auto& w = answers[i].result.witnesses;
      if (!w || !finite_point((*w)[0], c.dim) || !finite_point((*w)[1], c.dim)) continue;  // a NaN answer: in the text
      const char* colour = kColours[i % kColourCount];
      const P2 wa = view.project(framed((*w)[0], exponent)), wb = view.project(framed((*w)[1], exponent));
      svg << "<polyline points=\"" << left_panel.at(wa) << " " << left_panel.at(wb) << "\" stroke=\"" << colour
          << "\" fill=\"none\"/>\n"
          << left_panel.outline({wa}, std::string("fill=\"") + colour + "\"")
          << left_panel.outline({wb}, std::string("fill=\"") + colour + "\"");
    }
    svg << right_panel.outline(difference, "fill=\"#2ca02c\" fill-opacity=\"0.25\" stroke=\"#2ca02c\"");
    for (std::size_t i = 0; i < path.size(); ++i) {
      const bool last = i + 1 == path.size();
      svg << right_panel.outline(projected(path[i], view),
                                 std::string("fill=\"none\" stroke=\"") + (last ? "black" : "#999") +
                                     "\" stroke-dasharray=\"" + (last ? "none" : "4 3") + "\"");
    }
    const P2 origin = right_panel.pixel({0, 0});
    const double ox = origin[0], oy = origin[1];
    svg << "<path d=\"M" << ox - 6 << "," << oy << "H" << ox + 6 << "M" << ox << "," << oy - 6 << "V" << oy + 6
        << "\" stroke=\"black\" stroke-width=\"2\"/>\n"
        << left_panel.scale_bar() << right_panel.scale_bar();
  }
  double y = kTop + rows_height;
  for (const auto& [line, colour] : text) {
    svg << "<text x=\"10\" y=\"" << y << "\" fill=\"" << colour << "\">" << xml_text(line) << "</text>\n";
    y += kLine;
  }
  svg << "</svg>\n";
  return svg.str();
}

namespace {

// Past --oracle-time-limit an oracle call cannot be stopped (docs/oracle.md, "Time bound"): render says so and ends the
// process with exit status 2, as for a case too large to draw, before any picture is written. (The default action
// would abort.) Runs on the oracle's watchdog thread.
[[noreturn]] void render_timed_out(const casefile::Case& c, const char* method, double limit_seconds) {
  std::fprintf(stderr,
               "gjkref render: case '%s': the oracle's %s method passed its time limit of %g s of CPU time "
               "(--oracle-time-limit); nothing drawn\n",
               one_line(c.name).c_str(), method, limit_seconds);
  std::fflush(stderr);
  std::_Exit(2);
}

// The picture, whole or not at all: written to OUT.partial and renamed onto OUT once complete, so that a write that
// fails (a full disk, a file size limit) leaves no SVG cut short and keeps the picture already there (it was truncated
// first, then written in part). Where OUT exists and is not a regular file (/dev/stdout, a pipe), written to it
// directly. Returns what went wrong, naming the file; empty when written.
std::string write_picture(const std::string& path, const std::string& svg) {
  std::error_code ec;
  const bool regular = !std::filesystem::exists(path, ec) || std::filesystem::is_regular_file(path, ec);
  const std::string target = regular ? path + ".partial" : path;
  errno = 0;
  {
    std::ofstream file(target, std::ios::binary);
    file << svg;
    file.flush();
    if (!file) {
      const std::string why = target + (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
      if (regular) std::filesystem::remove(target, ec);
      return why;
    }
  }
  if (!regular) return "";
  std::filesystem::rename(target, path, ec);
  if (!ec) return "";
  const std::string why = path + ": " + ec.message();
  std::filesystem::remove(target, ec);  // a second error code: the rename's is the one to report
  return why;
}

}  // namespace

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  oracle::set_time_limit(options.oracle_time_limit_seconds);
  oracle::on_time_limit(render_timed_out);
  if (options.file.empty()) {  // casefile's message names the file, and '' would leave it nameless
    err << "gjkref render: an empty argument ('') names no case file\n";
    return 2;
  }
  if (std::error_code ec; std::filesystem::is_directory(options.file, ec)) {  // read as an empty, malformed file
    err << "gjkref render: " << options.file << ": is a directory (give one case file)\n";
    return 2;
  }
  const casefile::Parsed parsed = casefile::read_file(options.file);
  if (parsed.error) {
    err << "gjkref render: " << message_text(parsed.error->message()) << "\n";
    return 2;
  }
  if (options.index < 0 || static_cast<std::size_t>(options.index) >= parsed.cases.size()) {
    err << "gjkref render: " << options.file << " has " << parsed.cases.size() << " cases; --index "
        << options.index << " is not one of them\n";
    return 2;
  }
  const casefile::Case& c = parsed.cases[static_cast<std::size_t>(options.index)];
  // A picture is drawn from every pair of points (A⊖B: in 2D in rationals), so its cost grows with n_A·n_B: a case of
  // 20,000 + 20,000 points asked for gigabytes and ended in std::bad_alloc. Cases beyond kRenderReachPairs are
  // refused up front, saying so.
  const double pairs = static_cast<double>(c.a.points.size()) * static_cast<double>(c.b.points.size());
  if (pairs > kRenderReachPairs) {
    err << "gjkref render: case '" << one_line(c.name) << "' has " << c.a.points.size() << " + " << c.b.points.size()
        << " points; a picture is drawn from every pair of points, and render draws at most "
        << static_cast<std::uint64_t>(kRenderReachPairs) << " pairs (kRenderReachPairs); gjkref eval answers larger cases\n";
    return 2;
  }
  auto selected = select_implementations(options.implementations, options.plugins, err);
  if (!selected) return 2;
  oracle::Answer truth;
  try {
    // Within the hull method's reach its answer, with the closest feature; beyond it, the certified fast path's
    // (proven, as gjkref eval does).
    truth = impl::within_hull_reach(c) ? oracle::hull_oracle(c) : oracle::fast_oracle(c);
  } catch (const std::logic_error& e) {
    err << "gjkref render: THE ORACLE FAILED on this case: " << e.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    err << "gjkref render: memory ran out computing the oracle's answer on case '" << one_line(c.name) << "'\n";
    return 3;
  }
  // Judging an answer may call the depth oracle, and drawing calls the hull's exact tests: a failure of either is a bug
  // in gjkref, said as eval says it (exit status 3), never an abort.
  const auto oracle_failed = [&](const std::logic_error& e) {
    err << "gjkref render: THE ORACLE FAILED on case '" << one_line(c.name) << "': " << e.what()
        << "\nThis is a bug in gjkref; please report it with the case file.\n";
    return 3;
  };
  std::vector<Drawn> answers;
  for (auto& implementation : *selected) {
    const impl::Result r = implementation->run(c);
    impl::Judged j;
    try {
      j = impl::judge(truth, r, implementation->info(), c);
    } catch (const std::logic_error& e) {
      return oracle_failed(e);
    }
    // Drawn unless it has nothing to draw in this dimension; an answer the contract makes no claim on (outside the
    // judged range, say) is drawn too, saying why it is not judged, as eval shows it.
    if (r.status == impl::Status::Unsupported) continue;
    // (A refusal says why in its own detail already.)
    const bool say_why = !j.judged && !j.not_judged.empty() && r.status != impl::Status::Refused;
    answers.push_back({implementation->info().name, r, say_why ? "not judged: " + j.not_judged : impl::summary(j),
                       j.judged});
  }
  std::string svg;
  try {
    svg = render_svg(c, truth, answers);
  } catch (const std::bad_alloc&) {  // within the reach above this should not happen: say so rather than abort
    err << "gjkref render: memory ran out drawing case '" << one_line(c.name) << "'\n";
    return 3;
  } catch (const std::logic_error& e) {
    return oracle_failed(e);
  }
  if (const std::string error = write_picture(options.out, svg); !error.empty()) {
    err << "gjkref render: cannot write " << error << "\n";
    return 2;
  }
  out << "wrote " << options.out << " (" << answers.size() << " implementations)\n";
  return 0;
}

}  // namespace gjkref::cli
