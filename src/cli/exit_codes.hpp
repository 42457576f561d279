// SPDX-License-Identifier: BSD-3-Clause
// What pico exits with, by the cause of the exception that ended a verb, and
// what it prints for it (docs/configuration.md#exit-codes): the user's input
// (InputError, 2), an output it could not write (WriteError, 3), a program
// or the system it relies on (ExternalError, 4), a signal (Interrupted, 130),
// and anything else - a logic_error, a stray invalid_argument - a bug in
// pico (70), said as such, so that a bug never reads as the user's mistake.
// A failed case is no exception: the verb returns 1 itself.
#pragma once

#include <exception>
#include <string>

namespace pico::cli {

inline constexpr int kBadInputExitCode = 2;
inline constexpr int kInternalErrorExitCode = 70;  // sysexits.h's EX_SOFTWARE

struct Failure {
  int exit_code = kInternalErrorExitCode;
  std::string message;  // in the one error format, no final newline
};

// The failure `error`, thrown while verb `where` ("pico run", or "pico"
// before a verb was known) ran, ends pico with.
Failure failure_of(std::exception_ptr error, const std::string& where);

// Tests only: throws a std::logic_error when the environment has
// PICO_TEST_INTERNAL_ERROR=VERB for this verb ("report"), so that a test can
// see a real internal error leave a real verb (tests/e2e: internal_error).
void throw_if_test_internal_error(const std::string& verb);

}  // namespace pico::cli
