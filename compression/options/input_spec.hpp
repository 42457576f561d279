// SPDX-License-Identifier: BSD-3-Clause
// What a compressed case's input vectors are drawn from (the experiment's
// `inputs:`): a type of its own so that the front end reads and checks it
// without the kernels that generate it (compression/kernels/inputs.cpp).
#pragma once

#include <cstdint>

namespace pico::compressed {

enum class Distribution { normal, laplace, student_t };
enum class Correlation { identical, correlated, independent };
struct InputSpec {
  Distribution distribution = Distribution::normal;
  Correlation correlation = Correlation::independent;
  double rho = 0.5;       // correlated: x_r = sqrt(rho) z_common + sqrt(1 - rho) z_r
  double dof = 3.0;       // student_t degrees of freedom
  std::uint64_t seed = 1;
};

}  // namespace pico::compressed
