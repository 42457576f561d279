// reduce: every rank contributes count elements; the root receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count}; }

// In place, the root's input starts in its receive buffer.
void fill(const RankBuffers& b) {
  visit_dtype(b.c.dtype, [&]<class T>() {
    const bool root_in_place = b.c.in_place && b.rank == b.c.root;
    fill_reduce_input<T>(b.c, root_in_place ? b.recv : b.send, b.rank, b.c.count);
    if (!root_in_place) fill_reduce_sentinel<T>(b.c, b.recv, 0, b.c.count);
  });
}

std::uint64_t check(const RankBuffers& b) {
  if (b.rank != b.c.root) return 0;
  return visit_dtype(b.c.dtype, [&]<class T>() { return count_reduce_mismatches<T>(b.c, b.recv, 0, b.c.count); });
}

}  // namespace

extern const CollectiveSpec reduce_spec{Collective::reduce, sizes, factor_one, factor_one, fill, check};

}  // namespace pico::spec
