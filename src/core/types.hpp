// SPDX-License-Identifier: BSD-3-Clause
// The vocabulary every part of pico shares: collectives, datatypes, reduction
// operations and timing modes, with their canonical names as they appear in
// experiment files and reports.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace pico {

// sendrecv is nccl-tests' point-to-point ring exchange: rank r sends to r+1 and
// receives from r-1 (mod np) at once; no operation, no in-place form.
// reduce_scatter is MPI_Reduce_scatter_block (NCCL's ncclReduceScatter: one
// block size), reduce_scatterv MPI_Reduce_scatter (a count per rank).
// Adding one: a word here (barrier stays last: it ends the count), its name in
// types.cpp, and its descriptor (collectives/spec.hpp), which holds the rest.
enum class Collective {
  allreduce,
  bcast,
  reduce,
  allgather,
  gather,
  scatter,
  alltoall,
  alltoallv,
  reduce_scatter,
  reduce_scatterv,
  scan,
  exscan,
  sendrecv,
  barrier
};
inline constexpr std::size_t kCollectiveCount = static_cast<std::size_t>(Collective::barrier) + 1;

// A table with one row per collective, {collective, fact}: what a backend or
// format keeps of each (its call, its name). Row i is enumerator i, so a lookup
// is an index; in_collective_order, in a static_assert beside the table, fails
// the build when a collective is added without its row.
template <class T>
using CollectiveRows = std::array<std::pair<Collective, T>, kCollectiveCount>;
template <class T>
constexpr bool in_collective_order(const CollectiveRows<T>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (static_cast<std::size_t>(rows[i].first) != i) return false;
  return true;
}
template <class T>
constexpr const T& row_of(const CollectiveRows<T>& rows, Collective c) {
  return rows.at(static_cast<std::size_t>(c)).second;
}
// float16 and bfloat16 exist on GPUs (NCCL) only: MPI has no standard datatype
// for them and C++ on the host no arithmetic type (see host_dtypes).
enum class Dtype { int8, uint8, int16, int32, int64, float32, float64, float16, bfloat16, none };
enum class Op { sum, prod, min, max, none };
enum class TimingMode { latency, throughput };

std::span<const Collective> all_collectives();
std::span<const Dtype> all_dtypes();   // excludes Dtype::none
std::span<const Dtype> host_dtypes();  // those with an MPI datatype and a C++ type: not float16, bfloat16
std::span<const Op> all_ops();        // excludes Op::none

std::string_view name(Collective c);
std::string_view name(Dtype d);
std::string_view name(Op o);
std::string_view name(TimingMode m);

std::optional<Collective> parse_collective(std::string_view s);
std::optional<Dtype> parse_dtype(std::string_view s);
std::optional<Op> parse_op(std::string_view s);
std::optional<TimingMode> parse_timing_mode(std::string_view s);

std::size_t dtype_size(Dtype d);  // 0 for none
bool is_integer(Dtype d);
bool is_signed(Dtype d);
bool is_host_dtype(Dtype d);

// Calls f.template operator()<T>() with T the C++ type of d (d must be a host dtype).
template <class F>
decltype(auto) visit_dtype(Dtype d, F&& f) {
  switch (d) {
    case Dtype::int8: return f.template operator()<std::int8_t>();
    case Dtype::uint8: return f.template operator()<std::uint8_t>();
    case Dtype::int16: return f.template operator()<std::int16_t>();
    case Dtype::int32: return f.template operator()<std::int32_t>();
    case Dtype::int64: return f.template operator()<std::int64_t>();
    case Dtype::float32: return f.template operator()<float>();
    case Dtype::float64: return f.template operator()<double>();
    case Dtype::float16:
    case Dtype::bfloat16:
    case Dtype::none: break;
  }
  throw std::invalid_argument("datatype " + std::string(name(d)) + " has no host type (GPU backends only)");
}

}  // namespace pico
