// SPDX-License-Identifier: BSD-3-Clause
// pico's exit code by the cause of what ended a verb (src/cli/exit_codes.hpp):
// only the user's input is 2, and a bug says it is one.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cli/exit_codes.hpp"
#include "support/command_output.hpp"
#include "support/external_error.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

using namespace pico;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

template <class E>
cli::Failure failure_from(const E& e) {
  return cli::failure_of(std::make_exception_ptr(e), "pico run");
}

void check_internal(const cli::Failure& f, const std::string& what) {
  CHECK(f.exit_code == cli::kInternalErrorExitCode);
  CHECK(f.exit_code != cli::kBadInputExitCode);
  CHECK_THAT(f.message, StartsWith("pico: error: pico run: internal error: " + what));
  CHECK_THAT(f.message, Contains("this is a bug in pico, not a problem with your input") &&
                            Contains("README.md, 'Reporting a bug'"));
}

}  // namespace

TEST_CASE("bad input exits 2 with its own message, and only bad input", "[cli][exit]") {
  const InputError e("exp.yaml", 3, 9, "unknown key 'sizez'", "did you mean 'sizes'?");
  const cli::Failure f = failure_from(e);
  CHECK(f.exit_code == 2);
  CHECK(f.message == e.what());
  CHECK_THAT(f.message, !Contains("bug"));
}

TEST_CASE("an output that cannot be written exits 3 naming the file and the reason", "[cli][exit]") {
  const cli::Failure f = failure_from(WriteError("/full/report.json", ENOSPC));
  CHECK(f.exit_code == 3);
  CHECK(f.message == "pico: error: could not write results: cannot write /full/report.json: No space left on device");
}

TEST_CASE("a program or the system pico relies on exits 4, named after the verb, not blamed on pico", "[cli][exit]") {
  const cli::Failure f = failure_from(ExternalError("txt2bin rejected x.goal (exit code 3): broken"));
  CHECK(f.exit_code == kExternalErrorExitCode);
  CHECK(f.exit_code == 4);
  CHECK(f.message == "pico: error: pico run: txt2bin rejected x.goal (exit code 3): broken");
}

TEST_CASE("a signal exits 130", "[cli][exit]") {
  CHECK(failure_from(Interrupted()).exit_code == 130);
}

TEST_CASE("a logic_error, a stray invalid_argument or runtime_error, or a non-standard throw is a bug: exit 70",
          "[cli][exit]") {
  check_internal(failure_from(std::logic_error("a collective's tag span exceeds GOAL's tags")),
                 "a collective's tag span exceeds GOAL's tags");
  // Before issue 69 these read as the user's mistake (exit 2).
  check_internal(failure_from(std::invalid_argument("unknown backend 'x'")), "unknown backend 'x'");
  check_internal(failure_from(std::runtime_error("map::at")), "map::at");
  check_internal(failure_from(42), "an exception that is no std::exception");
}

TEST_CASE("PICO_TEST_INTERNAL_ERROR throws a logic_error in the verb it names, and only there", "[cli][exit]") {
  ::setenv("PICO_TEST_INTERNAL_ERROR", "report", 1);
  CHECK_NOTHROW(cli::throw_if_test_internal_error("run"));
  CHECK_THROWS_AS(cli::throw_if_test_internal_error("report"), std::logic_error);
  ::unsetenv("PICO_TEST_INTERNAL_ERROR");
  CHECK_NOTHROW(cli::throw_if_test_internal_error("report"));
}
