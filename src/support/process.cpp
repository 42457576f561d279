// SPDX-License-Identifier: BSD-3-Clause
#include "support/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "support/external_error.hpp"
#include "support/results_file.hpp"

extern char** environ;

namespace pico {

std::string ExitStatus::describe() const {
  if (signal != 0) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", code);
}

namespace {
constexpr double kGroupGraceS = 2.0;  // SIGTERM to SIGKILL, when pico is gone

ExitStatus decode(int wstatus) {
  ExitStatus s;
  if (WIFEXITED(wstatus)) s.code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) s.signal = WTERMSIG(wstatus);
  return s;
}
}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                           const std::string& log_path) {
  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<char*> c_argv;
  for (const auto& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  // The log lives in the results directory: never opened through a link.
  const FileDescriptor log = open_results_file(log_path, O_WRONLY | O_CREAT | O_APPEND);
  const int log_fd = log.get();
  std::vector<std::string> env_entries;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    if (!env.contains(entry.substr(0, entry.find('=')))) env_entries.push_back(entry);
  }
  for (const auto& [k, v] : env) env_entries.push_back(k + "=" + v);
  std::vector<char*> c_env;
  for (auto& e : env_entries) c_env.push_back(e.data());
  c_env.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::execvpe(c_argv[0], c_argv.data(), c_env.data());
    const char msg[] = "pico: cannot execute the launcher\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg, sizeof(msg) - 1);
    ::_exit(127);
  }
  const int fork_errno = errno;
  if (pid_ < 0) throw ExternalError(fmt::format("fork failed: {}", std::strerror(fork_errno)));
  ::setpgid(pid_, pid_);  // also from the parent, so a kill right away reaches the group
  try {
    death_guard_.emplace(pid_, kGroupGraceS);
  } catch (...) {
    ::kill(-pid_, SIGKILL);  // no destructor runs for a constructor that throws
    ::waitpid(pid_, nullptr, 0);
    throw;
  }
}

namespace {

// The helper's whole life, after fork: only async-signal-safe calls. It keeps
// no descriptor but the pipe's read end (an inherited write end, or pico's
// stdout, would keep a pipe open after pico), and ignores the signals a
// terminal or a job killer sends pico's group, so that it outlives pico.
[[noreturn]] void guard_group_until_eof(int read_end, pid_t group, double grace_s) {
  ::dup2(read_end, STDIN_FILENO);
  const int devnull = ::open("/dev/null", O_WRONLY);
  if (devnull >= 0) {
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
  }
  ::close_range(3, ~0U, 0);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) ::signal(sig, SIG_IGN);
  char byte = 0;
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, &byte, 1);
    if (n == 0 || (n < 0 && errno != EINTR)) break;  // EOF: the write end's holder is gone
  }
  ::kill(-group, SIGTERM);
  const struct timespec grace {
    static_cast<time_t>(grace_s), static_cast<long>((grace_s - static_cast<time_t>(grace_s)) * 1e9)
  };
  ::nanosleep(&grace, nullptr);
  ::kill(-group, SIGKILL);
  ::_exit(0);
}

}  // namespace

GroupDeathGuard::GroupDeathGuard(pid_t group, double grace_s) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw ExternalError(fmt::format("pipe failed: {}", std::strerror(errno)));
  helper_ = ::fork();
  if (helper_ == 0) guard_group_until_eof(ends[0], group, grace_s);
  const int fork_errno = errno;
  ::close(ends[0]);
  pipe_write_end_ = ends[1];
  if (helper_ < 0) {
    ::close(pipe_write_end_);
    throw ExternalError(fmt::format("fork failed: {}", std::strerror(fork_errno)));
  }
}

GroupDeathGuard::~GroupDeathGuard() {
  ::kill(helper_, SIGKILL);
  ::waitpid(helper_, nullptr, 0);
  ::close(pipe_write_end_);
}

ChildProcess::~ChildProcess() {
  if (!status_ && pid_ > 0) terminate(1.0);
}

std::optional<ExitStatus> ChildProcess::poll() {
  if (status_) return status_;
  int wstatus = 0;
  if (::waitpid(pid_, &wstatus, WNOHANG) == pid_) status_ = decode(wstatus);
  return status_;
}

ExitStatus ChildProcess::terminate(double grace_s) {
  if (poll()) return *status_;
  ::kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
  while (std::chrono::steady_clock::now() < deadline) {
    if (poll()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Stragglers of the group (ranks mpirun did not reap) go too.
  ::kill(-pid_, SIGKILL);
  if (!status_) {
    int wstatus = 0;
    ::waitpid(pid_, &wstatus, 0);
    status_ = decode(wstatus);
  }
  return *status_;
}

}  // namespace pico
