// gjkref render: a picture of a case (docs/comparing.md, "Pictures").
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gjkref/casefile.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::cli {

// An implementation's answer, as the picture shows it.
struct Drawn {
  std::string name;
  impl::Result result;
  std::string judgement;  // "agrees", or the finding
  bool judged = true;     // false: the contract makes no claim on it; drawn, but its witnesses do not set the frame
};

// A self-contained SVG of the case:
// - left, A and B (their convex hulls) and each implementation's witness points, joined by a line;
// - right, A⊖B with the origin, and the reference's simplex path, one outline per iteration (exact arithmetic);
// - below, the oracle's answer and each implementation's verdict and judgement.
// In 2D A⊖B is the exact hull of the differences. In 3D everything is projected orthographically onto the plane
// normal to (1, 1, 1), and hulls of the projected points are drawn.
std::string render_svg(const casefile::Case& c, const oracle::Answer& truth, const std::vector<Drawn>& answers);

struct RenderOptions {
  std::string file;
  int index = 0;                             // which case of a collection
  std::vector<std::string> implementations;  // empty: all
  std::vector<std::string> plugins;
  std::string out;
  double oracle_time_limit_seconds = oracle::kDefaultOracleTimeLimitSeconds;  // CPU seconds per oracle call
};

// Returns 0 on success; 2 on a bad file, index, implementation or output, or a case with more pairs of points than a
// picture is drawn from (kRenderReachPairs, render.cpp), or whose oracle call passed oracle_time_limit_seconds (the
// process ends there, having written nothing); 3 when an oracle failed or memory ran out.
int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gjkref::cli
