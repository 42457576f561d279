// bcast: the root's count elements reach every rank (one buffer, in and out).
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {0, c.count}; }

void fill(const RankBuffers& b) {
  visit_dtype(b.c.dtype, [&]<class T>() {
    if (b.rank == b.c.root)
      fill_payload<T>(b.recv, 0, b.c.root, 0, b.c.count);
    else
      fill_payload_sentinel<T>(b.recv, 0, b.c.root, 0, b.c.count);
  });
}

std::uint64_t check(const RankBuffers& b) {
  return visit_dtype(b.c.dtype,
                     [&]<class T>() { return count_payload_mismatches<T>(b.recv, 0, b.c.root, 0, b.c.count); });
}

}  // namespace

extern const CollectiveSpec bcast_spec{Collective::bcast, sizes, factor_one, factor_one, fill, check};

}  // namespace pico::spec
