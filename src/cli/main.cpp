// pico: benchmark and tune collective communication. Thin dispatch over the
// verbs in src/cli/; each verb's work lives in a library that is tested alone.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "config/error.hpp"
#include "core/file_io.hpp"
#include "core/build_info.hpp"

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
  for (CLI::App* verb : app.get_subcommands({})) verb->set_version_flag("--version", std::string(app.version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const pico::ConfigError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const pico::WriteError& e) {
    std::cerr << "pico: error: could not write results: " << e.what() << "\n";
    return pico::kWriteErrorExitCode;
  } catch (const std::exception& e) {
    std::cerr << "pico: error: " << e.what() << "\n";
    return 2;
  }
  return exit_code;
}
