// SPDX-License-Identifier: BSD-3-Clause
#include "launch/results_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "support/external_error.hpp"
#include "support/input_error.hpp"
#include "support/results_file.hpp"

namespace pico {
namespace {

std::string lock_path(const std::string& dir) { return (std::filesystem::path(dir) / ".lock").string(); }

// What the holder wrote: its pid, or "unknown" in the instant before it writes it.
std::string holder_pid(const std::string& path) {
  std::istringstream in(read_results_file(path).value_or(""));
  std::string pid;
  in >> pid;
  return pid.empty() ? "unknown" : pid;
}

}  // namespace

// O_CLOEXEC (added by open_results_file): the lock is pico's alone; a launch it starts must not keep it after
// pico is gone. Never through a link: a planted .lock -> FILE would have FILE truncated to pico's pid.
ResultsDirLock::ResultsDirLock(const std::string& dir) : fd_(open_results_file(lock_path(dir), O_RDWR | O_CREAT)) {
  const std::string path = lock_path(dir);
  if (::flock(fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    const int lock_errno = errno;
    if (lock_errno != EWOULDBLOCK)
      throw ExternalError(fmt::format("cannot lock {}: {}", path, std::strerror(lock_errno)));
    throw InputError(dir, 0, 0, fmt::format("the results directory is in use by another pico (pid {})", holder_pid(path)),
                      "wait for that pico to finish, or stop it (kill PID: it stops its launches and writes the "
                      "report), then try again");
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  // A failed write costs only the pid in a refused user's message; the lock holds either way.
  [[maybe_unused]] const bool pid_written =
      ::ftruncate(fd_.get(), 0) == 0 && ::pwrite(fd_.get(), pid.data(), pid.size(), 0) == static_cast<ssize_t>(pid.size());
}

}  // namespace pico
