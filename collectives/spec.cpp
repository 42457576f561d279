// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/spec.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace pico {
namespace spec {
extern const CollectiveSpec allreduce_spec, bcast_spec, reduce_spec, allgather_spec, gather_spec, scatter_spec,
    alltoall_spec, alltoallv_spec, reduce_scatter_spec, reduce_scatterv_spec, scan_spec, exscan_spec, sendrecv_spec,
    barrier_spec;
}

namespace {

// Every descriptor, one row per collective in declaration order (checked at compile time).
constexpr CollectiveRows<const CollectiveSpec*> kSpecs{{
    {Collective::allreduce, &spec::allreduce_spec},
    {Collective::bcast, &spec::bcast_spec},
    {Collective::reduce, &spec::reduce_spec},
    {Collective::allgather, &spec::allgather_spec},
    {Collective::gather, &spec::gather_spec},
    {Collective::scatter, &spec::scatter_spec},
    {Collective::alltoall, &spec::alltoall_spec},
    {Collective::alltoallv, &spec::alltoallv_spec},
    {Collective::reduce_scatter, &spec::reduce_scatter_spec},
    {Collective::reduce_scatterv, &spec::reduce_scatterv_spec},
    {Collective::scan, &spec::scan_spec},
    {Collective::exscan, &spec::exscan_spec},
    {Collective::sendrecv, &spec::sendrecv_spec},
    {Collective::barrier, &spec::barrier_spec},
}};
static_assert(in_collective_order(kSpecs), "one descriptor per collective, in declaration order");

}  // namespace

const CollectiveSpec& spec_for(Collective c) { return *row_of(kSpecs, c); }

std::uint64_t size_factor(SizeBasis basis, int comm_size) {
  switch (basis) {
    case SizeBasis::block:
    case SizeBasis::untuned: return 1;
    case SizeBasis::comm_total: return static_cast<std::uint64_t>(comm_size);
    case SizeBasis::none: return 0;
  }
  return 1;
}

std::string collective_names(bool (*keep)(const CollectiveSpec&), std::string_view last) {
  std::vector<std::string_view> names;
  for (const auto& [c, s] : kSpecs)
    if (!keep || keep(*s)) names.push_back(name(c));
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? fmt::format(" {} ", last) : std::string(", ");
    out += names[i];
  }
  return out;
}

InPlaceSide in_place_side(const Case& c, int rank) {
  const CollectiveSpec& spec = spec_for(c.collective);
  if (!c.in_place || (spec.rooted() && rank != c.root)) return InPlaceSide::none;
  return spec.in_place;
}

double algbw_GBps(const Case& c, double seconds) {
  if (seconds <= 0) return 0.0;
  return static_cast<double>(c.bytes) * spec_for(c.collective).algbw_bytes_factor(c.np) / seconds / 1e9;
}

double busbw_GBps(const Case& c, double seconds) {
  return algbw_GBps(c, seconds) * spec_for(c.collective).busbw_factor(c.np);
}

}  // namespace pico
