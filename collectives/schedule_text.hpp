// SPDX-License-Identifier: BSD-3-Clause
// Text helpers for the schedule writers. Schedules run to billions of
// lines, so a line is written as raw stores: the writer asks a TextBuffer
// for room once (`room(n)` with n at least the line's longest form), then
// appends string literals (a memcpy of a length known at compile time) and
// integers (up to eight digits computed in one register and stored as one
// word) through a plain char pointer, and `commit`s it. Buffers are reused
// from rank to rank, so after the first ranks nothing allocates.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>

namespace pico::schedule_text {

// ascii8 and the word stores that use it put the first character in the lowest byte.
static_assert(std::endian::native == std::endian::little, "schedule text stores assume a little-endian machine");

class TextBuffer {
 public:
  using Sink = std::function<void(std::string_view)>;
  TextBuffer() = default;
  // A buffer that only weighs what is written (a replay's size estimate):
  // each commit's bytes are counted and the memory reused, so weighing a
  // rank of GBs of GOAL holds one line's room, not the GBs.
  static TextBuffer counting() { return draining(nullptr, 0); }
  // A buffer that hands its text to `sink` whenever a commit leaves `at`
  // bytes or more, and on drain(): a rank of GBs streamed, not held.
  static TextBuffer draining(Sink sink, std::size_t at) {
    TextBuffer t;
    t.sink_ = std::move(sink);
    t.drain_at_ = at;
    return t;
  }

  // A pointer with at least n writable bytes after it.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(cap_ - size_) < n) grow(n);
    return data_.get() + size_;
  }
  void commit(char* end) {
    size_ = static_cast<std::size_t>(end - data_.get());
    if (size_ >= drain_at_) drain();
  }
  // Hands what is held to the sink (a counting buffer only counts it).
  void drain() {
    if (sink_ && size_ > 0) sink_(view());
    counted_ += size_;
    size_ = 0;
  }
  void clear() { size_ = counted_ = 0; }

  // The text held (not what was drained) and the size of all written.
  std::string_view view() const { return {data_.get(), size_}; }
  std::size_t size() const { return counted_ + size_; }

 private:
  void grow(std::size_t n) {
    std::size_t cap = cap_ == 0 ? std::size_t{1} << 16 : cap_ * 2;
    while (cap - size_ < n) cap *= 2;
    auto bigger = std::make_unique_for_overwrite<char[]>(cap);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    cap_ = cap;
  }

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t cap_ = 0;
  std::size_t counted_ = 0;
  std::size_t drain_at_ = SIZE_MAX;  // never, for a plain buffer
  Sink sink_;
};

// The room `put` needs for any integer: 20 digits and a sign (the one-word
// path stores 8 bytes however short the number).
inline constexpr std::size_t kMaxDecimal = 21;

template <std::size_t N>
inline char* put(char* at, const char (&s)[N]) {
  std::memcpy(at, s, N - 1);
  return at + N - 1;
}

inline char* put(char* at, std::string_view s) {
  std::memcpy(at, s.data(), s.size());
  return at + s.size();
}

// Number of decimal digits of v (1 for 0), from its bit length.
inline int decimal_digits(std::uint64_t v) {
  static constexpr std::uint64_t kPow10[] = {1,
                                             10,
                                             100,
                                             1000,
                                             10000,
                                             100000,
                                             1000000,
                                             10000000,
                                             100000000,
                                             1000000000,
                                             10000000000,
                                             100000000000,
                                             1000000000000,
                                             10000000000000,
                                             100000000000000,
                                             1000000000000000,
                                             10000000000000000,
                                             100000000000000000,
                                             1000000000000000000,
                                             10000000000000000000u};
  // bits x log10(2) ~ bits x 1233 / 4096 undercounts by at most one digit;
  // v | 1 has the digits of v and makes 0 one digit long.
  const std::uint64_t x = v | 1;
  const int guess = ((64 - __builtin_clzll(x)) * 1233) >> 12;
  return guess + (x >= kPow10[guess]);
}

// The 8 decimal digits of x < 10^8 as ASCII in one register, the most
// significant in the lowest byte (first in memory), computed four, then two,
// then one digit per lane: for text that is stored whole and read back soon,
// where byte stores followed by a wide load would stall store forwarding.
inline std::uint64_t ascii8(std::uint32_t x) {
  const std::uint64_t halves = (x / 10000) | (static_cast<std::uint64_t>(x % 10000) << 32);
  const std::uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007Full;  // lane / 100
  const std::uint64_t pairs = hundreds | ((halves - hundreds * 100) << 16);
  const std::uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Full;  // lane / 10
  const std::uint64_t digits = tens | ((pairs - tens * 10) << 8);
  return digits + 0x3030303030303030ull;
}

