// SPDX-License-Identifier: BSD-3-Clause
// PowerSGD (Vogels, Karimireddy, Jaggi, "PowerSGD: practical low-rank
// gradient compression for distributed optimization", NeurIPS'19), their
// Algorithm 1 with error feedback and warm start, on one flat vector: the
// vector as a rows x cols matrix (low_rank_shape: rows = floor(sqrt(n))),
// rank r = min(powersgd_rank, rows). Two float SUM allreduces, of r rows and
// r cols floats: 2 (p-1)/p 4 r (rows + cols) bytes per rank (about
// 8 r sqrt(n) 2 (p-1)/p: 256x less than dense at r = 4, n = 4 Mi), plus
// 3 passes of r-column products over M (2 r n flops each) and a QR of P.
#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "compression/families/powersgd.hpp"

namespace pico::compressed {
namespace {

// Q's starting value, the same on every rank: uniforms in [-1/2, 1/2) from a
// stream no rank's own stream or random-k's shared one uses.
void initial_q(std::uint64_t seed, std::span<float> q) {
  const RandomStream rng{seed, std::uint64_t{0xFFFFFFFEu} << 32};
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = uniform_at(rng, i) - 0.5f;
}

}  // namespace

PowerSgd::PowerSgd(const Setup& s)
    : setup_(s),
      shape_(low_rank_shape(s.n, static_cast<std::size_t>(s.param("powersgd_rank", 4)))),
      error_feedback_(s.param("error_feedback", 1) != 0),
      full_cols_(shape_.rows == 0 ? 0 : s.n / shape_.rows),
      matrix_(shape_.rows * shape_.cols, 0.0f),
      p_(shape_.rows * shape_.rank),
      q_(shape_.cols * shape_.rank),
      q_local_(shape_.cols * shape_.rank),
      scratch_(orthonormalize_scratch(shape_)),
      tail_(shape_.rows) {
  if (s.param("powersgd_rank", 4) < 1) throw std::invalid_argument("PowerSGD: powersgd_rank must be at least 1");
  initial_q(setup_.seed, q_);
}

void PowerSgd::reset() {
  std::fill(matrix_.begin(), matrix_.end(), 0.0f);
  initial_q(setup_.seed, q_);
}

template <class Mark>
void PowerSgd::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  if (setup_.n == 0) return;  // every rank has the same n: all skip the allreduces together
  mark("compress");
  const std::span<float> m = std::span(matrix_).first(setup_.n);  // zero past n, always
  if (error_feedback_)
    add_residual(in, m, m);
  else
    std::copy(in.begin(), in.end(), m.begin());
  low_rank_project(shape_, matrix_, q_, p_);
  mark("communicate");
  MPI_Allreduce(MPI_IN_PLACE, p_.data(), static_cast<int>(p_.size()), MPI_FLOAT, MPI_SUM, setup_.comm);
  mark("compress");
  orthonormalize_columns(shape_, p_, scratch_);
  low_rank_project_back(shape_, matrix_, p_, q_local_);
  mark("communicate");
  MPI_Allreduce(q_local_.data(), q_.data(), static_cast<int>(q_.size()), MPI_FLOAT, MPI_SUM, setup_.comm);
  mark("decompress");
  const float inv_np = 1.0f / static_cast<float>(setup_.np);
  low_rank_expand(shape_, p_, q_, 0, full_cols_, inv_np, 0.0f, out);
  const std::size_t done = full_cols_ * shape_.rows;
  if (done < setup_.n) {
    low_rank_expand(shape_, p_, q_, full_cols_, 1, inv_np, 0.0f, tail_);
    std::copy_n(tail_.begin(), setup_.n - done, out.begin() + static_cast<std::ptrdiff_t>(done));
  }
  if (!error_feedback_) return;
  mark("error_feedback");
  // residual = M - P (M^T P)^T, this rank's own share; the padding stays 0.
  low_rank_expand(shape_, p_, q_local_, 0, shape_.cols, -1.0f, 1.0f, matrix_);
  std::fill(matrix_.begin() + static_cast<std::ptrdiff_t>(setup_.n), matrix_.end(), 0.0f);
}

WireVolume PowerSgd::wire() const {
  const double payload = 4.0 * static_cast<double>(shape_.rank * (shape_.rows + shape_.cols));
  return {payload, 2.0 * (setup_.np - 1) / setup_.np * payload};
}

nlohmann::json PowerSgd::describe() const {
  return {{"powersgd_rank", shape_.rank},
          {"rows", shape_.rows},
          {"cols", shape_.cols},
          {"error_feedback", error_feedback_},
          {"warm_start", true}};
}

// The first call after reset returns P P^T mean (P this call's orthonormal
// columns; the mean of the ranks' M^T P is M-bar^T P): checked element-wise
// against that, in fp64, within the fp32 rounding of the products and the sum
// over ranks ((rows + p + r + 4) eps |P| |P|^T mean|x|), and P's columns
// orthonormal within 4 rows eps. A wrong sum, a P that differs between ranks
// or a broken decode shows up as elements beyond it.
std::uint64_t PowerSgd::violations(std::span<const float> out, const ExactReference& ref) const {
  const auto [rows, cols, rank] = shape_;
  if (setup_.n == 0) return 0;
  for (std::size_t k = 0; k < rank; ++k) {
    for (std::size_t l = 0; l < rank; ++l) {
      double dot = 0;
      for (std::size_t a = 0; a < rows; ++a) dot += static_cast<double>(p_[k * rows + a]) * p_[l * rows + a];
      if (std::fabs(dot - (k == l ? 1.0 : 0.0)) > 4.0 * static_cast<double>(rows) * FLT_EPSILON + 1e-6)
        return setup_.n;  // not orthonormal: nothing of the result can be trusted
    }
  }
  // t = P^T mean and t_abs = |P|^T mean|x|, r x cols (the padding is 0).
  std::vector<double> t(rank * cols, 0.0), t_abs(rank * cols, 0.0);
  for (std::size_t j = 0; j < cols; ++j) {
    for (std::size_t k = 0; k < rank; ++k) {
      double sum = 0, sum_abs = 0;
      for (std::size_t a = 0; a < rows && j * rows + a < setup_.n; ++a) {
        const double pk = p_[k * rows + a];
        sum += pk * ref.mean[j * rows + a];
        sum_abs += std::fabs(pk) * ref.abs_mean[j * rows + a];
      }
      t[j * rank + k] = sum;
      t_abs[j * rank + k] = sum_abs;
    }
  }
  const double factor = static_cast<double>(rows + static_cast<std::size_t>(setup_.np) + rank + 4) * FLT_EPSILON;
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < setup_.n; ++i) {
    const std::size_t a = i % rows, j = i / rows;
    double expected = 0, bound = 0;
    for (std::size_t k = 0; k < rank; ++k) {
      const double pk = p_[k * rows + a];
      expected += pk * t[j * rank + k];
      bound += std::fabs(pk) * t_abs[j * rank + k];
    }
    const double err = static_cast<double>(out[i]) - expected;
    const double tolerance = factor * bound + 1e-30;
    if (!(err <= tolerance && -err <= tolerance)) ++bad;
  }
  return bad;
}

}  // namespace pico::compressed
