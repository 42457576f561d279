#include "launch/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace pico {

std::string ExitStatus::describe() const {
  if (signal != 0) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", code);
}

namespace {
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
  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error(fmt::format("cannot open {}: {}", log_path, std::strerror(errno)));
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
  ::close(log_fd);
  if (pid_ < 0) throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(fork_errno)));
  ::setpgid(pid_, pid_);  // also from the parent, so a kill right away reaches the group
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
