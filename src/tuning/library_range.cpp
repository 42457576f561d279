// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/library_range.hpp"

#include <fmt/format.h>

#include "support/checked_math.hpp"
#include "tuning/export_refusal.hpp"

namespace pico {

std::optional<LibraryRange> library_range_within(const ProfileRange& range, std::uint64_t factor) {
  // No message size (barrier): every range is the library's size 0, where only the first applies.
  if (factor == 0) return LibraryRange{0, range.max_bytes ? std::optional<std::uint64_t>(0) : std::nullopt};
  // Block sizes up to max_bytes map to keys up to (max_bytes + 1) * factor - 1:
  // the next range's first key is (max_bytes + 1) * factor. Checked, so that a
  // size times the comm size never wraps to a small key, and bounded by what
  // the libraries' readers take (Open MPI's %li, JSON int64).
  const auto fits = [](std::optional<std::uint64_t> v) { return v && *v <= kMaxLibraryBytes; };
  const std::optional<std::uint64_t> min = checked_mul(range.min_bytes, factor);
  std::optional<std::uint64_t> end = 0;  // one past the last key; unused when unbounded
  if (range.max_bytes) {
    end = checked_add(*range.max_bytes, 1);
    if (end) end = checked_mul(*end, factor);
  }
  if (!fits(min) || !fits(end)) return std::nullopt;
  LibraryRange r;
  r.min = *min;
  if (range.max_bytes) r.max = *end - 1;
  return r;
}

LibraryRange library_range(const ProfileRule& rule, const ProfileRange& range, std::uint64_t factor) {
  if (auto r = library_range_within(range, factor)) return *r;
  throw ExportRefusal(fmt::format("{}: the range from {} B{} reaches past 2^63-1 B as the library counts it "
                                  "({} x pico's bytes)",
                                  describe(rule), range.min_bytes,
                                  range.max_bytes ? fmt::format(" to {} B", *range.max_bytes) : std::string(), factor),
                      "tune sizes the library can carry: the libraries read message sizes as 64-bit signed integers");
}

}  // namespace pico
