// gjkref render (cli/render.hpp).
#include "render.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "gjkref/case_shapes.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/judge.hpp"
#include "selection.hpp"

namespace gjkref::cli {
namespace {

using P2 = std::array<double, 2>;

// The picture's plane: the case's own in 2D, an orthographic view along (1, 1, 1) in 3D.
P2 project(const std::array<double, 3>& p, int dim) {
  if (dim == 2) return {p[0], p[1]};
  return {(p[0] - p[1]) / std::sqrt(2.0), (p[0] + p[1] - 2 * p[2]) / std::sqrt(6.0)};
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

// The same over the exact differences a − b (2D): the hull's vertices are decided exactly, then drawn in double.
std::vector<P2> exact_difference_hull(const casefile::Case& c) {
  using Q = std::array<mpq_class, 2>;
  std::vector<Q> pts;
  for (const auto& a : c.a.points)
    for (const auto& b : c.b.points) pts.push_back({mpq_class(a[0]) - mpq_class(b[0]), mpq_class(a[1]) - mpq_class(b[1])});
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
  for (const Q& q : h) out.push_back({q[0].get_d(), q[1].get_d()});
  return out;
}

// The exact reference's simplex after each iteration: the run stopped by an iteration limit of 0, 1, 2, ... until it
// stops by itself. The path of the algorithm without instrumenting it.
constexpr int kLongestPath = 64;

std::vector<std::vector<P2>> reference_path(const casefile::Case& c) {
  std::vector<std::vector<P2>> path;
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return path;
  casefile::in_dimension<Exact>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    for (int k = 0; k <= kLongestPath; ++k) {
      Options<V> options;
      options.max_iterations = k;
      const auto r = distance(a, b, options);
      std::vector<P2> simplex;
      for (int i = 0; i < r.simplex.size; ++i) {
        std::array<double, 3> w{0, 0, 0};
        for (int d = 0; d < V::dimension; ++d) w[d] = r.simplex.points[i].w[d].get_d();
        simplex.push_back(project(w, c.dim));
      }
      path.push_back(simplex);
      if (r.status != gjkref::Status::IterationLimit) break;
    }
    return 0;
  });
  return path;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '&') out += "&amp;";
    else if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '"') out += "&quot;";
    else out += ch;
  }
  return out;
}

std::string number(double x) {
  std::ostringstream os;
  os << std::setprecision(6) << x;
  return os.str();
}

// A panel: a square of the picture onto which a set of points is fitted.
class Panel {
 public:
  Panel(double left, double top, double size, const std::vector<P2>& everything) : left_(left), top_(top), size_(size) {
    lo_ = hi_ = everything.empty() ? P2{0, 0} : everything.front();
    for (const P2& p : everything)
      for (int k = 0; k < 2; ++k) {
        lo_[k] = std::min(lo_[k], p[k]);
        hi_[k] = std::max(hi_[k], p[k]);
      }
    const double extent = std::max(hi_[0] - lo_[0], hi_[1] - lo_[1]);
    scale_ = extent > 0 && std::isfinite(extent) ? (size_ - 2 * kMargin) / extent : 1;
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
  P2 lo_{}, hi_{};
  double scale_ = 1;
};

const char* const kColours[] = {"#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#1f77b4"};

}  // namespace

