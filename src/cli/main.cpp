// SPDX-License-Identifier: BSD-3-Clause
// pico: benchmark and tune collective communication. Thin dispatch over the
// verbs in src/cli/; each verb's work lives in a library that is tested alone.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "config/yaml_reader.hpp"
#include "core/build_info.hpp"
#include "support/input_error.hpp"

namespace {

// CLI11's "Could not convert: --np = two" as pico's own error, naming the
// option and what it takes; nullopt for any other parse error.
std::optional<pico::InputError> conversion_error(const CLI::ParseError& e, CLI::App* verb, const std::string& verb_name) {
  constexpr std::string_view kPrefix = "Could not convert: ";
  const std::string_view what = e.what();
  const auto eq = what.find(" = ");
  if (dynamic_cast<const CLI::ConversionError*>(&e) == nullptr || !what.starts_with(kPrefix) ||
      eq == std::string_view::npos)
    return std::nullopt;
  const std::string option(what.substr(kPrefix.size(), eq - kPrefix.size()));
  const std::string value(what.substr(eq + 3));
  const CLI::Option* opt = verb != nullptr ? verb->get_option_no_throw(option) : nullptr;
  const std::string type = opt != nullptr ? opt->get_type_name() : "";
  const std::string wanted = type == "INT"    ? "a whole number"
                             : type == "UINT" ? "a whole number from 0 up"
                             : type == "FLOAT" || type == "NUMBER" ? "a number"
                                                                   : "";
  const std::string help = fmt::format("see '{} --help'", verb_name);
  if (wanted.empty()) return pico::InputError(option, fmt::format("'{}' is not a value {} takes", value, option), help);
  return pico::InputError(option, fmt::format("'{}' is not {}", value, wanted),
                          fmt::format("give {}, e.g. {} 4; {}", wanted, option, help));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pico: benchmark and tune collective communication (MPI, NCCL)", "pico"};
  app.set_version_flag("--version", fmt::format("pico {} ({})", pico::build::version, pico::build::git_hash));
  app.require_subcommand(1);
  int exit_code = 0;
  pico::cli::add_run(app, exit_code);
  pico::cli::add_collect(app, exit_code);
  pico::cli::add_bench(app, exit_code);
  pico::cli::add_validate(app, exit_code);
  pico::cli::add_report(app, exit_code);
  pico::cli::add_list(app, exit_code);
  pico::cli::add_schedule(app, exit_code);
  pico::cli::add_compare(app, exit_code);
  pico::cli::add_tune(app, exit_code);
  pico::cli::add_export(app, exit_code);
  pico::cli::add_fit(app, exit_code);
  pico::cli::add_predict(app, exit_code);
  pico::cli::add_replay(app, exit_code);
  for (CLI::App* verb : app.get_subcommands({})) {
    verb->set_version_flag("--version", std::string(app.version()));
    verb->parse_complete_callback([name = verb->get_name()] { pico::cli::throw_if_test_internal_error(name); });
  }
  try {
    // CLI11 would call an unknown verb "a subcommand is required"; name it and the nearest verb instead.
    if (argc > 1 && argv[1][0] != '-') {
      std::vector<std::string> verbs;
      for (const CLI::App* verb : app.get_subcommands({})) verbs.push_back(verb->get_name());
      if (std::find(verbs.begin(), verbs.end(), argv[1]) == verbs.end())
        throw pico::InputError("pico", fmt::format("unknown verb '{}'", argv[1]),
                               pico::yaml::suggest_and_list(argv[1], verbs, "verbs"));
    }
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    // CLI11's own wording, in pico's one format and naming the verb it was parsing.
    const auto verbs = app.get_subcommands();
    const std::string verb = verbs.empty() ? "pico" : "pico " + verbs.back()->get_name();
    if (const auto converted = conversion_error(e, verbs.empty() ? &app : verbs.back(), verb)) {
      std::cerr << converted->what() << "\n";
      return pico::cli::kBadInputExitCode;
    }
    std::cerr << pico::render_error(verb, e.what(), fmt::format("see '{} --help'", verb)) << "\n";
    return pico::cli::kBadInputExitCode;
  } catch (...) {
    // By cause (cli/exit_codes.hpp): bad input 2, an unwritable output 3, an outside program 4, a signal
    // 130, and anything else a bug in pico (70); named after the verb that failed ("pico predict: ...").
    const auto verbs = app.get_subcommands();
    const auto failure =
        pico::cli::failure_of(std::current_exception(), verbs.empty() ? "pico" : "pico " + verbs.back()->get_name());
    std::cerr << failure.message << "\n";
    return failure.exit_code;
  }
  return exit_code;
}
