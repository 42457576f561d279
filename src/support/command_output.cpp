// SPDX-License-Identifier: BSD-3-Clause
#include "support/command_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "support/external_error.hpp"
#include "support/interrupt.hpp"

namespace pico {
namespace {

// A temporary file removed when it goes out of scope.
class TempFile {
 public:
  TempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pico-cmd-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
      throw ExternalError(fmt::format("cannot create a temporary file in {}: {}", pattern, std::strerror(errno)));
    ::close(fd);
    path_ = pattern;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

void throw_if_interrupted() {
  if (interrupt_requested()) throw Interrupted();
}

CommandOutput run_command(const std::vector<std::string>& argv, double timeout_s) {
  TempFile log;
  CommandOutput out;
  {
    ChildProcess child(argv, {}, log.path());
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      if (auto status = child.poll()) {
        out.exit = *status;
        break;
      }
      if (interrupt_requested()) {
        child.terminate(2.0);
        throw Interrupted();
      }
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s) {
        out.exit = child.terminate(2.0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  std::ifstream in(log.path());
  std::stringstream ss;
  ss << in.rdbuf();
  out.output = ss.str();
  // execvpe failing in the child exits 127 (the shell's "command not found").
  out.started = out.exit.code != 127;
  return out;
}

}  // namespace pico
