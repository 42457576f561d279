// SPDX-License-Identifier: BSD-3-Clause
// The count matrix of a vector collective (alltoallv): how many elements
// each rank sends each other rank, drawn from a named pattern. Every rank
// computes the same matrix from the case alone (pattern, np, mean block), so
// no rank needs another's counts before the call; the pattern is part of the
// case's identity (its `counts` option) and of the report.
//
// A pattern gives the matrix its shape; the case's size gives its volume: the
// entries sum to count * np * np (a mean block of `count` elements, as for
// alltoall), so a sweep over sizes and patterns moves the same data skewed
// differently (docs/configuration.md#count-matrices).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"

namespace pico {

// The case option that names the pattern (core/case.hpp, Case::options).
inline constexpr const char* kCountsOption = "counts";

enum class CountPatternKind {
  uniform,   // every block the mean: alltoall's matrix
  random,    // each block uniform in [0, 2 mean), drawn from Philox4x32 keyed by `seed`
  hot,       // every rank sends `factor` times as much to rank `rank` as to any other (an incast)
  powerlaw,  // destination q weighs (q + 1)^-alpha (Zipf, as MoE expert popularity is modelled)
  file,      // the weights of an np x np text file (rows: senders), scaled to the case's volume
  // nccl-tests' alltoallv_perf default: weight grows with the ring distance
  // (to - from) mod np, blended with uniform by `spread` (its
  // NCCL_TESTS_ALLTOALLV_SPREAD, 1 = fully distance-weighted)
  distance,
};

struct CountPattern {
  CountPatternKind kind = CountPatternKind::uniform;
  std::uint64_t seed = 1;  // random
  int rank = 0;            // hot: the rank that receives more
  double factor = 8;       // hot: how much more
  double alpha = 1;        // powerlaw: the exponent
  double spread = 1;       // distance: 0 uniform .. 1 fully distance-weighted
  std::string path;        // file: absolute, resolved from the experiment file's directory
};

// The canonical text a case stores and a report shows: "uniform",
// "random:seed=7", "hot:rank=0,factor=8", "powerlaw:alpha=1.5",
// "distance:spread=1", "file:/abs/path".
std::string pattern_text(const CountPattern& p);
// Inverse of pattern_text; throws std::invalid_argument naming what is wrong.
CountPattern parse_count_pattern(std::string_view text);
// The pattern names, in the order above; and as a help text or refusal
// names them: "uniform, random, hot, powerlaw, file or distance".
std::vector<std::string> count_pattern_kinds();
std::string count_pattern_names();

// Why the pattern cannot make a matrix for np ranks (a hot rank outside
// them), or "" where it can.
std::string pattern_fit_reason(const CountPattern& p, int np);

// Row-major np x np: at(from, to) elements go from rank `from` to rank `to`.
class CountMatrix {
 public:
  CountMatrix(int np, std::vector<std::uint64_t> counts);
  int np() const { return np_; }
  std::uint64_t at(int from, int to) const { return counts_[index(from, to)]; }
  // Where rank `from`'s block for `to` starts in its packed send buffer: the
  // row's entries before column `to` (kept, so a rank's layout is O(np)).
  std::uint64_t offset(int from, int to) const { return offsets_[index(from, to)]; }
  std::uint64_t sent_by(int rank) const;      // row total: this rank's send buffer
  std::uint64_t received_by(int rank) const;  // column total: its receive buffer
  std::uint64_t total() const;
  std::uint64_t largest() const;
  const std::vector<std::uint64_t>& counts() const { return counts_; }

 private:
  std::size_t index(int from, int to) const {
    return static_cast<std::size_t>(from) * static_cast<std::size_t>(np_) + static_cast<std::size_t>(to);
  }
  int np_;
  std::vector<std::uint64_t> counts_;
  std::vector<std::uint64_t> offsets_;  // exclusive prefix sums of each row
};

// The weights of a file pattern's np x np text file (whitespace-separated
// non-negative numbers, one row per sending rank, '#' starts a comment).
// Throws InputError naming the file, line and column of what is wrong.
std::vector<double> read_count_weights(const std::string& path, int np);

// The most ranks a count matrix is built for: np^2 entries of 24 bytes while
// it is made (4096: 400 MB), so that every verb stays under 2 GB.
inline constexpr int kMaxCountMatrixRanks = 4096;

// The matrix of `pattern` for np ranks whose blocks average mean_count elements;
// std::invalid_argument past kMaxCountMatrixRanks.
CountMatrix make_count_matrix(const CountPattern& pattern, int np, std::uint64_t mean_count);
// The case's `counts` option, "" when it has none (uniform).
std::string counts_option(const Case& c);
// The case's matrix: its `counts` option (uniform when absent), np and count.
// Every rank's buffers, layout, fill and check ask for it, and a schedule or
// replay asks once per rank recorded: each thread keeps the last matrix it
// made (a file pattern is read once, an np x np matrix built once) and hands
// it out while the case's pattern, np and count stay the same.
std::shared_ptr<const CountMatrix> count_matrix(const Case& c);

// What one rank passes to MPI_Alltoallv, in elements: its blocks packed in
// rank order in each buffer, and where the block it sends each peer starts in
// that peer's send buffer (its validation payload's index, so a receiver
// can tell both the source and the destination of every block).
struct VectorLayout {
  std::vector<std::uint64_t> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<std::uint64_t> peer_send_displs;  // [q]: where rank q's block for this rank starts in q's send buffer
  std::uint64_t send_total = 0;
  std::uint64_t recv_total = 0;
};
VectorLayout vector_layout(const CountMatrix& m, int rank);

}  // namespace pico
