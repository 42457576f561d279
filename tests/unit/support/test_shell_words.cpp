// SPDX-License-Identifier: BSD-3-Clause
// Shell words as bash reads them back, on one line and wrapped to a width
// (the Slurm job script's steps: issue 65, a step's line was 194 columns).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/shell_words.hpp"

using namespace pico;

namespace {

// The words bash makes of `command`: each printed on a line of its own.
std::vector<std::string> words_bash_reads(const std::string& command) {
  const CommandOutput out = run_command({"bash", "-c", "printf '%s\\n' " + command});
  REQUIRE(out.exit.ok());
  std::vector<std::string> words;
  std::istringstream lines(out.output);
  for (std::string line; std::getline(lines, line);) words.push_back(line);
  return words;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const std::vector<std::string> kStep{"env",
                                     "OMPI_MCA_coll_tuned_use_dynamic_rules=1",
                                     "srun",
                                     "--nodes=1",
                                     "--ntasks=2",
                                     "--kill-on-bad-exit=1",
                                     "--cpu-bind=cores",
                                     "--mpi=pmix",
                                     "/home/user/projects/pico/build/pico-worker",
                                     "--launch",
                                     "/scratch/user/results/cluster/20261203T101500Z-abc123/launch-12.json",
                                     "--out",
                                     "/scratch/user/results/cluster/20261203T101500Z-abc123",
                                     "it's a word with spaces"};

}  // namespace

TEST_CASE("shell_join quotes only what the shell would read otherwise", "[support][shell]") {
  CHECK(shell_quote("plain-word_1.2/x=y:z,+@%") == "plain-word_1.2/x=y:z,+@%");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == R"('it'\''s')");
  CHECK(words_bash_reads(shell_join(kStep)) == kStep);
}

TEST_CASE("a wrapped command keeps its lines within the width and reads as the same words", "[support][shell]") {
  const std::string one_line = "run_step 12 " + shell_join(kStep);
  REQUIRE(one_line.size() > 100);
  const std::string wrapped = shell_join_wrapped("run_step 12", kStep);
  const std::vector<std::string> lines = lines_of(wrapped);
  CHECK(lines.size() > 1);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO(lines[i]);
    CHECK(lines[i].size() <= 100);
    CHECK((i + 1 < lines.size()) == lines[i].ends_with(" \\"));  // every line but the last continues
    if (i > 0) CHECK(lines[i].starts_with("    "));
  }
  std::vector<std::string> expected{"run_step", "12"};
  expected.insert(expected.end(), kStep.begin(), kStep.end());
  CHECK(words_bash_reads(wrapped) == expected);
  // A short command stays on one line, as shell_join writes it.
  CHECK(shell_join_wrapped("run_step 0", {"srun", "-n", "2"}) == "run_step 0 srun -n 2");
}

TEST_CASE("a word wider than the width gets a line of its own", "[support][shell]") {
  const std::string wide(150, 'x');
  const std::string wrapped = shell_join_wrapped("cmd", {"a", wide, "b"}, 40);
  CHECK(lines_of(wrapped) == std::vector<std::string>{"cmd a \\", "    " + wide + " \\", "    b"});
  CHECK(words_bash_reads(wrapped) == std::vector<std::string>{"cmd", "a", wide, "b"});
}
