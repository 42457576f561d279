// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <string>
#include <vector>

#include "reports/fitted_table.hpp"
#include "widest_line.hpp"

using namespace pico;

using pico::test::widest_line;

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
  // So are closing words in parentheses: what a call form or a missing interposer says.
  CHECK(shortened("unknown (no interposer)", 16, abbreviated) == "unknown (no interposer)");
  CHECK(shortened("mpi/recursive_doubling (nonblocking)", 24, abbreviated) == "recursiv.. (nonblocking)");
  // Only the last: the rest of the label is cut as any other.
  CHECK(shortened("mpi/default (counts uniform) (ran pairwise)", 24, abbreviated) == "default.. (ran pairwise)");
}

TEST_CASE("fitted_table shortens every names column to one length", "[reports][fitted_table]") {
  static constexpr std::array<TextColumn, 4> kColumns = {
      {{"collective", false}, {"size", true}, {"fastest", false}, {"choice", false}}};
  // The choice differs from the fastest in a row, so neither column repeats the other.
  const std::vector<std::vector<std::string>> rows = {
      {"bcast", "8B", "chain_with_a_long_name chain_fanout=4 segment_size=65536",
       "chain_with_a_long_name chain_fanout=4 segment_size=65536"},
      {"allreduce", "64KiB", "basic_linear", "default (not confident)"}};
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
    CHECK(widest_line(table) <= 100);
  }
  SECTION("--wide cuts nothing") {
    const std::string table = fitted_table(kColumns, rows, kUnlimitedWidth, {}, {2, 3});
    CHECK(table.find("parameters:") == std::string::npos);
    CHECK(widest_line(table) == table_width(kColumns, rows));
  }
}

namespace {

// A run table's columns and rows, as reports/render.cpp builds them: names column 1, the last three optional.
constexpr std::array<TextColumn, 7> kRunColumns = {{{"collective", false},
                                                    {"backend/algorithm", false},
                                                    {"size", true},
                                                    {"median(us)", true},
                                                    {"iterations", true},
                                                    {"p95(us)", true},
                                                    {"validation", false}}};

std::vector<std::vector<std::string>> run_rows(std::size_t padding) {
  const std::string pad(padding, 'x');
  return {{"reduce_scatter", "mpi/default (ran recursive_halving)", "8B", "0.25", "50", "0.31", "passed"},
          {"reduce_scatter", "mpi/ring_" + pad, "4KiB", "3.02", "42", "3.16", "passed"},
          {"allreduce", "mpi/recursive_doubling", "256KiB", "41.36", "44", "52.67", "skipped"}};
}

}  // namespace

// Issue 65: run, compare and tune --check tables still printed 128-181 columns where names could not be cut.
TEST_CASE("fitted_table says a names column's one backend once", "[reports][fitted_table]") {
  const auto rows = run_rows(40);
  REQUIRE(table_width(kRunColumns, rows) > 100);
  const std::string table = fitted_table(kRunColumns, rows, 100, {}, {1}, {4, 5, 6});
  CHECK(table.starts_with("backend: mpi\n"));
  CHECK(table.find("\ncollective      algorithm ") != std::string::npos);  // the header without "backend/"
  CHECK(table.find("  default (ran recursive_halving)  ") != std::string::npos);
  CHECK(table.find("mpi/") == std::string::npos);
  CHECK(widest_line(table) <= 100);
}

TEST_CASE("fitted_table leaves out the optional columns in order and only as many as it must",
          "[reports][fitted_table]") {
  SECTION("one is enough") {
    const auto rows = run_rows(40);
    const std::string table = fitted_table(kRunColumns, rows, 90, {}, {1}, {4, 5, 6});
    CHECK(widest_line(table) <= 90);
    CHECK(table.find("not shown in 90 columns (--wide shows them): iterations\n") != std::string::npos);
    CHECK(table.find("p95(us)") != std::string::npos);
    CHECK(table.find("validation") != std::string::npos);
  }
  SECTION("all three and then names cut with what a default ran kept whole") {
    const auto rows = run_rows(40);
    const std::string table = fitted_table(kRunColumns, rows, 60, {}, {1}, {4, 5, 6});
    // The line wrapped to the width too.
    CHECK(table.find("not shown in 60 columns (--wide shows them): iterations,\np95(us), validation\n") !=
          std::string::npos);
    CHECK(table.find("default (ran recursive_halving)") != std::string::npos);
    CHECK(table.find("ring_xxxxxxxxx..") != std::string::npos);  // cut to 16 columns
  }
  SECTION("labels cut to 16 columns rather than one column more left out, where that alone fits") {
    const std::vector<std::vector<std::string>> rows = {
        {"allreduce", "mpi/a_rather_long_algorithm_name", "8B", "0.25", "50", "0.31", "passed"},
        {"bcast", "mpi/ring", "4KiB", "3.02", "42", "3.16", "skipped"}};
    const std::size_t whole = table_width(kRunColumns, rows);  // 97: 81 with the label in 16 columns
    const std::string table = fitted_table(kRunColumns, rows, whole - 14, {}, {1}, {4, 5, 6});
    CHECK(table.find("not shown") == std::string::npos);
    CHECK(table.find("a_rather_long_al..") != std::string::npos);  // only as short as the table needs
    CHECK(widest_line(table) <= whole - 14);
  }
  SECTION("--wide leaves nothing out") {
    const auto rows = run_rows(40);
    const std::string table = fitted_table(kRunColumns, rows, kUnlimitedWidth, {}, {1}, {4, 5, 6});
    CHECK(table.find("not shown") == std::string::npos);
    CHECK(table.find("mpi/ring_" + std::string(40, 'x')) != std::string::npos);
    CHECK(widest_line(table) == table_width(kRunColumns, rows));
  }
}

TEST_CASE("fitted_table says a column that repeats the names column by it", "[reports][fitted_table]") {
  static constexpr std::array<TextColumn, 4> kColumns = {
      {{"size", true}, {"baseline", false}, {"candidate", false}, {"speedup", true}}};
  std::vector<std::vector<std::string>> rows = {{"8B", "mpi/ring_with_a_long_name", "mpi/ring_with_a_long_name", "1.01x"},
                                                {"4KiB", "mpi/rabenseifner", "mpi/rabenseifner", "0.98x"}};
  const std::string table = fitted_table(kColumns, rows, 40, {}, {2});
  CHECK(table.find("baseline=candidate") != std::string::npos);
  CHECK(table.find("ring_with_a_long_name") != std::string::npos);
  CHECK(widest_line(table) <= 40);
  rows[1][1] = "mpi/ring";  // a row that differs keeps both
  CHECK(fitted_table(kColumns, rows, 40, {}, {2}).find("baseline=candidate") == std::string::npos);
}

TEST_CASE("TableNotes wrap each note with its further lines indented", "[reports][fitted_table]") {
  TableNotes notes("case");
  notes.add("skipped: " + std::string(60, 'a') + " " + std::string(60, 'b'));
  const std::string lines = notes.lines(100);
  CHECK(lines == "[1] 1 case skipped: " + std::string(60, 'a') + "\n    " + std::string(60, 'b') + "\n");
}
