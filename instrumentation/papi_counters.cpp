// SPDX-License-Identifier: BSD-3-Clause
#include "instrumentation/papi_counters.hpp"

#include <fmt/format.h>

#ifdef PICO_WITH_PAPI
#include <papi.h>
#endif

namespace pico {

#ifdef PICO_WITH_PAPI
PapiCounters::PapiCounters(const std::vector<std::string>& wanted) {
  if (wanted.empty()) return;
  const int version = PAPI_library_init(PAPI_VER_CURRENT);
  if (version != PAPI_VER_CURRENT && version > 0) {
    warnings_.push_back(fmt::format("PAPI library version {:#x} differs from the headers'", version));
    return;
  }
  if (version < 0 || PAPI_create_eventset(&event_set_) != PAPI_OK) {
    warnings_.push_back(fmt::format("PAPI could not start: {}", PAPI_strerror(version)));
    return;
  }
  for (const auto& name : wanted) {
    const int rc = PAPI_add_named_event(event_set_, name.c_str());
    if (rc == PAPI_OK) events_.push_back(name);
    else warnings_.push_back(fmt::format("PAPI event {} left out: {}", name, PAPI_strerror(rc)));
  }
  if (!events_.empty()) {
    const int rc = PAPI_start(event_set_);
    running_ = rc == PAPI_OK;
    if (!running_) warnings_.push_back(fmt::format("PAPI_start failed: {}", PAPI_strerror(rc)));
  }
}

PapiCounters::~PapiCounters() {
  if (running_) {
    std::vector<long long> ignored(events_.size());
    PAPI_stop(event_set_, ignored.data());
  }
  if (event_set_ != -1) {
    PAPI_cleanup_eventset(event_set_);
    PAPI_destroy_eventset(&event_set_);
  }
}

void PapiCounters::read(std::vector<long long>& values) {
  values.resize(events_.size());
  if (running_) PAPI_read(event_set_, values.data());
}
#else
PapiCounters::PapiCounters(const std::vector<std::string>& wanted) {
  if (!wanted.empty()) warnings_.push_back("pico was built without PAPI (PICO_WITH_PAPI=OFF): no counters");
}
PapiCounters::~PapiCounters() = default;
void PapiCounters::read(std::vector<long long>& values) { values.clear(); }
#endif

}  // namespace pico
