// SPDX-License-Identifier: BSD-3-Clause
// Sizes, durations and fractions as users write them (src/config/units.hpp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "config/units.hpp"

using namespace pico;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t GiB = 1024 * MiB;

// The reason parse_size gives for rejecting text ("" when it accepts it).
std::string size_error(const std::string& text) {
  std::string why;
  return parse_size(text, &why) ? std::string() : why;
}

}  // namespace

TEST_CASE("parse_size accepts bytes and binary/decimal units", "[units]") {
  CHECK(parse_size("8") == 8u);
  CHECK(parse_size("8B") == 8u);
  CHECK(parse_size("0") == 0u);
  CHECK(parse_size("4KiB") == 4 * KiB);
  CHECK(parse_size("1MiB") == MiB);
  CHECK(parse_size("1GiB") == GiB);
  CHECK(parse_size("2GiB") == 2 * GiB);
  CHECK(parse_size("1KB") == 1000u);
  CHECK(parse_size("1MB") == 1000000u);
  CHECK(parse_size("1GB") == 1000000000u);
  CHECK(parse_size("8 KiB") == 8 * KiB);
  CHECK(parse_size("  16B ") == 16u);
  CHECK(parse_size("1.5KiB") == 1536u);
  CHECK(parse_size("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("parse_size rejects malformed sizes with a reason", "[units]") {
  CHECK(size_error("8Q") == "unknown size unit 'Q' in '8Q'");
  CHECK(size_error("8kib") == "unknown size unit 'kib' in '8kib'");
  CHECK(size_error("-1") == "size '-1' is negative");
  CHECK(size_error("") == "empty size");
  CHECK(size_error("   ") == "empty size");
  CHECK(size_error("KiB") == "'KiB' is not a size");
  CHECK(size_error("1.2.3B") == "'1.2.3B' is not a size");
  CHECK(size_error("0.5B") == "'0.5B' is not a whole number of bytes");
  CHECK(size_error("18446744073709551616") == "size '18446744073709551616' does not fit in 64 bits");
  CHECK(size_error("16777216TiB") == "size '16777216TiB' does not fit in 64 bits");
  CHECK_FALSE(parse_size("8Q"));  // no out-parameter: still just nullopt
}

TEST_CASE("parse_duration_s reads seconds with units", "[units]") {
  CHECK(parse_duration_s("1s") == Approx(1.0));
  CHECK(parse_duration_s("200ms") == Approx(0.2));
  CHECK(parse_duration_s("50us") == Approx(50e-6));
  CHECK(parse_duration_s("10ns") == Approx(10e-9));
  CHECK(parse_duration_s("2min") == Approx(120.0));
  CHECK(parse_duration_s("1.5s") == Approx(1.5));
  CHECK(parse_duration_s("3") == Approx(3.0));
  CHECK(parse_duration_s("250 ms") == Approx(0.25));

  std::string why;
  CHECK_FALSE(parse_duration_s("3 fortnights", &why));
  CHECK(why == "unknown duration unit 'fortnights' in '3 fortnights' (units: s, ms, us, ns, m or min, h)");
  CHECK_FALSE(parse_duration_s("-1s", &why));
  CHECK(why == "duration '-1s' is negative");
  CHECK_FALSE(parse_duration_s("", &why));
  CHECK(why == "empty duration");
  CHECK_FALSE(parse_duration_s("soon", &why));
  CHECK(why == "'soon' is not a duration");
}

// Issue 53, finding 3: the documented `--race 10m` was refused, and 1e20 s
// dry-ran as "0s of measurement".
TEST_CASE("parse_duration_s reads the docs' 10m as minutes and refuses what no run could mean", "[units]") {
  CHECK(parse_duration_s("10m") == Approx(600.0));
  CHECK(parse_duration_s("10ms") == Approx(0.01));
  CHECK(parse_duration_s("2h") == Approx(7200.0));
  CHECK(parse_duration_s("30 m") == Approx(1800.0));
  CHECK(parse_duration_s("720h") == Approx(kMaxDurationS));
  std::string why;
  CHECK_FALSE(parse_duration_s("99999999999999999999s", &why));
  CHECK(why == "duration '99999999999999999999s' is longer than 30 days");
  CHECK_FALSE(parse_duration_s("721h", &why));
  CHECK_FALSE(parse_duration_s("1e3s", &why));  // no exponent notation (docs/configuration.md)
}

TEST_CASE("parse_fraction reads percentages and plain fractions", "[units]") {
  CHECK(parse_fraction("2%") == Approx(0.02));
  CHECK(parse_fraction("0.02") == Approx(0.02));
  CHECK(parse_fraction("50 %") == Approx(0.5));

  std::string why;
  CHECK_FALSE(parse_fraction("%", &why));
  CHECK(why == "'%' is not a fraction (write 0.02 or 2%)");
  CHECK_FALSE(parse_fraction("two", &why));
  CHECK_FALSE(parse_fraction("", &why));
  CHECK(why == "empty fraction");
}

TEST_CASE("size_range multiplies up to and including the end", "[units]") {
  const auto sizes = size_range(8, MiB, 2);
  REQUIRE(sizes.size() == 18);
  CHECK(sizes.front() == 8u);
  CHECK(sizes[1] == 16u);
  CHECK(sizes.back() == MiB);

  CHECK(size_range(8, 100, 4) == std::vector<std::uint64_t>{8, 32});
  CHECK(size_range(8, 8, 2) == std::vector<std::uint64_t>{8});
  CHECK(size_range(16, 8, 2).empty());
  // Stops before overflowing rather than wrapping around.
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  CHECK(size_range(std::uint64_t{1} << 62, top, 2) ==
        std::vector<std::uint64_t>{std::uint64_t{1} << 62, std::uint64_t{1} << 63});
  CHECK_THROWS_AS(size_range(8, 64, 1), std::invalid_argument);
  CHECK_THROWS_AS(size_range(0, 64, 2), std::invalid_argument);
}

TEST_CASE("parse_size_list reads ranges and comma lists", "[units]") {
  const auto range = parse_size_list("8B:64MiB");
  REQUIRE(range);
  CHECK(range->size() == 24);  // 2^3 .. 2^26
  CHECK(range->front() == 8u);
  CHECK(range->back() == 64 * MiB);

  CHECK(parse_size_list("8B:1KiB:4") == std::vector<std::uint64_t>{8, 32, 128, 512});
  CHECK(parse_size_list("8B,4KiB") == std::vector<std::uint64_t>{8, 4 * KiB});
  CHECK(parse_size_list("8B, 4KiB, 1MiB") == std::vector<std::uint64_t>{8, 4 * KiB, MiB});
  CHECK(parse_size_list("4KiB") == std::vector<std::uint64_t>{4 * KiB});

  std::string why;
  CHECK_FALSE(parse_size_list("8B:1KiB:1", &why));
  CHECK(why == "range factor must be an integer >= 2, got '1'");
  CHECK_FALSE(parse_size_list("1KiB:8B", &why));
  CHECK(why == "range '1KiB:8B' starts above its end");
  CHECK_FALSE(parse_size_list("0:8B", &why));
  CHECK(why == "range '0:8B' must start at 1 byte or more");
  CHECK_FALSE(parse_size_list("8B,,4KiB", &why));
  CHECK(why == "empty item in size list '8B,,4KiB'");
  CHECK_FALSE(parse_size_list("8Q:1KiB", &why));
  CHECK(why == "unknown size unit 'Q' in '8Q'");
  CHECK_FALSE(parse_size_list("8B:16B:2:3", &why));
  CHECK_FALSE(parse_size_list("", &why));
  CHECK(why == "empty size list");
}

TEST_CASE("format_size picks the largest exact unit", "[units]") {
  CHECK(format_size(MiB) == "1MiB");
  CHECK(format_size(1000) == "1000B");
  CHECK(format_size(1536) == "1.5KiB");
  CHECK(format_size(0) == "0B");
  CHECK(format_size(8) == "8B");
  CHECK(format_size(KiB) == "1KiB");
  CHECK(format_size(4 * KiB) == "4KiB");
  CHECK(format_size(GiB) == "1GiB");
  CHECK(format_size(MiB + MiB / 4) == "1.25MiB");
  CHECK(format_size(1100) == "1100B");          // 1.07421875KiB would be too long
  CHECK(format_size(MiB + MiB / 8) == "1152KiB");  // 1.125MiB likewise
  CHECK(format_size(std::uint64_t{1} << 40) == "1TiB");
}

TEST_CASE("format_size output parses back to the same size", "[units]") {
  for (std::uint64_t s : size_range(1, std::uint64_t{1} << 50, 3)) {
    INFO(s);
    CHECK(parse_size(format_size(s)) == s);
  }
  for (std::uint64_t s : {std::uint64_t{1536}, MiB + MiB / 4, 3 * GiB / 2}) CHECK(parse_size(format_size(s)) == s);
}

TEST_CASE("parse_tool_size reads OSU and nccl-tests sizes: one letter is 1024-based", "[units]") {
  CHECK(parse_tool_size("1K") == 1024u);
  CHECK(parse_tool_size("4m") == 4u * 1024 * 1024);
  CHECK(parse_tool_size("2G") == 2ull * 1024 * 1024 * 1024);
  CHECK(parse_tool_size("1.5K") == 1536u);
  CHECK(parse_tool_size("64") == 64u);
  CHECK(parse_tool_size("8MiB") == 8u * 1024 * 1024);
  CHECK(parse_tool_size("1KB") == 1000u);  // pico's own units keep their meaning
  std::string why;
  CHECK_FALSE(parse_tool_size("K", &why));
  CHECK_FALSE(parse_tool_size("1X", &why));
  CHECK(why == "unknown size unit 'X' in '1X'");
  CHECK_FALSE(parse_tool_size("99999999999T", &why));
  CHECK_THAT(why, Catch::Contains("does not fit in 64 bits"));
}

// Issue 51's loose end: `validate` printed a 50 ms budget as "0.1s".
TEST_CASE("format_duration shows less than a second in milliseconds", "[units]") {
  CHECK(format_duration(0.05) == "50ms");
  CHECK(format_duration(0.2504) == "250ms");
  CHECK(format_duration(0.0004) == "0.4ms");
  CHECK(format_duration(0.9999) == "1.0s");
  CHECK(format_duration(1.5) == "1.5s");
  CHECK(format_duration(75) == "1m15s");
  CHECK(format_duration(0) == "0s");
}

TEST_CASE("a size written in KB, MB or GB is noted as decimal, with the binary one beside (issue 65)", "[units]") {
  CHECK(decimal_unit_note("64KB") == "'64KB' is 64000 B (KB, MB and GB are powers of 1000); 64KiB is 65536 B");
  CHECK(decimal_unit_note("8B:1MB") == "'8B:1MB' uses KB, MB or GB, powers of 1000; for powers of 1024 write '8B:1MiB'");
  CHECK(decimal_unit_note("2GB").find("2GiB is 2147483648 B") != std::string::npos);
  CHECK(decimal_unit_note("64KiB").empty());
  CHECK(decimal_unit_note("8B:1MiB").empty());
  CHECK(decimal_unit_note("1024").empty());
}
