// SPDX-License-Identifier: BSD-3-Clause
#include "config/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace pico {
namespace {

using u128 = unsigned __int128;

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = kKiB * 1024;
constexpr std::uint64_t kGiB = kMiB * 1024;
constexpr std::uint64_t kTiB = kGiB * 1024;

constexpr std::array<std::pair<std::string_view, std::uint64_t>, 9> kSizeUnits{{
    {"", 1},
    {"B", 1},
    {"KiB", kKiB},
    {"MiB", kMiB},
    {"GiB", kGiB},
    {"TiB", kTiB},
    {"KB", 1000},
    {"MB", 1000 * 1000},
    {"GB", 1000 * 1000 * 1000},
}};

// "m" is minutes, as the docs write `--race 10m` (and Slurm, Go, systemd read it); "ms" is milliseconds.
constexpr std::array<std::pair<std::string_view, double>, 8> kDurationUnits{{
    {"", 1.0},
    {"s", 1.0},
    {"ms", 1e-3},
    {"us", 1e-6},
    {"ns", 1e-9},
    {"m", 60.0},
    {"min", 60.0},
    {"h", 3600.0},
}};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Every parser reports through an optional out-parameter; this keeps the
// "set why, return nullopt" pattern to one line at each failure site.
template <class T>
std::optional<T> fail(std::string* why, std::string message) {
  if (why != nullptr) *why = std::move(message);
  return std::nullopt;
}

// Splits "4.5 KiB" into the number "4.5" and the unit "KiB".
std::pair<std::string_view, std::string_view> split_number(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && (is_digit(text[end]) || text[end] == '.' || text[end] == '-' || text[end] == '+'))
    ++end;
  return {text.substr(0, end), trim(text.substr(end))};
}

template <std::size_t N, class V>
std::optional<V> find_unit(const std::array<std::pair<std::string_view, V>, N>& table, std::string_view unit) {
  for (const auto& [name, value] : table)
    if (name == unit) return value;
  return std::nullopt;
}

bool parse_u64(std::string_view digits, std::uint64_t& out) {
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return ec == std::errc() && ptr == digits.data() + digits.size();
}

// Exact integer arithmetic so "1.5KiB" is 1536 and "0.3B" is rejected rather
// than rounded: sizes end up as buffer lengths and must be whole bytes.
std::optional<std::uint64_t> scale_decimal(std::string_view number, std::uint64_t unit, std::string_view text,
                                           std::string* why) {
  const auto dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view{} : number.substr(dot + 1);
  constexpr std::size_t kMaxFractionDigits = 9;
  if (frac.size() > kMaxFractionDigits) return fail<std::uint64_t>(why, fmt::format("too many decimals in '{}'", text));
  std::uint64_t w = 0;
  std::uint64_t f = 0;
  // The caller has checked that both parts are digits only, so failing here means overflow.
  if ((!whole.empty() && !parse_u64(whole, w)) || (!frac.empty() && !parse_u64(frac, f)))
    return fail<std::uint64_t>(why, fmt::format("size '{}' does not fit in 64 bits", text));
  u128 scale = 1;
  for (std::size_t i = 0; i < frac.size(); ++i) scale *= 10;
  const u128 numerator = (static_cast<u128>(w) * scale + f) * unit;
  if (numerator % scale != 0) return fail<std::uint64_t>(why, fmt::format("'{}' is not a whole number of bytes", text));
  const u128 bytes = numerator / scale;
  if (bytes > std::numeric_limits<std::uint64_t>::max())
    return fail<std::uint64_t>(why, fmt::format("size '{}' does not fit in 64 bits", text));
  return static_cast<std::uint64_t>(bytes);
}

std::optional<double> parse_double(std::string_view number) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto pos = text.find(sep);
    parts.push_back(trim(text.substr(0, pos)));
    if (pos == std::string_view::npos) return parts;
    text.remove_prefix(pos + 1);
  }
}

// One item of a size list: "4KiB" or a range "8B:1MiB[:factor]".
std::optional<std::vector<std::uint64_t>> parse_size_item(std::string_view item, std::string* why) {
  using Sizes = std::vector<std::uint64_t>;
  const auto parts = split(item, ':');
  if (parts.size() > 3)
    return fail<Sizes>(why, fmt::format("'{}' has too many parts; a range is FROM:TO or FROM:TO:FACTOR", item));
  std::array<std::uint64_t, 2> ends{};
  for (std::size_t i = 0; i < std::min<std::size_t>(parts.size(), 2); ++i) {
    auto v = parse_size(parts[i], why);
    if (!v) return std::nullopt;
    ends[i] = *v;
  }
  if (parts.size() == 1) return Sizes{ends[0]};
  std::uint64_t factor = 2;
  if (parts.size() == 3 && (!parse_u64(parts[2], factor) || factor < 2))
    return fail<Sizes>(why, fmt::format("range factor must be an integer >= 2, got '{}'", parts[2]));
  if (ends[0] == 0) return fail<Sizes>(why, fmt::format("range '{}' must start at 1 byte or more", item));
  if (ends[0] > ends[1])
    return fail<Sizes>(why, fmt::format("range '{}' starts above its end", item));
  return size_range(ends[0], ends[1], factor);
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text, std::string* why) {
  text = trim(text);
  if (text.empty()) return fail<std::uint64_t>(why, "empty size");
  if (text.front() == '-') return fail<std::uint64_t>(why, fmt::format("size '{}' is negative", text));
  const auto [number, unit_text] = split_number(text);
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string_view::npos ||
      number.find('.') != number.rfind('.') || number == ".")
    return fail<std::uint64_t>(why, fmt::format("'{}' is not a size", text));
  const auto unit = find_unit(kSizeUnits, unit_text);
  if (!unit) return fail<std::uint64_t>(why, fmt::format("unknown size unit '{}' in '{}'", unit_text, text));
  return scale_decimal(number, *unit, text, why);
}

