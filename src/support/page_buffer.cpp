// SPDX-License-Identifier: BSD-3-Clause
#include "support/page_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "support/checked_math.hpp"

namespace pico {
namespace {

// Mappings given back, reused smallest-fitting first. A sweep's cases cycle
// through the same few sizes (interleaved rounds revisit them), so a handful
// covers it; past the caps the largest kept go back to the kernel, so a run
// that once held 2 x 1 GiB does not keep it through its small cases.
constexpr std::size_t kMaxKept = 16;
constexpr std::size_t kMaxKeptBytes = std::size_t{1} << 30;

struct Mapping {
  std::byte* data;
  std::size_t length;
};

class Pool {
 public:
  // A kept mapping of at least `length` bytes, or none.
  Mapping take(std::size_t length) {
    std::lock_guard lock(mutex_);
    auto best = kept_.end();
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->length >= length && (best == kept_.end() || it->length < best->length)) best = it;
    if (best == kept_.end()) return {nullptr, 0};
    const Mapping m = *best;
    kept_.erase(best);
    bytes_ -= m.length;
    return m;
  }

  void keep(Mapping m) {
    std::lock_guard lock(mutex_);
    kept_.push_back(m);
    bytes_ += m.length;
    while (kept_.size() > kMaxKept || bytes_ > kMaxKeptBytes) {
      auto largest = std::max_element(kept_.begin(), kept_.end(),
                                      [](const Mapping& a, const Mapping& b) { return a.length < b.length; });
      munmap(largest->data, largest->length);
      bytes_ -= largest->length;
      kept_.erase(largest);
    }
  }

  std::size_t bytes() {
    std::lock_guard lock(mutex_);
    return bytes_;
  }

 private:
  std::mutex mutex_;
  std::vector<Mapping> kept_;
  std::size_t bytes_ = 0;
};

// Built at the first buffer, so destroyed after every buffer made after it; no
// PageBuffer lives in a static object (the backends are the case runner's).
// What it keeps at exit ends with the process.
Pool& pool() {
  static Pool p;
  return p;
}

// `bytes` rounded up to whole pages. Within a page of 2^64 the sum would wrap
// to 0, which the pool would answer with any kept mapping: refused instead.
std::size_t whole_pages(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::optional<std::uint64_t> padded = checked_add(std::max<std::size_t>(bytes, 1), page - 1);
  if (!padded) throw std::bad_alloc();
  return *padded / page * page;
}

}  // namespace

PageBuffer::PageBuffer(std::size_t bytes) : size_(bytes) {
  const std::size_t length = whole_pages(bytes);
  Mapping m = pool().take(length);
  if (m.data == nullptr) {
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    m = {static_cast<std::byte*>(p), length};
  }
  data_ = m.data;
  capacity_ = m.length;
  std::memset(data_, 0, std::max<std::size_t>(bytes, 1));
}

PageBuffer::~PageBuffer() { give_back(); }

PageBuffer::PageBuffer(PageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

PageBuffer& PageBuffer::operator=(PageBuffer&& other) noexcept {
  if (this != &other) {
    give_back();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void PageBuffer::give_back() noexcept {
  if (data_ == nullptr) return;
  try {
    pool().keep({data_, capacity_});
  } catch (...) {  // the pool could not grow its list: unmap instead
    munmap(data_, capacity_);
  }
  data_ = nullptr;
  size_ = capacity_ = 0;
}

std::size_t kept_page_buffer_bytes() { return pool().bytes(); }

}  // namespace pico
