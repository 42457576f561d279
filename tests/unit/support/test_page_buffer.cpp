// SPDX-License-Identifier: BSD-3-Clause
// A case's buffers: page-aligned mappings of their own, zeroed, kept mapped
// between cases (support/page_buffer.hpp; issue 64).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <new>
#include <utility>

#include "support/page_buffer.hpp"

using pico::PageBuffer;

namespace {

std::uintptr_t page_offset(const std::byte* p) {
  return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("page buffer: two buffers share their page offset, so no copy between them is 4K-aliased") {
  // From the heap, a 256 KiB receive buffer sat 16 B past a page multiple from the send buffer, and
  // memcpy between them took 94 us against 6 (AMD EPYC): what made pico's allreduce 3-5x OSU's.
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{262144}, std::size_t{262144 + 16}}) {
    const PageBuffer send(bytes), recv(bytes);
    CHECK(page_offset(send.data()) == 0);
    CHECK(page_offset(recv.data()) == 0);
    CHECK(send.size() == bytes);
  }
}

TEST_CASE("page buffer: zeroed, never null, and its pages reused by the next buffer that fits") {
  const PageBuffer empty(0);
  CHECK(empty.data() != nullptr);
  const std::byte* first = nullptr;
  {
    PageBuffer b(3 << 20);  // larger than the other tests' buffers: a mapping of its own
    bool zeroed = true;
    for (std::size_t i = 0; i < b.size(); ++i) zeroed = zeroed && b.data()[i] == std::byte{0};
    CHECK(zeroed);
    b.data()[77] = std::byte{5};
    first = b.data();
  }
  CHECK(pico::kept_page_buffer_bytes() >= (3 << 20));
  const PageBuffer again((3 << 20) - 5000);  // fits the kept mapping: the same pages, zeroed again
  CHECK(again.data() == first);
  CHECK(again.data()[77] == std::byte{0});
}

TEST_CASE("page buffer: a move hands the mapping over once") {
  PageBuffer a(5000);
  std::byte* p = a.data();
  PageBuffer b(std::move(a));
  CHECK(b.data() == p);
  CHECK(a.data() == nullptr);  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  PageBuffer c;
  c = std::move(b);
  CHECK(c.data() == p);
  CHECK(c.size() == 5000);
  c = PageBuffer();
  CHECK(c.data() == nullptr);
}

TEST_CASE("page buffer: a size no mapping can hold is refused, not wrapped to a small one") {
  CHECK_THROWS_AS(PageBuffer(~std::size_t{0}), std::bad_alloc);
  CHECK_THROWS_AS(PageBuffer(~std::size_t{0} - 100), std::bad_alloc);
}
