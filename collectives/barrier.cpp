// barrier: no payload; nothing to fill or check, no bandwidth.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case&, int) { return {0, 0}; }
double no_bandwidth(int) { return 0.0; }
void fill(const RankBuffers&) {}
std::uint64_t check(const RankBuffers&) { return 0; }

}  // namespace

extern const CollectiveSpec barrier_spec{Collective::barrier, sizes, no_bandwidth, no_bandwidth, fill, check};

}  // namespace pico::spec
