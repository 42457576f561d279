// SPDX-License-Identifier: BSD-3-Clause
// A child process in its own process group, output to a log file, that can
// be polled and killed as a whole tree (mpirun and everything it started),
// and that does not outlive pico: if pico dies (kill -9 included) the group
// is stopped within a few seconds.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pico {

struct ExitStatus {
  int code = 0;    // exit code when exited normally
  int signal = 0;  // terminating signal, 0 if none
  bool ok() const { return code == 0 && signal == 0; }
  std::string describe() const;  // "exit code 1", "signal 9 (Killed)"
};

// Stops a process group when this process dies, however it dies. A helper
// process waits on a pipe whose write end only this process holds; the
// kernel closes it when this process ends, and the helper then sends the
// group SIGTERM and, after grace_s, SIGKILL. (PR_SET_PDEATHSIG would reach
// only the group's leader, and fires when the forking *thread* ends.)
class GroupDeathGuard {
 public:
  GroupDeathGuard(pid_t group, double grace_s);
  ~GroupDeathGuard();  // the group is in hand again: the helper goes
  GroupDeathGuard(const GroupDeathGuard&) = delete;
  GroupDeathGuard& operator=(const GroupDeathGuard&) = delete;

 private:
  pid_t helper_ = -1;
  int pipe_write_end_ = -1;
};

class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH) with the current environment plus `env`,
  // stdout and stderr appended to log_path. Throws std::runtime_error.
  ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
               const std::string& log_path);
  ~ChildProcess();  // kills the group if still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The exit status once the child has ended; nullopt while it runs.
  std::optional<ExitStatus> poll();
  // SIGTERM to the group, then SIGKILL after grace_s; waits for the child.
  ExitStatus terminate(double grace_s);

 private:
  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
  std::optional<GroupDeathGuard> death_guard_;
};

}  // namespace pico