std::string render_svg(const casefile::Case& c, const oracle::Answer& truth, const std::vector<Drawn>& answers) {
  constexpr double kPanel = 420;
  std::vector<P2> a, b, shapes;
  for (const auto& p : c.a.points) a.push_back(project(p, c.dim));
  for (const auto& p : c.b.points) b.push_back(project(p, c.dim));
  shapes = a;
  shapes.insert(shapes.end(), b.begin(), b.end());
  for (const Drawn& d : answers)
    if (d.result.witnesses)
      for (const auto& w : *d.result.witnesses) shapes.push_back(project(w, c.dim));
  std::vector<P2> difference;
  if (c.dim == 2) {
    difference = exact_difference_hull(c);
  } else {
    for (const P2& p : a)
      for (const P2& q : b) difference.push_back({p[0] - q[0], p[1] - q[1]});
    difference = hull_of(difference);
  }
  const auto path = reference_path(c);
  std::vector<P2> right = difference;
  right.push_back({0, 0});
  for (const auto& s : path) right.insert(right.end(), s.begin(), s.end());
  const Panel left_panel(0, 30, kPanel, shapes), right_panel(kPanel + 20, 30, kPanel, right);

  std::ostringstream svg;
  const double height = 30 + kPanel + 30 + 18.0 * static_cast<double>(answers.size() + 3);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << 2 * kPanel + 20 << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"20\" font-weight=\"bold\">" << escape(c.name) << " (" << c.dim << "D"
      << (c.dim == 3 ? ", projected along (1,1,1)" : "") << ")</text>\n"
      << "<text x=\"10\" y=\"" << 30 + 14 << "\">A (blue), B (orange), witnesses</text>\n"
      << "<text x=\"" << kPanel + 30 << "\" y=\"" << 30 + 14
      << "\">A⊖B (green), origin (+), the reference's path (last in black)</text>\n"
      << "<rect x=\"0\" y=\"30\" width=\"" << kPanel << "\" height=\"" << kPanel
      << "\" fill=\"none\" stroke=\"#ccc\"/>\n<rect x=\"" << kPanel + 20 << "\" y=\"30\" width=\"" << kPanel
      << "\" height=\"" << kPanel << "\" fill=\"none\" stroke=\"#ccc\"/>\n";
  svg << left_panel.outline(hull_of(a), "fill=\"#1f77b4\" fill-opacity=\"0.25\" stroke=\"#1f77b4\"")
      << left_panel.outline(hull_of(b), "fill=\"#ff7f0e\" fill-opacity=\"0.25\" stroke=\"#ff7f0e\"");
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const auto& w = answers[i].result.witnesses;
    if (!w) continue;
    const char* colour = kColours[i % (sizeof kColours / sizeof kColours[0])];
    const P2 wa = project((*w)[0], c.dim), wb = project((*w)[1], c.dim);
    svg << "<polyline points=\"" << left_panel.at(wa) << " " << left_panel.at(wb) << "\" stroke=\"" << colour
        << "\" fill=\"none\"/>\n"
        << left_panel.outline({wa}, std::string("fill=\"") + colour + "\"")
        << left_panel.outline({wb}, std::string("fill=\"") + colour + "\"");
  }
  svg << right_panel.outline(difference, "fill=\"#2ca02c\" fill-opacity=\"0.25\" stroke=\"#2ca02c\"");
  for (std::size_t i = 0; i < path.size(); ++i) {
    const bool last = i + 1 == path.size();
    svg << right_panel.outline(path[i], std::string("fill=\"none\" stroke=\"") + (last ? "black" : "#999") +
                                            "\" stroke-dasharray=\"" + (last ? "none" : "4 3") + "\"");
  }
  {
    const P2 origin = right_panel.pixel({0, 0});
    const double ox = origin[0], oy = origin[1];
    svg << "<path d=\"M" << ox - 6 << "," << oy << "H" << ox + 6 << "M" << ox << "," << oy - 6 << "V" << oy + 6
        << "\" stroke=\"black\" stroke-width=\"2\"/>\n";
  }
  double y = 30 + kPanel + 22;
  svg << "<text x=\"10\" y=\"" << y << "\">oracle: " << oracle::to_string(truth.verdict)
      << ", distance " << number(truth.distance) << ", closest feature " << oracle::to_string(truth.feature)
      << "; reference path: " << path.size() << " simplices</text>\n";
  for (std::size_t i = 0; i < answers.size(); ++i) {
    y += 18;
    const Drawn& d = answers[i];
    const impl::Result& r = d.result;
    std::string said = r.status == impl::Status::Answered ? (r.separated ? "separated" : "intersecting")
                                                          : impl::to_string(r.status);
    if (r.distance) said += ", distance " + number(*r.distance);
    constexpr std::size_t kLongestDetail = 90;  // characters of a failure's detail that fit on the line
    if (r.status != impl::Status::Answered && !r.detail.empty()) said += " (" + r.detail.substr(0, kLongestDetail) + ")";
    svg << "<text x=\"10\" y=\"" << y << "\" fill=\"" << kColours[i % (sizeof kColours / sizeof kColours[0])]
        << "\">" << escape(d.name) << ": " << escape(said) << " — " << escape(d.judgement) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  const casefile::Parsed parsed = casefile::read_file(options.file);
  if (parsed.error) {
    err << "gjkref render: " << parsed.error->message() << "\n";
    return 2;
  }
  if (options.index < 0 || static_cast<std::size_t>(options.index) >= parsed.cases.size()) {
    err << "gjkref render: " << options.file << " has " << parsed.cases.size() << " cases; --index "
        << options.index << " is not one of them\n";
    return 2;
  }
  const casefile::Case& c = parsed.cases[static_cast<std::size_t>(options.index)];
  auto selected = select_implementations(options.implementations, options.plugins, err);
  if (!selected) return 2;
  oracle::Answer truth;
  try {
    truth = oracle::hull_oracle(c);
  } catch (const std::logic_error& e) {
    err << "gjkref render: THE ORACLE FAILED on this case: " << e.what() << "\n";
    return 2;
  }
  std::vector<Drawn> answers;
  for (auto& implementation : *selected) {
    const impl::Result r = implementation->run(c);
    const impl::Judged j = impl::judge(truth, r, implementation->info(), c);
    if (!j.judged) continue;
    answers.push_back({implementation->info().name, r, impl::summary(j)});
  }
  std::ofstream file(options.out);
  file << render_svg(c, truth, answers);
  if (!file) {
    err << "gjkref render: cannot write " << options.out << "\n";
    return 2;
  }
  out << "wrote " << options.out << " (" << answers.size() << " implementations)\n";
  return 0;
}

}  // namespace gjkref::cli
