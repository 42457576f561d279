// SPDX-License-Identifier: BSD-3-Clause
// The single dispatch table of reference algorithms: (collective, name) ->
// the algorithm, instantiated for whichever transport asks, with what the
// algorithm needs reserved before it runs. Adding an algorithm is one line
// here (plus its entry in configs/catalog/reference.yaml).
#pragma once

#include <cstddef>
#include <string_view>

#include "collectives/reference/allgather.hpp"
#include "collectives/reference/allreduce.hpp"
#include "collectives/reference/alltoall.hpp"
#include "collectives/reference/alltoallv.hpp"
#include "collectives/reference/barrier.hpp"
#include "collectives/reference/bcast.hpp"
#include "collectives/reference/exscan.hpp"
#include "collectives/reference/gather.hpp"
#include "collectives/reference/reduce.hpp"
#include "collectives/reference/reduce_scatter.hpp"
#include "collectives/reference/scan.hpp"
#include "collectives/reference/scatter.hpp"
#include "core/types.hpp"

namespace pico::reference {

// Scratch elements an algorithm uses, from count, ranks and segment elements.
using ScratchFn = std::size_t (*)(std::size_t count, int p, std::size_t segment);

struct AlgorithmTraits {
  Collective collective;
  std::string_view name;
  ScratchFn scratch;
  bool segmented;  // takes the segment_size parameter
};

template <class T>
struct AlgorithmEntry {
  AlgorithmTraits traits;
  void (*run)(T&, const CallArgs&);
};

namespace scratch {
constexpr std::size_t none(std::size_t, int, std::size_t) { return 0; }
constexpr std::size_t one(std::size_t n, int, std::size_t) { return n; }
constexpr std::size_t two(std::size_t n, int, std::size_t) { return 2 * n; }
constexpr std::size_t all(std::size_t n, int p, std::size_t) { return n * static_cast<std::size_t>(p); }
constexpr std::size_t all_twice(std::size_t n, int p, std::size_t) { return 2 * all(n, p, 0); }
constexpr std::size_t all_thrice(std::size_t n, int p, std::size_t) { return 3 * all(n, p, 0); }
constexpr std::size_t ring_block(std::size_t n, int p, std::size_t) {
  return ceil_div(n, static_cast<std::size_t>(p));
}
constexpr std::size_t two_ring_blocks(std::size_t n, int p, std::size_t) { return 2 * ring_block(n, p, 0); }
constexpr std::size_t two_segments(std::size_t n, int p, std::size_t seg) {
  const std::size_t block = ring_block(n, p, 0);
  return 2 * (seg == 0 || seg > block ? block : seg);
}
}  // namespace scratch

template <class T>
inline constexpr AlgorithmEntry<T> kAlgorithms[] = {
    {{Collective::allreduce, "recursive_doubling", scratch::one, false}, allreduce_recursive_doubling<T>},
    {{Collective::allreduce, "ring", scratch::ring_block, false}, allreduce_ring<T>},
    {{Collective::allreduce, "rabenseifner", scratch::one, false}, allreduce_rabenseifner<T>},
    {{Collective::allreduce, "reduce_bcast", scratch::one, false}, allreduce_reduce_bcast<T>},
    {{Collective::allreduce, "segmented_ring", scratch::two_segments, true}, allreduce_segmented_ring<T>},
    {{Collective::bcast, "binomial", scratch::none, false}, bcast_binomial<T>},
    {{Collective::bcast, "scatter_allgather", scratch::none, false}, bcast_scatter_allgather<T>},
    {{Collective::bcast, "chain", scratch::none, true}, bcast_chain<T>},
    {{Collective::bcast, "linear", scratch::none, false}, bcast_linear<T>},
    {{Collective::reduce, "binomial", scratch::two, false}, reduce_binomial<T>},
    {{Collective::reduce, "rabenseifner", scratch::two, false}, reduce_rabenseifner<T>},
    {{Collective::allgather, "ring", scratch::none, false}, allgather_ring<T>},
    {{Collective::allgather, "recursive_doubling", scratch::none, false}, allgather_recursive_doubling<T>},
    {{Collective::allgather, "bruck", scratch::all, false}, allgather_bruck<T>},
    {{Collective::reduce_scatter, "ring", scratch::two, false}, reduce_scatter_ring<T>},
    {{Collective::reduce_scatter, "recursive_halving", scratch::all_twice, false}, reduce_scatter_recursive_halving<T>},
    {{Collective::reduce_scatter, "pairwise", scratch::two, false}, reduce_scatter_pairwise<T>},
    {{Collective::reduce_scatterv, "ring", scratch::two_ring_blocks, false}, reduce_scatterv_ring<T>},
    {{Collective::reduce_scatterv, "recursive_halving", scratch::two, false}, reduce_scatterv_recursive_halving<T>},
    {{Collective::reduce_scatterv, "pairwise", scratch::two_ring_blocks, false}, reduce_scatterv_pairwise<T>},
    {{Collective::scan, "linear", scratch::one, false}, scan_linear<T>},
    {{Collective::scan, "recursive_doubling", scratch::two, false}, scan_recursive_doubling<T>},
    {{Collective::exscan, "linear", scratch::one, false}, exscan_linear<T>},
    {{Collective::exscan, "recursive_doubling", scratch::two, false}, exscan_recursive_doubling<T>},
    {{Collective::alltoall, "pairwise", scratch::all, false}, alltoall_pairwise<T>},
    {{Collective::alltoall, "bruck", scratch::all_thrice, false}, alltoall_bruck<T>},
    {{Collective::alltoall, "linear", scratch::all, false}, alltoall_linear<T>},
    {{Collective::alltoallv, "pairwise", scratch::none, false}, alltoallv_pairwise<T>},
    {{Collective::alltoallv, "linear", scratch::none, false}, alltoallv_linear<T>},
    {{Collective::gather, "binomial", scratch::all, false}, gather_binomial<T>},
    {{Collective::gather, "linear", scratch::none, false}, gather_linear<T>},
    {{Collective::scatter, "binomial", scratch::all, false}, scatter_binomial<T>},
    {{Collective::scatter, "linear", scratch::none, false}, scatter_linear<T>},
    {{Collective::barrier, "dissemination", scratch::none, false}, barrier_dissemination<T>},
};

// The entry for (collective, name), or nullptr.
template <class T>
const AlgorithmEntry<T>* find_algorithm(Collective c, std::string_view name) {
  for (const auto& e : kAlgorithms<T>)
    if (e.traits.collective == c && e.traits.name == name) return &e;
  return nullptr;
}

}  // namespace pico::reference
