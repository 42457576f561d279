// SPDX-License-Identifier: BSD-3-Clause
// PAPI counters by name (RAII over an event set). Events the machine lacks
// are left out with a warning, never a crash; without PAPI at build time the
// set is always empty and says so.
#pragma once

#include <string>
#include <vector>

namespace pico {

class PapiCounters {
 public:
  explicit PapiCounters(const std::vector<std::string>& wanted);
  ~PapiCounters();
  PapiCounters(const PapiCounters&) = delete;
  PapiCounters& operator=(const PapiCounters&) = delete;

  bool active() const { return running_; }
  const std::vector<std::string>& events() const { return events_; }     // those counting
  const std::vector<std::string>& warnings() const { return warnings_; }  // why others are not
  void read(std::vector<long long>& values);

 private:
  int event_set_ = -1;
  bool running_ = false;
  std::vector<std::string> events_;
  std::vector<std::string> warnings_;
};

}  // namespace pico
