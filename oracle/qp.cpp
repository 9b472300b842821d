// The QP oracle (method 2 of docs/oracle.md): exact, simplex-based, independent of the hull oracle.
//
// Distance: minimise |v|² over v = Σ λᵢ aᵢ − Σ μⱼ bⱼ, Σλ = Σμ = 1, λ, μ ≥ 0. Written with v as free variables and
// `dim` equality constraints, so every coefficient is an input double (exact in Gmpzf) and the objective is v·v.
// Class: maximise ε subject to the same equations with v = 0 and every λᵢ, μⱼ ≥ ε. The relative interior of
// conv(A) − conv(B) is ri conv(A) − ri conv(B), and ri conv(S) is the set of combinations with all weights positive,
// so: infeasible → the origin is outside; ε* > 0 → in the relative interior (overlapping if A⊖B is full-dimensional,
// touching otherwise); ε* ≤ 0 → on the boundary (touching).
// Touching: the certificate's supporting plane through the origin. When ε* = 0, from the class LP's dual: with y, α, β
// the multipliers of the rows v = 0, Σλ = 1 and Σμ = 1, optimality gives y·aᵢ ≤ α and y·bⱼ ≥ −β for every point (the
// reduced costs of λ', μ' ≥ 0), strong duality gives α + β = ε* = 0, so y·x ≤ 0 on A⊖B; and y ≠ 0, since y = 0
// would leave ε's reduced cost at −1 with ε below its bound. When ε* > 0 (the origin in the relative interior of a
// flat A⊖B), a normal of A⊖B's affine hull, which passes through the origin.
// Both programs use Bland's pricing: with the default pricing CGAL's solver returned a wrong positive distance on a 2D
// input mixing 2^719 and subnormal coordinates (docs/oracle.md); Bland's rule cannot cycle.
#include <CGAL/Gmpzf.h>
#include <CGAL/QP_functions.h>
#include <CGAL/QP_models.h>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using ET = CGAL::Gmpzf;
using Program = CGAL::Quadratic_program<ET>;  // Gmpzf coefficients: exact input doubles and exact sums
using Solution = CGAL::Quadratic_program_solution<ET>;

// An ET (m·2^e) as an exact rational.
mpq_class to_rational(const ET& x) {
  mpq_class q(mpz_class(x.man()));
  const long e = x.exp();
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return q;
}
mpq_class to_rational(const CGAL::Quotient<ET>& q) {
  mpq_class r = to_rational(q.numerator()) / to_rational(q.denominator());
  r.canonicalize();
  return r;
}

CGAL::Quadratic_program_options bland() {
  CGAL::Quadratic_program_options options;
  options.set_pricing_strategy(CGAL::QP_BLAND);
  return options;
}

