// SPDX-License-Identifier: BSD-3-Clause
// Helpers the MPI test files share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <mpi.h>

#include "core/case.hpp"

namespace pico::test {

// The two communicators of a worker, as the tests use them: harness() for
// barriers, timing reductions and agreeing on assertions; measured() for the
// collectives under test. Distinct duplicates of MPI_COMM_WORLD (made in
// main.cpp before any test runs), so a test that mixes them up hangs or fails
// instead of passing by accident.
MPI_Comm harness();
MPI_Comm measured();

// The sum over the harness communicator, the same on every rank, so assertions on it agree.
inline std::uint64_t sum_over_ranks(std::uint64_t local) {
  unsigned long long in = local, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, harness());
  return out;
}

// A case of `backend` with the fields every test sets; tests set the rest (root, params, ...).
inline Case make_case(std::string backend, Collective coll, std::string algorithm, Dtype dtype, Op op,
                      std::uint64_t count, int np, bool in_place = false) {
  Case c;
  c.backend = std::move(backend);
  c.collective = coll;
  c.algorithm = std::move(algorithm);
  c.dtype = dtype;
  c.op = op;
  c.count = count;
  c.bytes = count * dtype_size(dtype);
  c.np = np;
  c.in_place = in_place;
  return c;
}

// The count-matrix patterns a count-matrix collective (alltoallv) is
// validated under on np ranks: alltoall's, a random one with empty and large
// blocks, an incast on the last rank, a steep power law (blocks of 0 at
// small counts) and nccl-tests' distance matrix (nothing to itself).
inline std::vector<std::string> count_patterns_for_tests(int np) {
  return {"uniform", "random:seed=5", fmt::format("hot:rank={},factor=16", np - 1), "powerlaw:alpha=2", "distance"};
}

}  // namespace pico::test
