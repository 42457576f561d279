// allreduce: every rank contributes count elements and receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count}; }

// In place, the input starts in the receive buffer.
void fill(const RankBuffers& b) {
  visit_dtype(b.c.dtype, [&]<class T>() {
    fill_reduce_input<T>(b.c, b.c.in_place ? b.recv : b.send, b.rank, b.c.count);
    if (!b.c.in_place) fill_reduce_sentinel<T>(b.c, b.recv, 0, b.c.count);
  });
}

std::uint64_t check(const RankBuffers& b) {
  return visit_dtype(b.c.dtype, [&]<class T>() { return count_reduce_mismatches<T>(b.c, b.recv, 0, b.c.count); });
}

}  // namespace

extern const CollectiveSpec allreduce_spec{Collective::allreduce, sizes, factor_one, factor_allreduce, fill, check};

}  // namespace pico::spec
