// SPDX-License-Identifier: BSD-3-Clause
// The harness's own collectives, built from point-to-point messages on the
// harness communicator. A forced algorithm can then never touch them: MPICH
// applies its CVARs to every communicator in the process, and under
// MPIR_CVAR_COLLECTIVE_FALLBACK=error a harness MPI_Allreduce of one value
// would fail with an algorithm forced for the measured allreduce.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/clock_offset.hpp"

namespace pico::harness {

enum class Reduction { max, min, sum };

// Dissemination barrier: ceil(log2 p) rounds of empty messages.
void barrier(MPI_Comm comm);

// Element-wise reduction of n values, result on every rank (binomial reduce
// to rank 0, then binomial broadcast). Every rank gets the same bits.
void allreduce(MPI_Comm comm, double* values, int n, Reduction r);
void allreduce(MPI_Comm comm, int* values, int n, Reduction r);
void allreduce(MPI_Comm comm, unsigned long long* values, int n, Reduction r);

// Rank 0 gets every rank's string, in rank order; other ranks get nothing.
std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine);
// Root's string on every rank.
std::string broadcast_string(MPI_Comm comm, const std::string& value, int root);

// Rank 0 gets every rank's n values, in rank order (size x n); other ranks get nothing.
std::vector<double> gather_doubles(MPI_Comm comm, const double* mine, int n);

// Clock ping-pong with rank 0 (core/clock_offset.hpp): on rank r > 0,
// `rounds` rounds; on rank 0, none. Rank 0 answers one rank's rounds at a
// time: a rank's first round may wait behind the previous rank's, and the
// estimate's shortest round discards it.
std::vector<PingPong> clock_ping_pong(MPI_Comm comm, int rounds);

// One exchange of `bytes` each way with `partner` (the link probe,
// core/link_probe.hpp); returns its duration on this rank's clock.
double exchange(MPI_Comm comm, int partner, const unsigned char* out, unsigned char* in, int bytes);

}  // namespace pico::harness
