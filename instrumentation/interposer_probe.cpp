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
  table->resolve_loaded();  // the worker asks after MPI_Init: Open MPI's components are open by now
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
                           Collective collective, std::int64_t calls) {
  RanAlgorithm r;
  struct Entered {
    const AlgorithmFunction* f;
    std::uint64_t calls;
  };
  std::vector<Entered> chain;  // the collective's algorithms, outermost first
  for (const auto& f : seen) {
    r.functions.push_back(fmt::format("{} x {}", f.function, f.calls));
    const auto it = functions.find(f.function);
    if (it != functions.end() && it->second.collective == collective) chain.push_back({&it->second, f.calls});
  }
  if (chain.empty()) {
    r.note = seen.empty() ? "no coll/base function ran: the call is point to point (sendrecv), or another coll "
                            "component served it (coll/self for one rank, coll/libnbc for a non-blocking or "
                            "persistent call, coll/basic, ...)"
                          : fmt::format("none of the functions that ran is a catalogued {} algorithm", name(collective));
    return r;
  }
  const auto names = [&](auto keep) {
    std::vector<std::string> out;
    for (const Entered& e : chain)
      if (keep(e)) out.push_back(e.f->algorithm);
    return out;
  };
  const auto component = std::find_if(chain.begin(), chain.end(), [](const Entered& e) { return !e.f->component.empty(); });
  if (component != chain.end() && component->calls >= static_cast<std::uint64_t>(calls)) {
    // Another component's entry point ran at every call: coll/base functions
    // after it are its steps on sub-communicators.
    r.algorithm = component->f->algorithm;
    const auto beneath = names([&](const Entered& e) { return &e != &*component; });
    if (!beneath.empty()) r.note = fmt::format("{} ran {} beneath it", r.algorithm, fmt::join(beneath, ", "));
    return r;
  }
  const auto base = names([](const Entered& e) { return e.f->component.empty(); });
  if (component != chain.end()) {
    // Open MPI's han hands a communicator it cannot serve back to the previous component, for good.
    r.handed_back_by = component->f->algorithm;
    r.algorithm = base.empty() ? "" : base.back();
    r.note = fmt::format("{} ran {} of {} call(s), then left them to {}", r.handed_back_by, component->calls, calls,
                         base.empty() ? "functions pico does not wrap" : r.algorithm);
    return r;
  }
  r.algorithm = base.back();
  if (chain.size() > 1)
    r.note = fmt::format("delegated: {}", fmt::join(base, " -> "));
  return r;
}

}  // namespace pico
