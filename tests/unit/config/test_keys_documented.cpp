// SPDX-License-Identifier: BSD-3-Clause
// docs/configuration.md's key tables name exactly the keys the parsers take
// (config/experiment.hpp, config/platform.hpp): a key added to a parser and
// not documented, or documented and gone, fails here (issue 69: the
// experiment's `instrumentation` and the platform's `placement` were parsed
// but missing from the tables).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "config/platform.hpp"

using namespace pico;

namespace {

std::string configuration_md() {
  std::ifstream in(std::string(PICO_SOURCE_DIR) + "/docs/configuration.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first column's `key` of every row of the first table after the line
// `heading` (and after `after`, a line between them, where a heading has
// several tables), up to the table's end.
std::set<std::string> table_keys(const std::string& doc, const std::string& heading, const std::string& after = "") {
  std::size_t at = doc.find("\n" + heading + "\n");
  REQUIRE(at != std::string::npos);
  if (!after.empty()) {
    at = doc.find("\n" + after + "\n", at);
    REQUIRE(at != std::string::npos);
  }
  std::istringstream lines(doc.substr(at + 1));
  std::set<std::string> keys;
  bool in_table = false;
  const std::regex row(R"(^\| `([a-z_]+)` \|)");
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("|")) {
      in_table = true;
      std::smatch m;
      if (std::regex_search(line, m, row)) keys.insert(m[1].str());
    } else if (in_table) {
      break;
    }
  }
  return keys;
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("docs/configuration.md's experiment tables name every key the parser takes", "[config][docs]") {
  const std::string doc = configuration_md();
  CHECK(table_keys(doc, "## Experiment file") == as_set(experiment_keys()));
  CHECK(table_keys(doc, "#### `timing`") == as_set(timing_keys()));
  CHECK(table_keys(doc, "#### `instrumentation`") == as_set(instrumentation_keys()));
}

TEST_CASE("docs/configuration.md's platform tables name every key the parser takes", "[config][docs]") {
  const std::string doc = configuration_md();
  CHECK(table_keys(doc, "## Platform file") == as_set(platform_keys()));
  CHECK(table_keys(doc, "## Platform file", "`launcher`:") == as_set(launcher_keys()));
  CHECK(table_keys(doc, "#### `mpi`") == as_set(platform_mpi_keys()));
}

TEST_CASE("the key-table reader sees a key missing from a table", "[config][docs]") {
  const std::string doc =
      "x\n## Section\n\n| Key | Type |\n|---|---|\n| `alpha` | int |\n| `beta` | map |\n\nafter\n| `gamma` | x |\n";
  CHECK(table_keys(doc, "## Section") == std::set<std::string>{"alpha", "beta"});
  CHECK(table_keys(doc, "## Section") != as_set({"alpha", "beta", "delta"}));
}
