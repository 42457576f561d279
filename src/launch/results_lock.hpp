// One pico at a time in a results directory: run, resume and collect hold an
// exclusive lock on DIR/.lock while they work there, so two resumes cannot
// both run the missing cases. The holder's pid is written inside, for the
// message of the one refused. The kernel drops the lock when its holder ends,
// however it ends (kill -9 included), so a stale .lock file never blocks.
#pragma once

#include <string>

namespace pico {

class ResultsDirLock {
 public:
  // Throws InputError (exit code 2) naming the holder's pid when another pico holds DIR.
  explicit ResultsDirLock(const std::string& dir);
  ~ResultsDirLock();
  ResultsDirLock(const ResultsDirLock&) = delete;
  ResultsDirLock& operator=(const ResultsDirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace pico