// Rows 0..dim−1: v_k − Σλᵢ a_ik + Σμⱼ b_jk = 0 (v = 0 in the class LP, where the v columns are absent);
// row dim: Σλ = 1; row dim+1: Σμ = 1. Columns: [v (if with_v)], λ, μ, [ε (if with_epsilon)].
// In the class LP every weight is written λᵢ = ε + λ'ᵢ, μⱼ = ε + μ'ⱼ with λ', μ' ≥ 0, so "every weight ≥ ε" costs no
// row: the λ, μ columns hold λ', μ', the ε column holds the sums −Σa_k + Σb_k, n and m (exact: Gmpzf coefficients),
// and the program keeps dim + 2 rows. (With one row per weight, n = 64 took seconds per case.)
Program build(const casefile::Case& c, bool with_v, bool with_epsilon) {
  const int dim = c.dim;
  const int n = static_cast<int>(c.a.points.size()), m = static_cast<int>(c.b.points.size());
  const int v0 = 0, l0 = with_v ? dim : 0, m0 = l0 + n, e0 = m0 + m;
  Program qp(CGAL::EQUAL, true, ET(0), false, ET(0));  // rows are equalities, variables ≥ 0 unless changed
  for (int k = 0; k < dim; ++k) {
    if (with_v) {
      qp.set_a(v0 + k, k, ET(1));
      qp.set_l(v0 + k, false);         // v is free
      qp.set_d(v0 + k, v0 + k, ET(2));  // objective v·v (CGAL takes 2D)
    }
    ET epsilon_column(0);
    for (int i = 0; i < n; ++i) {
      qp.set_a(l0 + i, k, ET(-c.a.points[i][k]));
      epsilon_column = epsilon_column - ET(c.a.points[i][k]);
    }
    for (int j = 0; j < m; ++j) {
      qp.set_a(m0 + j, k, ET(c.b.points[j][k]));
      epsilon_column = epsilon_column + ET(c.b.points[j][k]);
    }
    if (with_epsilon) qp.set_a(e0, k, epsilon_column);
    qp.set_b(k, ET(0));
  }
  for (int i = 0; i < n; ++i) qp.set_a(l0 + i, dim, ET(1));
  for (int j = 0; j < m; ++j) qp.set_a(m0 + j, dim + 1, ET(1));
  qp.set_b(dim, ET(1));
  qp.set_b(dim + 1, ET(1));
  if (with_epsilon) {
    qp.set_a(e0, dim, ET(n));
    qp.set_a(e0, dim + 1, ET(m));
    qp.set_l(e0, false);         // ε free below,
    qp.set_u(e0, true, ET(1));   // at most 1 (every weight ≤ 1): keeps the LP bounded
    qp.set_c(e0, ET(-1));        // maximise ε = minimise −ε
  }
  return qp;
}

using Vector = std::array<mpq_class, 3>;

// The dimension of span{aᵢ − a₀} + span{bⱼ − b₀}: the affine dimension of A⊖B, by exact elimination; `basis`, when
// given, receives that many independent rows spanning it.
int affine_dimension(const casefile::Case& c, std::vector<Vector>* basis = nullptr) {
  std::vector<std::array<mpq_class, 3>> rows;
  for (const auto* s : {&c.a, &c.b})
    for (const auto& p : s->points) {
      std::array<mpq_class, 3> r;
      for (int k = 0; k < 3; ++k) r[k] = mpq_class(p[k]) - mpq_class(s->points[0][k]);
      rows.push_back(r);
    }
  int rank = 0;
  for (int col = 0; col < 3 && rank < static_cast<int>(rows.size()); ++col) {
    std::size_t pivot = rank;
    while (pivot < rows.size() && rows[pivot][col] == 0) ++pivot;
    if (pivot == rows.size()) continue;
    std::swap(rows[pivot], rows[rank]);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (static_cast<int>(r) == rank || rows[r][col] == 0) continue;
      const mpq_class f = rows[r][col] / rows[rank][col];
      for (int k = 0; k < 3; ++k) rows[r][k] -= f * rows[rank][k];
    }
    ++rank;
  }
  if (basis) basis->assign(rows.begin(), rows.begin() + rank);
  return rank;
}

// A non-zero vector orthogonal to span{aᵢ − a₀} + span{bⱼ − b₀}, for a flat A⊖B (its dimension below the case's); in
// 2D with a zero z component.
Vector flat_normal(const casefile::Case& c) {
  std::vector<Vector> basis;
  const int rank = affine_dimension(c, &basis);
  const auto cross = [](const Vector& u, const Vector& v) {
    return Vector{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  };
  const auto is_zero = [](const Vector& u) { return u[0] == 0 && u[1] == 0 && u[2] == 0; };
  if (rank == 0) return {1, 0, 0};
  if (c.dim == 2) return {-basis[0][1], basis[0][0], 0};  // rank 1: the row turned a quarter
  if (rank == 2) return cross(basis[0], basis[1]);
  for (const Vector& axis : {Vector{1, 0, 0}, Vector{0, 1, 0}, Vector{0, 0, 1}})
    if (const Vector n = cross(basis[0], axis); !is_zero(n)) return n;
  throw std::logic_error("QP oracle: no normal to a non-zero row");
}

Answer checked(const casefile::Case& c, const Answer& answer) {
  if (auto problem = check_certificate(c, answer))
    throw CertificateError("QP oracle: the certificate fails (" + *problem + ") on\n" + casefile::write(c));
  return answer;
}

}  // namespace

