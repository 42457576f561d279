// SPDX-License-Identifier: BSD-3-Clause
#include "cli/exit_codes.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "core/build_info.hpp"
#include "support/command_output.hpp"
#include "support/external_error.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

namespace pico::cli {
namespace {

// Where to report, said once: README.md's "Reporting a bug" names what to send.
Failure internal_error(const std::string& where, const std::string& what) {
  return {kInternalErrorExitCode,
          render_error(where, fmt::format("internal error: {}", what),
                       fmt::format("this is a bug in pico, not a problem with your input: please report it to pico's "
                                   "repository (README.md, 'Reporting a bug') with the command you ran, this message "
                                   "and the version, pico {} ({})",
                                   build::version, build::git_hash))};
}

}  // namespace

Failure failure_of(std::exception_ptr error, const std::string& where) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    return {kBadInputExitCode, e.what()};
  } catch (const WriteError& e) {
    return {kWriteErrorExitCode, render_error("could not write results", e.what())};
  } catch (const ExternalError& e) {
    return {kExternalErrorExitCode, render_error(where, e.what())};
  } catch (const Interrupted& e) {
    return {kInterruptedExitCode, render_error("pico", e.what())};
  } catch (const std::exception& e) {
    return internal_error(where, e.what());
  } catch (...) {
    return internal_error(where, "an exception that is no std::exception");
  }
}

void throw_if_test_internal_error(const std::string& verb) {
  const char* wanted = std::getenv("PICO_TEST_INTERNAL_ERROR");
  if (wanted != nullptr && verb == wanted)
    throw std::logic_error(fmt::format("PICO_TEST_INTERNAL_ERROR={}: a logic_error thrown on purpose (tests only)", verb));
}

}  // namespace pico::cli
