// SPDX-License-Identifier: BSD-3-Clause
// PowerSGD's dense linear algebra (Vogels, Karimireddy, Jaggi, NeurIPS'19)
// on OpenBLAS: two tall-skinny products per call (m q, m^T p), one expansion
// p q^T, and the orthonormalisation of p by Householder QR (LAPACK's
// sgeqrf + sorgqr through LAPACKE's column-major _work entry points, which
// allocate nothing). Householder rather than the paper's Gram-Schmidt: its Q
// factor is orthonormal to rounding even when p is rank-deficient (a zero
// input, or rank = rows), which is what makes full rank reproduce the mean.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <cblas.h>
#include <lapacke.h>

#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

namespace {

blasint dim(std::size_t v) { return static_cast<blasint>(v); }
blasint leading(std::size_t rows) { return static_cast<blasint>(std::max<std::size_t>(rows, 1)); }

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

LowRankShape low_rank_shape(std::size_t n, std::size_t rank) {
  if (n == 0) return {};
  LowRankShape s;
  s.rows = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  while (s.rows * s.rows > n) --s.rows;  // floor(sqrt(n)) exactly, whatever sqrt rounded to
  while ((s.rows + 1) * (s.rows + 1) <= n) ++s.rows;
  s.cols = (n + s.rows - 1) / s.rows;
  s.rank = std::min(rank, s.rows);
  return s;
}

void low_rank_project(LowRankShape s, std::span<const float> m, std::span<const float> q, std::span<float> p) {
  require(m.size() >= s.rows * s.cols && q.size() >= s.cols * s.rank && p.size() >= s.rows * s.rank,
          "low_rank_project: spans shorter than the shape");
  if (s.rows == 0 || s.rank == 0) return;
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, dim(s.rows), dim(s.rank), dim(s.cols), 1.0f, m.data(),
              leading(s.rows), q.data(), leading(s.cols), 0.0f, p.data(), leading(s.rows));
}

void low_rank_project_back(LowRankShape s, std::span<const float> m, std::span<const float> p, std::span<float> q) {
  require(m.size() >= s.rows * s.cols && p.size() >= s.rows * s.rank && q.size() >= s.cols * s.rank,
          "low_rank_project_back: spans shorter than the shape");
  if (s.rows == 0 || s.rank == 0) return;
  cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, dim(s.cols), dim(s.rank), dim(s.rows), 1.0f, m.data(),
              leading(s.rows), p.data(), leading(s.rows), 0.0f, q.data(), leading(s.cols));
}

void low_rank_expand(LowRankShape s, std::span<const float> p, std::span<const float> q, std::size_t first_col,
                     std::size_t cols, float alpha, float beta, std::span<float> out) {
  require(first_col + cols <= s.cols && p.size() >= s.rows * s.rank && q.size() >= s.cols * s.rank &&
              out.size() >= s.rows * cols,
          "low_rank_expand: spans shorter than the shape");
  if (s.rows == 0 || cols == 0) return;
  if (s.rank == 0) {  // p q^T is empty: out = beta out
    for (std::size_t i = 0; i < s.rows * cols; ++i) out[i] *= beta;
    return;
  }
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, dim(s.rows), dim(cols), dim(s.rank), alpha, p.data(),
              leading(s.rows), q.data() + first_col, leading(s.cols), beta, out.data(), leading(s.rows));
}

std::size_t orthonormalize_scratch(LowRankShape s) {
  if (s.rows == 0 || s.rank == 0) return 0;
  // Workspace queries (lwork = -1) of both routines on a dummy matrix; the tau vector first.
  float query = 0, tau = 0, a = 0;
  lapack_int info = LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, static_cast<lapack_int>(s.rows),
                                        static_cast<lapack_int>(s.rank), &a, static_cast<lapack_int>(s.rows), &tau,
                                        &query, -1);
  if (info != 0) throw std::runtime_error("sgeqrf workspace query failed");
  std::size_t work = static_cast<std::size_t>(query);
  info = LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, static_cast<lapack_int>(s.rows), static_cast<lapack_int>(s.rank),
                             static_cast<lapack_int>(s.rank), &a, static_cast<lapack_int>(s.rows), &tau, &query, -1);
  if (info != 0) throw std::runtime_error("sorgqr workspace query failed");
  work = std::max(work, static_cast<std::size_t>(query));
  return s.rank + std::max<std::size_t>(work, 1);
}

void orthonormalize_columns(LowRankShape s, std::span<float> p, std::span<float> scratch) {
  if (s.rows == 0 || s.rank == 0) return;
  require(p.size() >= s.rows * s.rank && scratch.size() >= orthonormalize_scratch(s),
          "orthonormalize_columns: spans shorter than the shape");
  float* tau = scratch.data();
  float* work = scratch.data() + s.rank;
  const auto lwork = static_cast<lapack_int>(scratch.size() - s.rank);
  const auto rows = static_cast<lapack_int>(s.rows), rank = static_cast<lapack_int>(s.rank);
  if (LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, rows, rank, p.data(), rows, tau, work, lwork) != 0)
    throw std::runtime_error("sgeqrf failed");
  if (LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, rows, rank, rank, p.data(), rows, tau, work, lwork) != 0)
    throw std::runtime_error("sorgqr failed");
}

}  // namespace pico::compressed