std::optional<std::uint64_t> parse_tool_size(std::string_view text, std::string* why) {
  text = trim(text);
  if (text.size() >= 2 && is_digit(text[text.size() - 2])) {
    constexpr std::string_view kLetters = "KMGT";
    constexpr std::array<std::string_view, 4> kBinaryUnits = {"KiB", "MiB", "GiB", "TiB"};
    const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    if (const auto k = kLetters.find(letter); k != std::string_view::npos) {
      const std::string spelled = fmt::format("{}{}", text.substr(0, text.size() - 1), kBinaryUnits[k]);
      return parse_size(spelled, why);
    }
  }
  return parse_size(text, why);
}

std::optional<double> parse_duration_s(std::string_view text, std::string* why) {
  text = trim(text);
  if (text.empty()) return fail<double>(why, "empty duration");
  const auto [number, unit_text] = split_number(text);
  const auto value = parse_double(number);
  if (!value) return fail<double>(why, fmt::format("'{}' is not a duration", text));
  if (*value < 0) return fail<double>(why, fmt::format("duration '{}' is negative", text));
  const auto unit = find_unit(kDurationUnits, unit_text);
  if (!unit)
    return fail<double>(why, fmt::format("unknown duration unit '{}' in '{}' (units: s, ms, us, ns, m or min, h)",
                                         unit_text, text));
  if (*value * *unit > kMaxDurationS)
    return fail<double>(why, fmt::format("duration '{}' is longer than {} days", text, kMaxDurationS / 86400));
  return *value * *unit;
}

std::optional<double> parse_fraction(std::string_view text, std::string* why) {
  text = trim(text);
  if (text.empty()) return fail<double>(why, "empty fraction");
  const bool percent = text.back() == '%';
  const std::string_view number = percent ? trim(text.substr(0, text.size() - 1)) : text;
  const auto value = parse_double(number);
  if (!value) return fail<double>(why, fmt::format("'{}' is not a fraction (write 0.02 or 2%)", text));
  return percent ? *value / 100.0 : *value;
}

std::vector<std::uint64_t> size_range(std::uint64_t from, std::uint64_t to, std::uint64_t factor) {
  if (from == 0 || factor < 2) throw std::invalid_argument("size_range needs from >= 1 and factor >= 2");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = from; s <= to; s *= factor) {
    sizes.push_back(s);
    if (s > to / factor) break;  // the next step would pass 'to' or overflow
  }
  return sizes;
}

std::optional<std::vector<std::uint64_t>> parse_size_list(std::string_view text, std::string* why) {
  using Sizes = std::vector<std::uint64_t>;
  if (trim(text).empty()) return fail<Sizes>(why, "empty size list");
  Sizes sizes;
  for (std::string_view item : split(text, ',')) {
    if (item.empty()) return fail<Sizes>(why, fmt::format("empty item in size list '{}'", text));
    auto part = parse_size_item(item, why);
    if (!part) return std::nullopt;
    sizes.insert(sizes.end(), part->begin(), part->end());
  }
  return sizes;
}

std::string format_size(std::uint64_t bytes) {
  constexpr std::array<std::pair<std::string_view, std::uint64_t>, 4> kUnits{
      {{"TiB", kTiB}, {"GiB", kGiB}, {"MiB", kMiB}, {"KiB", kKiB}}};
  // Use the largest unit that shows the size exactly in at most two decimals,
  // so labels stay short and never round (1100 stays "1100B").
  for (const auto& [unit, scale] : kUnits) {
    if (bytes < scale || (static_cast<u128>(bytes) * 100) % scale != 0) continue;
    const std::uint64_t whole = bytes / scale;
    const auto hundredths = static_cast<unsigned>((static_cast<u128>(bytes % scale) * 100) / scale);
    if (hundredths == 0) return fmt::format("{}{}", whole, unit);
    if (hundredths % 10 == 0) return fmt::format("{}.{}{}", whole, hundredths / 10, unit);
    return fmt::format("{}.{:02}{}", whole, hundredths, unit);
  }
  return fmt::format("{}B", bytes);
}

std::string format_duration(double seconds) {
  if (!(seconds > 0)) return "0s";
  // Below a second in ms, so that a 50 ms budget is not shown as "0.1s".
  if (seconds < 0.9995) return seconds >= 0.0095 ? fmt::format("{:.0f}ms", seconds * 1e3) : fmt::format("{:.2g}ms", seconds * 1e3);
  if (seconds < 10) return fmt::format("{:.1f}s", seconds);
  const auto whole = static_cast<std::uint64_t>(seconds + 0.5);
  if (whole < 60) return fmt::format("{}s", whole);
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, (whole % 3600) / 60);
}

std::string decimal_unit_note(std::string_view text) {
  std::string binary(text);
  bool decimal = false;
  for (const std::string_view unit : {"KB", "MB", "GB"})
    for (auto at = binary.find(unit); at != std::string::npos; at = binary.find(unit, at + 3)) {
      binary.replace(at, 2, fmt::format("{}iB", unit[0]));
      decimal = true;
    }
  if (!decimal) return "";
  const auto bytes = parse_size(text);
  const auto binary_bytes = parse_size(binary);
  if (bytes && binary_bytes)
    return fmt::format("'{}' is {} B (KB, MB and GB are powers of 1000); {} is {} B", text, *bytes, binary,
                       *binary_bytes);
  return fmt::format("'{}' uses KB, MB or GB, powers of 1000; for powers of 1024 write '{}'", text, binary);
}

}  // namespace pico
