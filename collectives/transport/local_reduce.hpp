// SPDX-License-Identifier: BSD-3-Clause
// Element-wise local reduction dst = dst op src, chosen once per (dtype, op)
// so that transports apply it over blocks without deciding anything per call.
#pragma once

#include <cstddef>

#include "core/types.hpp"

namespace pico::transport {

using ReduceFn = void (*)(void* dst, const void* src, std::size_t count);

// Throws std::invalid_argument for Dtype::none or Op::none.
ReduceFn local_reduce_function(Dtype dtype, Op op);

}  // namespace pico::transport
