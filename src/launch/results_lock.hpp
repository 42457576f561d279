// SPDX-License-Identifier: BSD-3-Clause
// One pico at a time in a results directory: run, resume and collect hold an
// exclusive lock on DIR/.lock while they work there, so two resumes cannot
// both run the missing cases. The holder's pid is written inside, for the
// message of the one refused. The kernel drops the lock when its holder ends,
// however it ends (kill -9 included), so a stale .lock file never blocks.
#pragma once

#include <string>

#include "support/file_io.hpp"

namespace pico {

class ResultsDirLock {
 public:
  // Throws InputError (exit code 2) naming the holder's pid when another pico holds DIR,
  // or when DIR/.lock is a link or not a regular file (support/results_file.hpp).
  explicit ResultsDirLock(const std::string& dir);
  ResultsDirLock(const ResultsDirLock&) = delete;
  ResultsDirLock& operator=(const ResultsDirLock&) = delete;

 private:
  FileDescriptor fd_;
};

}  // namespace pico
