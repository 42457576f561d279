// SPDX-License-Identifier: BSD-3-Clause
// A block is a run of elements inside one buffer, named by the buffer's base
// pointer plus an element offset. Algorithms never do pointer arithmetic
// themselves: the transport scales by the element size, which lets the
// recording transport run on placeholder buffers and check every bound.
#pragma once

#include <cstddef>

namespace pico::transport {

struct Block {
  void* base = nullptr;
  std::size_t offset = 0;  // in elements
  std::size_t count = 0;   // in elements
};

struct ConstBlock {
  const void* base = nullptr;
  std::size_t offset = 0;
  std::size_t count = 0;

  constexpr ConstBlock() = default;
  constexpr ConstBlock(const void* b, std::size_t o, std::size_t c) : base(b), offset(o), count(c) {}
  constexpr ConstBlock(Block b) : base(b.base), offset(b.offset), count(b.count) {}  // NOLINT: widening is safe
};

constexpr bool same_place(ConstBlock a, ConstBlock b) { return a.base == b.base && a.offset == b.offset; }

}  // namespace pico::transport
