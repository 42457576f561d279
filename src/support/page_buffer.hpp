// SPDX-License-Identifier: BSD-3-Clause
// A case's message buffer: page-aligned anonymous memory of its own mapping,
// as an application's large malloc or OSU's posix_memalign(page) gets, kept
// mapped between cases so that the next case writes pages already there.
//
// Why not the heap (issue 64): the worker used to keep freed memory mapped by
// making glibc serve every buffer up to 32 MiB from the heap
// (mallopt(M_MMAP_THRESHOLD), M_TRIM_THRESHOLD). Consecutive heap chunks sit
// 16 B (glibc's chunk header) past a page multiple from each other, and on an
// AMD EPYC a memcpy between two buffers 16 B apart modulo 4096 (4K aliasing)
// took 94 us for 256 KiB against 6: MPI_Allreduce of 256 KiB ran 250 us
// instead of 73 in a bare MPI loop with the same mallopt, 79 with its buffers
// mapped on their own. docs/methodology.md#buffers says it for users.
#pragma once

#include <cstddef>

namespace pico {

class PageBuffer {
 public:
  PageBuffer() = default;
  // At least `bytes` (at least one byte, so the buffer is never null), zeroed,
  // every page touched: first-touch faults stay out of the timed loop.
  explicit PageBuffer(std::size_t bytes);
  ~PageBuffer();
  PageBuffer(PageBuffer&& other) noexcept;
  PageBuffer& operator=(PageBuffer&& other) noexcept;
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void give_back() noexcept;

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;      // what was asked for
  std::size_t capacity_ = 0;  // the mapping's length, whole pages
};

// Mappings given back and kept for reuse (tests read it).
std::size_t kept_page_buffer_bytes();

}  // namespace pico
