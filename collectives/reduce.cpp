// reduce: every rank contributes count elements; the root receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count}; }

// In place, the root's input starts in its receive buffer.
void fill(const RankBuffers& b) {
  const bool root_in_place = b.c.in_place && b.rank == b.c.root;
  b.elements.fill_reduce_input(root_in_place ? b.recv : b.send, b.rank, b.c.count);
  if (!root_in_place) b.elements.fill_reduce_sentinel(b.recv, 0, b.c.count);
}

std::uint64_t check(const RankBuffers& b) {
  if (b.rank != b.c.root) return 0;
  return b.elements.count_reduce_mismatches(b.recv, 0, b.c.count);
}

}  // namespace

extern const CollectiveSpec reduce_spec{Collective::reduce, sizes, factor_one, factor_one, fill, check};

}  // namespace pico::spec
