// SPDX-License-Identifier: BSD-3-Clause
// Parsing and printing of the quantities users write: byte sizes, durations, percentages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

// "8", "8B", "4KiB", "1MiB", "2GiB", "1KB" (=1000), "1MB", "1GB". Whitespace between
// number and unit is allowed. Returns nullopt with *why set on error.
std::optional<std::uint64_t> parse_size(std::string_view text, std::string* why = nullptr);
// A size as OSU and nccl-tests take it on their command lines: a single
// letter K, M, G or T (either case) is 1024-based ("1K" = 1024, "4M" =
// 4 MiB); anything else as parse_size.
std::optional<std::uint64_t> parse_tool_size(std::string_view text, std::string* why = nullptr);
// The longest duration pico reads (30 days): anything longer is a typo, and
// nanosecond counts of it stay far inside 64 bits.
inline constexpr double kMaxDurationS = 30.0 * 86400.0;
// "1s", "200ms", "50us", "10ns", "10m" or "10min", "2h", "1.5s"; a bare number
// means seconds; at most kMaxDurationS. The one duration grammar: every
// duration in YAML and on the command line goes through it.
std::optional<double> parse_duration_s(std::string_view text, std::string* why = nullptr);
// "2%" -> 0.02, "0.02" -> 0.02.
std::optional<double> parse_fraction(std::string_view text, std::string* why = nullptr);

// Sizes from..to multiplying by factor (factor >= 2), inclusive of 'to' when reached.
std::vector<std::uint64_t> size_range(std::uint64_t from, std::uint64_t to, std::uint64_t factor);
// "8B:64MiB" (factor 2), "8B:64MiB:4", or a comma list "8B,4KiB,1MiB".
std::optional<std::vector<std::uint64_t>> parse_size_list(std::string_view text, std::string* why = nullptr);
// For a size or size list written with a decimal unit (KB, MB, GB: powers of
// 1000, which parse_size reads as such), what the user most likely meant
// instead: "'64KB' is 64000 B (KB, MB and GB are powers of 1000); 64KiB is
// 65536 B". "" when the text has no decimal unit.
std::string decimal_unit_note(std::string_view text);

// 1048576 -> "1MiB", 1000 -> "1000B", 1536 -> "1.5KiB".
std::string format_size(std::uint64_t bytes);
// Elapsed or remaining time for people: 0.4 -> "0.4s", 75 -> "1m15s", 7384 -> "2h03m".
std::string format_duration(double seconds);

}  // namespace pico
