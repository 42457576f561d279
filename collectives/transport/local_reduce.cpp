// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/transport/local_reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace pico::transport {
namespace {

// Integer arithmetic runs in an unsigned type at least as wide as int, so it
// wraps modulo 2^bits exactly like the closed forms in collectives/pattern.hpp
// (signed overflow, and uint16 * uint16 promoted to int, would be undefined).
template <class T>
using Arith = std::conditional_t<std::is_floating_point_v<T>, T,
                                 std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>>;

struct Sum {
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Arith<T>>(a) + static_cast<Arith<T>>(b));
  }
};
struct Prod {
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Arith<T>>(a) * static_cast<Arith<T>>(b));
  }
};
struct Min {
  template <class T>
  static T apply(T a, T b) {
    return std::min(a, b);
  }
};
struct Max {
  template <class T>
  static T apply(T a, T b) {
    return std::max(a, b);
  }
};

template <class T, class O>
void reduce_loop(void* dst, const void* src, std::size_t count) {
  T* __restrict d = static_cast<T*>(dst);
  const T* __restrict s = static_cast<const T*>(src);
  for (std::size_t i = 0; i < count; ++i) d[i] = O::template apply<T>(d[i], s[i]);
}

template <class O>
ReduceFn for_op(Dtype dtype) {
  return visit_dtype(dtype, []<class T>() -> ReduceFn { return reduce_loop<T, O>; });
}

}  // namespace

ReduceFn local_reduce_function(Dtype dtype, Op op) {
  if (dtype == Dtype::none) throw std::invalid_argument("a reduction needs a datatype");
  switch (op) {
    case Op::sum: return for_op<Sum>(dtype);
    case Op::prod: return for_op<Prod>(dtype);
    case Op::min: return for_op<Min>(dtype);
    case Op::max: return for_op<Max>(dtype);
    case Op::none: break;
  }
  throw std::invalid_argument("a reduction needs an operation");
}

}  // namespace pico::transport
