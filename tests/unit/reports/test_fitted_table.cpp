// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "reports/fitted_table.hpp"

using namespace pico;

namespace {

std::size_t widest_line(const std::string& text) {
  std::istringstream in(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(in, line);) widest = std::max(widest, line.size());
  return widest;
}

}  // namespace

TEST_CASE("shortened abbreviates parameter names in both spellings", "[reports][fitted_table]") {
  std::map<std::string, std::string> abbreviated;
  CHECK(shortened("mpi/chain[chain_fanout=4;segment_size=65536]", 30, abbreviated) == "mpi/chain[cf=4;ss=65536]");
  // tune's spelling: parameters after the name, one a word.
  CHECK(shortened("chain chain_fanout=4 segment_size=65536", 30, abbreviated) == "chain cf=4 ss=65536");
  CHECK(abbreviated == std::map<std::string, std::string>{{"cf", "chain_fanout"}, {"ss", "segment_size"}});
  // A label that fits, or has no parameters, is left whole or cut at its end.
  CHECK(shortened("chain chain_fanout=4", 30, abbreviated) == "chain chain_fanout=4");
  CHECK(shortened("default (not confident) at all", 12, abbreviated) == "default (n..");
}

// Issue 65: a fitted run table cut "mpi/default (ran rabenseifner)" to "mpi/default (ran raben..", hiding what ran.
TEST_CASE("shortened keeps what a default ran whole", "[reports][fitted_table]") {
  std::map<std::string, std::string> abbreviated;
  CHECK(shortened("mpi/default (ran rabenseifner)", 40, abbreviated) == "mpi/default (ran rabenseifner)");
  CHECK(shortened("mpi/default (ran rabenseifner)", 24, abbreviated) == "default (ran rabenseifner)");
  CHECK(shortened("mpi/default (ran scatter_allgather_ring)", 24, abbreviated) ==
        "default (ran scatter_allgather_ring)");
  CHECK(shortened("nccl/default_with_a_long_name (ran ring)", 24, abbreviated) == "default_wit.. (ran ring)");
}

TEST_CASE("fitted_table shortens every names column to one length", "[reports][fitted_table]") {
  static constexpr std::array<TextColumn, 4> kColumns = {
      {{"collective", false}, {"size", true}, {"fastest", false}, {"choice", false}}};
  const std::vector<std::vector<std::string>> rows = {
      {"bcast", "8B", "chain_with_a_long_name chain_fanout=4 segment_size=65536",
       "chain_with_a_long_name chain_fanout=4 segment_size=65536"},
      {"allreduce", "64KiB", "basic_linear", "basic_linear"}};
  REQUIRE(table_width(kColumns, rows) > 100);

  SECTION("both are cut, so the table fits in 100 columns") {
    const std::string table = fitted_table(kColumns, rows, 100, {}, {2, 3});
    CHECK(widest_line(table) <= 100);
    CHECK(table.find("chain_with_a_long_name cf=4 ss=65536") != std::string::npos);
    CHECK(table.find("parameters: cf chain_fanout, ss segment_size") != std::string::npos);
  }
  SECTION("with one names column the other stays whole and the table is wider") {
    const std::string table = fitted_table(kColumns, rows, 100, {}, {2});
    CHECK(table.find("chain_with_a_long_name chain_fanout=4 segment_size=65536") != std::string::npos);
    CHECK(widest_line(table) > 100);
  }
  SECTION("--wide cuts nothing") {
    const std::string table = fitted_table(kColumns, rows, kUnlimitedWidth, {}, {2, 3});
    CHECK(table.find("parameters:") == std::string::npos);
    CHECK(widest_line(table) == table_width(kColumns, rows));
  }
}