Answer qp_oracle(const casefile::Case& c) {
  Answer out;
  out.method = Method::Qp;
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return out;
  const TimeLimit bound(c, "qp");
  const int dim = c.dim;
  const int n = static_cast<int>(c.a.points.size());

  // A solution refers to its program: each program must outlive every use of its solution.
  const Program distance_program = build(c, true, false);
  const Solution distance = CGAL::solve_quadratic_program(distance_program, ET(), bland());
  if (!distance.is_optimal()) throw std::logic_error("QP oracle: the distance program is not optimal");
  out.squared_distance = to_rational(distance.objective_value());
  out.distance = correctly_rounded_sqrt(out.squared_distance);
  out.affine_dimension = affine_dimension(c);
  out.witness_a = out.witness_b = {mpq_class(0), mpq_class(0), mpq_class(0)};
  int column = 0;
  for (auto x = distance.variable_values_begin(); x != distance.variable_values_end(); ++x, ++column) {
    if (column < dim) continue;  // v
    const mpq_class w = to_rational(*x);
    const bool in_a = column - dim < n;
    const std::size_t index = in_a ? column - dim : column - dim - n;
    const auto& p = in_a ? c.a.points[index] : c.b.points[index];
    for (int k = 0; k < 3; ++k) (in_a ? out.witness_a : out.witness_b)[k] += w * mpq_class(p[k]);
    if (w > 0) (in_a ? out.certificate.weights_a : out.certificate.weights_b).push_back({index, w});
  }
  if (out.squared_distance > 0) {
    out.verdict = Verdict::Separated;
    return checked(c, out);
  }
  const Program interior_program = build(c, false, true);
  const Solution interior = CGAL::solve_linear_program(interior_program, ET(), bland());
  if (!interior.is_optimal()) throw std::logic_error("QP oracle: the class program is not optimal");
  const bool relative_interior = to_rational(interior.objective_value()) < 0;  // −ε* < 0
  out.verdict = relative_interior && out.affine_dimension == dim ? Verdict::Overlapping : Verdict::Touching;
  if (out.verdict == Verdict::Touching) {
    // The supporting plane through the origin (above): the dual's y when ε* = 0, else a normal of the flat A⊖B.
    Vector normal = {0, 0, 0};
    if (relative_interior) {
      normal = flat_normal(c);
    } else {
      auto y = interior.optimality_certificate_begin();
      for (int k = 0; k < dim; ++k, ++y) normal[k] = to_rational(*y);
    }
    out.certificate.normal = normal;
  }
  if (out.verdict == Verdict::Overlapping) {
    // The certificate of an interior point: the class program's weights, every one at least ε* > 0.
    out.certificate = {};
    out.witness_a = out.witness_b = {mpq_class(0), mpq_class(0), mpq_class(0)};
    const int weights = n + static_cast<int>(c.b.points.size());
    const mpq_class epsilon = to_rational(*(interior.variable_values_begin() + weights));
    column = 0;
    for (auto x = interior.variable_values_begin(); column < weights; ++x, ++column) {
      const mpq_class w = epsilon + to_rational(*x);  // λ = ε + λ'
      const bool in_a = column < n;
      const std::size_t index = in_a ? column : column - n;
      const auto& p = in_a ? c.a.points[index] : c.b.points[index];
      for (int k = 0; k < 3; ++k) (in_a ? out.witness_a : out.witness_b)[k] += w * mpq_class(p[k]);
      (in_a ? out.certificate.weights_a : out.certificate.weights_b).push_back({index, w});
    }
  }
  return checked(c, out);
}

}  // namespace gjkref::oracle
