// SPDX-License-Identifier: BSD-3-Clause
#include "core/types.hpp"

#include <array>
#include <utility>

namespace pico {
namespace {

// Every collective by its name in experiment files and reports, in declaration order.
constexpr CollectiveRows<std::string_view> kCollectives{{
    {Collective::allreduce, "allreduce"},
    {Collective::bcast, "bcast"},
    {Collective::reduce, "reduce"},
    {Collective::allgather, "allgather"},
    {Collective::gather, "gather"},
    {Collective::scatter, "scatter"},
    {Collective::alltoall, "alltoall"},
    {Collective::alltoallv, "alltoallv"},
    {Collective::reduce_scatter, "reduce_scatter"},
    {Collective::reduce_scatterv, "reduce_scatterv"},
    {Collective::scan, "scan"},
    {Collective::exscan, "exscan"},
    {Collective::sendrecv, "sendrecv"},
    {Collective::barrier, "barrier"},
}};
static_assert(in_collective_order(kCollectives), "kCollectives must name every Collective in declaration order");
constexpr std::array<Collective, kCollectiveCount> collective_list() {
  std::array<Collective, kCollectiveCount> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = kCollectives[i].first;
  return out;
}
constexpr std::array kCollectiveList = collective_list();

constexpr std::array<std::pair<Dtype, std::string_view>, 10> kDtypes{{
    {Dtype::int8, "int8"},
    {Dtype::uint8, "uint8"},
    {Dtype::int16, "int16"},
    {Dtype::int32, "int32"},
    {Dtype::int64, "int64"},
    {Dtype::float32, "float32"},
    {Dtype::float64, "float64"},
    {Dtype::float16, "float16"},
    {Dtype::bfloat16, "bfloat16"},
    {Dtype::none, "none"},
}};
constexpr std::array<std::pair<Op, std::string_view>, 5> kOps{{
    {Op::sum, "sum"}, {Op::prod, "prod"}, {Op::min, "min"}, {Op::max, "max"}, {Op::none, "none"}}};
constexpr std::array<std::pair<TimingMode, std::string_view>, 2> kModes{{
    {TimingMode::latency, "latency"}, {TimingMode::throughput, "throughput"}}};

constexpr std::array<Dtype, 9> kDtypeList{Dtype::int8,    Dtype::uint8,   Dtype::int16,
                                          Dtype::int32,   Dtype::int64,   Dtype::float32,
                                          Dtype::float64, Dtype::float16, Dtype::bfloat16};
// The MPI standard's datatypes: the first seven.
constexpr std::size_t kHostDtypeCount = 7;
constexpr std::array<Op, 4> kOpList{Op::sum, Op::prod, Op::min, Op::max};

template <class Table, class E>
std::string_view lookup_name(const Table& table, E value) {
  for (const auto& [v, n] : table)
    if (v == value) return n;
  return "?";
}

template <class Table>
auto lookup_value(const Table& table, std::string_view s)
    -> std::optional<typename Table::value_type::first_type> {
  for (const auto& [v, n] : table)
    if (n == s) return v;
  return std::nullopt;
}

}  // namespace

std::span<const Collective> all_collectives() { return kCollectiveList; }
std::span<const Dtype> all_dtypes() { return kDtypeList; }
std::span<const Dtype> host_dtypes() { return std::span<const Dtype>(kDtypeList).first(kHostDtypeCount); }
std::span<const Op> all_ops() { return kOpList; }

std::string_view name(Collective c) {
  return static_cast<std::size_t>(c) < kCollectiveCount ? row_of(kCollectives, c) : "?";
}
std::string_view name(Dtype d) { return lookup_name(kDtypes, d); }
std::string_view name(Op o) { return lookup_name(kOps, o); }
std::string_view name(TimingMode m) { return lookup_name(kModes, m); }

std::optional<Collective> parse_collective(std::string_view s) { return lookup_value(kCollectives, s); }
std::optional<Dtype> parse_dtype(std::string_view s) {
  auto d = lookup_value(kDtypes, s);
  return d == Dtype::none ? std::nullopt : d;
}
std::optional<Op> parse_op(std::string_view s) {
  auto o = lookup_value(kOps, s);
  return o == Op::none ? std::nullopt : o;
}
std::optional<TimingMode> parse_timing_mode(std::string_view s) { return lookup_value(kModes, s); }

std::size_t dtype_size(Dtype d) {
  switch (d) {
    case Dtype::int8:
    case Dtype::uint8: return 1;
    case Dtype::int16:
    case Dtype::float16:
    case Dtype::bfloat16: return 2;
    case Dtype::int32:
    case Dtype::float32: return 4;
    case Dtype::int64:
    case Dtype::float64: return 8;
    case Dtype::none: return 0;
  }
  return 0;
}

bool is_integer(Dtype d) {
  return d != Dtype::float32 && d != Dtype::float64 && d != Dtype::float16 && d != Dtype::bfloat16 &&
         d != Dtype::none;
}
bool is_host_dtype(Dtype d) { return d != Dtype::float16 && d != Dtype::bfloat16 && d != Dtype::none; }
bool is_signed(Dtype d) { return d != Dtype::uint8 && d != Dtype::none; }

}  // namespace pico
