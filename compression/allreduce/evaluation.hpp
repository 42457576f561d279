// SPDX-License-Identifier: BSD-3-Clause
// The host side of checking a compressed allreduce, shared by the CPU
// backend (compressed) and the GPU one (nccl_compressed): the exact fp64
// reference over every rank's regenerated input, and the report's
// `compression` object (error, bias, bytes on the wire, identical ranks).
// Where the result was computed does not matter: the caller hands in a
// function that runs one numbered call and returns the result on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

// Far from the timed calls' numbers, so the checked call draws its own random numbers.
constexpr std::uint64_t kCheckedCall = 1ULL << 31;

// Every rank's input regenerated from (inputs, rank): p n draws, outside timing.
// `algorithm` supplies the replay of a deterministic method.
ExactReference exact_reference(const CompressedAllreduce& algorithm, const InputSpec& inputs, int np, std::size_t n);

struct Evaluated {
  const CompressedAllreduce& algorithm;  // parameters, wire volume, MSE bound
  std::string name;                      // the case's algorithm
  InputSpec inputs;
  int np = 1;
  int bias_calls = 16;
  // Runs call number `call` (state carried from the previous call) and returns its result on the host.
  std::function<std::span<const float>(std::uint64_t call)> run;
  // Forgets carried state (error feedback).
  std::function<void()> reset;
};

// The report's `compression` object: the first call after reset() against
// ref, then bias_calls calls in a row for the bias. Collective over harness.
nlohmann::json compression_report(const Evaluated& e, const ExactReference& ref, MPI_Comm harness);

}  // namespace pico::compressed
