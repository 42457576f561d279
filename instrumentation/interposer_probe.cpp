// SPDX-License-Identifier: BSD-3-Clause
#include "instrumentation/interposer_probe.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "instrumentation/ompi_interposer/interposer_abi.h"

namespace pico {

std::optional<InterposerProbe> InterposerProbe::find(std::string& why_not) {
  using TableFunction = const struct pico_interposer_table* (*)();
  void* symbol = ::dlsym(RTLD_DEFAULT, "pico_interposer");
  if (symbol == nullptr) {
    why_not = "the Open MPI interposer is not loaded in this process";
    return std::nullopt;
  }
  const struct pico_interposer_table* table = reinterpret_cast<TableFunction>(symbol)();
  if (table == nullptr || table->abi_version != PICO_INTERPOSER_ABI_VERSION) {
    why_not = fmt::format("the loaded interposer speaks ABI {}, this worker {}", table ? table->abi_version : 0u,
                          PICO_INTERPOSER_ABI_VERSION);
    return std::nullopt;
  }
  return InterposerProbe(table);
}

void InterposerProbe::reset() {
  for (std::uint32_t i = 0; i < table_->count; ++i) {
    table_->slots[i].calls = 0;
    table_->slots[i].first_call = 0;
  }
  *table_->sequence = 0;
}

std::vector<FunctionCalls> InterposerProbe::seen() const {
  std::vector<std::pair<std::uint64_t, FunctionCalls>> called;
  for (std::uint32_t i = 0; i < table_->count; ++i)
    if (table_->slots[i].calls > 0)
      called.push_back({table_->slots[i].first_call, {table_->names[i], table_->slots[i].calls}});
  std::sort(called.begin(), called.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<FunctionCalls> out;
  for (auto& [order, f] : called) out.push_back(std::move(f));
  return out;
}

RanAlgorithm ran_algorithm(const std::vector<FunctionCalls>& seen, const AlgorithmFunctions& functions,
                           Collective collective) {
  RanAlgorithm r;
  std::vector<std::string> chain;  // the collective's algorithms, outermost first
  for (const auto& f : seen) {
    r.functions.push_back(fmt::format("{} x {}", f.function, f.calls));
    const auto it = functions.find(f.function);
    if (it != functions.end() && it->second.collective == collective) chain.push_back(it->second.algorithm);
  }
  if (chain.empty()) {
    r.note = seen.empty() ? "no coll/base function ran: the call is point to point (sendrecv), or another coll "
                            "component served it (coll/self for one rank, coll/libnbc for a non-blocking or "
                            "persistent call, coll/basic, ...)"
                          : fmt::format("none of the functions that ran is a catalogued {} algorithm", name(collective));
    return r;
  }
  r.algorithm = chain.back();
  if (chain.size() > 1) r.note = fmt::format("delegated: {}", fmt::join(chain, " -> "));
  return r;
}

}  // namespace pico
