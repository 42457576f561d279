// SPDX-License-Identifier: BSD-3-Clause
// What NCCL reports it chose for each collective. NCCL has no query for it,
// but with NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=TUNING rank 0 logs one line
// per collective as it enqueues it (src/enqueue.cc, NCCL 2.2x):
//   host:pid:tid [0] NCCL INFO AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}
// Logging every timed call would cost each a formatted write, so the log is
// switched on for one untimed call only: the variables are set, then
// ncclResetDebugInit makes NCCL read them again (it is exported but no longer
// declared part of the API, so it is looked up at run time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico::nccl {

struct TuningChoice {
  std::string function;  // NCCL's name: AllReduce, AllGather, ReduceScatter, Broadcast, Reduce
  std::uint64_t bytes = 0;
  std::string algorithm;  // RING, TREE, COLLNET_DIRECT, COLLNET_CHAIN, NVLS, NVLS_TREE, PAT
  std::string protocol;   // LL, LL128, SIMPLE
  int channel_lo = 0;
  int channel_hi = 0;
};

// The choice in one line of NCCL's log, if it is a TUNING line.
std::optional<TuningChoice> parse_tuning_line(std::string_view line);

// The choices in a log file of NCCL's; its warnings are passed on to stderr.
std::vector<TuningChoice> read_tuning_file(const std::filesystem::path& file);

nlohmann::json to_json(const TuningChoice& choice);

class TuningLog;
// The report's selection.reported for a checked call on `nranks` ranks whose log was `choices`.
nlohmann::json reported_selection(const TuningLog& log, const std::vector<TuningChoice>& choices, int nranks);

class TuningLog {
 public:
  // A user's own NCCL_DEBUG, NCCL_DEBUG_SUBSYS or NCCL_DEBUG_FILE wins, and an
  // NCCL without ncclResetDebugInit cannot be switched: then the log stays
  // off and why() says why.
  explicit TuningLog(std::filesystem::path file);
  TuningLog(const TuningLog&) = delete;
  TuningLog& operator=(const TuningLog&) = delete;

  bool enabled() const { return why_.empty(); }
  const std::string& why() const { return why_; }

  // Runs `call` with NCCL's tuning log on, and returns what NCCL logged.
  template <class Call>
  std::vector<TuningChoice> capture(Call&& call) {
    if (!enabled()) {
      call();
      return {};
    }
    switch_on();
    try {
      call();
    } catch (...) {
      switch_off();
      throw;
    }
    return switch_off();
  }

 private:
  void switch_on();
  std::vector<TuningChoice> switch_off();

  std::filesystem::path file_;
  void (*reset_)() = nullptr;  // ncclResetDebugInit
  std::string why_;
};

}  // namespace pico::nccl
