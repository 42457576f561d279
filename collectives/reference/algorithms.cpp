// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/reference/algorithms.hpp"

#include "collectives/reference/table.hpp"
#include "collectives/spec.hpp"
#include "collectives/transport/recording_transport.hpp"

namespace pico {
namespace {
// Any transport gives the same traits; the recording one is always linked.
using AnyTransport = transport::RecordingTransport;
}  // namespace

bool reference_algorithm_exists(Collective c, const std::string& name) {
  return reference::find_algorithm<AnyTransport>(c, name) != nullptr;
}

std::vector<std::string> reference_algorithm_names(Collective c) {
  std::vector<std::string> names;
  for (const auto& e : reference::kAlgorithms<AnyTransport>)
    if (e.traits.collective == c) names.emplace_back(e.traits.name);
  return names;
}

bool has_reference_algorithms(const CollectiveSpec& spec) { return !reference_algorithm_names(spec.collective).empty(); }

const reference::AlgorithmTraits* reference_algorithm_traits(Collective c, const std::string& name) {
  const auto* e = reference::find_algorithm<AnyTransport>(c, name);
  return e == nullptr ? nullptr : &e->traits;
}

}  // namespace pico
