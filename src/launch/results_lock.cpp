#include "launch/results_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace pico {
namespace {

std::string lock_path(const std::string& dir) { return (std::filesystem::path(dir) / ".lock").string(); }

// What the holder wrote: its pid, or "unknown" in the instant before it writes it.
std::string holder_pid(const std::string& path) {
  std::ifstream in(path);
  std::string pid;
  in >> pid;
  return pid.empty() ? "unknown" : pid;
}

}  // namespace

ResultsDirLock::ResultsDirLock(const std::string& dir) {
  const std::string path = lock_path(dir);
  // O_CLOEXEC: the lock is pico's alone; a launch it starts must not keep it after pico is gone.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int lock_errno = errno;
    ::close(fd_);
    if (lock_errno != EWOULDBLOCK)
      throw std::runtime_error(fmt::format("cannot lock {}: {}", path, std::strerror(lock_errno)));
    throw InputError(dir, 0, 0, fmt::format("the results directory is in use by another pico (pid {})", holder_pid(path)),
                      "wait for that pico to finish, or stop it (kill PID: it stops its launches and writes the "
                      "report), then try again");
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  // A failed write costs only the pid in a refused user's message; the lock holds either way.
  [[maybe_unused]] const bool pid_written =
      ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) == static_cast<ssize_t>(pid.size());
}

ResultsDirLock::~ResultsDirLock() { ::close(fd_); }

}  // namespace pico