// Writes v's digits at `at` and returns the end. Below 10^8 (sizes, ranks,
// tags, labels) the digits are stored as one 8-byte word, so `at` needs
// kMaxDecimal bytes of room whatever v is.
inline char* put(char* at, std::uint64_t v) {
  if (v < 100000000) {
    const int digits = decimal_digits(v);
    const std::uint64_t text = ascii8(static_cast<std::uint32_t>(v)) >> (8 * (8 - digits));
    std::memcpy(at, &text, 8);
    return at + digits;
  }
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  const int digits = decimal_digits(v);
  char* p = at + digits;
  while (v >= 100) {
    const auto pair = static_cast<std::size_t>(v % 100) * 2;
    v /= 100;
    *--p = kPairs[pair + 1];
    *--p = kPairs[pair];
  }
  if (v >= 10) {
    *--p = kPairs[v * 2 + 1];
    *--p = kPairs[v * 2];
  } else {
    *--p = static_cast<char>('0' + v);
  }
  return at + digits;
}

// Remembers the text of the last integer it wrote: schedules repeat the
// same sizes, peers and tags line after line, so most writes are a compare
// and one 8-byte store. Needs the same room as put.
class DecimalMemo {
 public:
  char* put(char* at, std::uint64_t v) {
    if (v != value_) {
      if (v >= 100000000) return schedule_text::put(at, v);
      value_ = v;
      digits_ = decimal_digits(v);
      text_ = ascii8(static_cast<std::uint32_t>(v)) >> (8 * (8 - digits_));
    }
    std::memcpy(at, &text_, 8);
    return at + digits_;
  }

 private:
  std::uint64_t value_ = ~std::uint64_t{0};
  std::uint64_t text_ = 0;
  int digits_ = 0;
};

// A GOAL label's text `l<N>`, formatted once when its operation is written
// and copied into each `requires` line that names it. It is one 16-byte value,
// text in the low 15 bytes (first character lowest) and its length in the
// top byte, kept in registers and stored as two 8-byte words: text built
// byte by byte in memory and read back at once, or a struct copied with
// mixed widths, stalls store forwarding, which was a quarter of the run
// time. N < 10^14 always: a rank's operations are indexed by 32 bits.
class Label {
 public:
  Label() = default;
  explicit Label(std::uint64_t n) {
    const unsigned size = 1 + static_cast<unsigned>(decimal_digits(n));
    U128 text = ascii8(static_cast<std::uint32_t>(n % 100000000));
    if (n < 100000000) {
      text >>= 8 * (9 - size);  // drop the leading zeros of the 8 digits
    } else {
      text = text << 64 | ascii8(static_cast<std::uint32_t>(n / 100000000));
      text >>= 8 * (17 - size);  // of the 16 digits
    }
    word_ = text << 8 | 'l' | U128{size} << 120;
  }

  // The label of N + 1: labels are numbered in order, so nine times in ten
  // this adds one to the last digit.
  Label next(std::uint64_t n_plus_1) const {
    const unsigned shift = 8 * (size() - 1);
    if (static_cast<char>(word_ >> shift) == '9') return Label(n_plus_1);
    Label l;
    l.word_ = word_ + (U128{1} << shift);
    return l;
  }

  char* write(char* at) const {
    const auto lo = static_cast<std::uint64_t>(word_), hi = static_cast<std::uint64_t>(word_ >> 64);
    std::memcpy(at, &lo, 8);  // whole words: the bytes past the label are overwritten next
    std::memcpy(at + 8, &hi, 8);
    return at + size();
  }

 private:
  using U128 = unsigned __int128;
  unsigned size() const { return static_cast<unsigned>(word_ >> 120); }

  U128 word_ = 0;
};

inline char* put(char* at, std::int64_t v) {
  if (v >= 0) return put(at, static_cast<std::uint64_t>(v));
  *at = '-';
  return put(at + 1, ~static_cast<std::uint64_t>(v) + 1);
}

inline char* put(char* at, int v) { return put(at, static_cast<std::int64_t>(v)); }
inline char* put(char* at, std::uint32_t v) { return put(at, static_cast<std::uint64_t>(v)); }

}  // namespace pico::schedule_text
