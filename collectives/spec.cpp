// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/spec.hpp"

#include <stdexcept>

namespace pico {
namespace spec {
extern const CollectiveSpec allreduce_spec, bcast_spec, reduce_spec, allgather_spec, gather_spec, scatter_spec,
    alltoall_spec, reduce_scatter_spec, sendrecv_spec, barrier_spec;
}

// No default: -Wswitch names a collective left without a spec.
const CollectiveSpec& spec_for(Collective c) {
  switch (c) {
    case Collective::allreduce: return spec::allreduce_spec;
    case Collective::bcast: return spec::bcast_spec;
    case Collective::reduce: return spec::reduce_spec;
    case Collective::allgather: return spec::allgather_spec;
    case Collective::gather: return spec::gather_spec;
    case Collective::scatter: return spec::scatter_spec;
    case Collective::alltoall: return spec::alltoall_spec;
    case Collective::reduce_scatter: return spec::reduce_scatter_spec;
    case Collective::sendrecv: return spec::sendrecv_spec;
    case Collective::barrier: return spec::barrier_spec;
  }
  throw std::logic_error("spec_for: unknown collective");
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
