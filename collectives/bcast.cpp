// bcast: the root's count elements reach every rank (one buffer, in and out).
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {0, c.count}; }

void fill(const RankBuffers& b) {
  if (b.rank == b.c.root)
    b.elements.fill_payload(b.recv, 0, b.c.root, 0, b.c.count);
  else
    b.elements.fill_payload_sentinel(b.recv, 0, b.c.root, 0, b.c.count);
}

std::uint64_t check(const RankBuffers& b) {
  return b.elements.count_payload_mismatches(b.recv, 0, b.c.root, 0, b.c.count);
}

}  // namespace

extern const CollectiveSpec bcast_spec{Collective::bcast, sizes, factor_one, factor_one, fill, check};

}  // namespace pico::spec
