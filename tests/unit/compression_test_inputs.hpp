// SPDX-License-Identifier: BSD-3-Clause
// Inputs for the compression kernels' tests: rank 0's vector of the seeded
// generator (compression/kernels/inputs.cpp), as every test draws it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compression/kernels/kernels.hpp"

namespace pico::compressed::testing {

inline std::vector<float> generated_input(std::size_t n, std::uint64_t seed,
                                          Distribution distribution = Distribution::normal) {
  std::vector<float> x(n);
  InputSpec spec;
  spec.seed = seed;
  spec.distribution = distribution;
  generate_input(spec, 0, x);
  return x;
}

}  // namespace pico::compressed::testing
