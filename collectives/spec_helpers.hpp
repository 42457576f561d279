// What the per-collective spec files share: the common bandwidth factors and
// the element steps (collectives/element_ops.hpp) they compose.
#pragma once

#include <cstdint>

#include "collectives/element_ops.hpp"
#include "collectives/spec.hpp"

namespace pico::spec {

inline double factor_one(int) { return 1.0; }
inline double factor_np(int np) { return np; }
inline double factor_ring(int np) { return np > 0 ? static_cast<double>(np - 1) / np : 0.0; }
inline double factor_allreduce(int np) { return 2.0 * factor_ring(np); }

}  // namespace pico::spec
