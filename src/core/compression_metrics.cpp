// SPDX-License-Identifier: BSD-3-Clause
#include "core/compression_metrics.hpp"

namespace pico {
namespace {

std::optional<double> number_at(const nlohmann::json& record, const char* key) {
  const auto it = record.find(key);
  if (it == record.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

CompressionMetrics CompressionMetrics::of(const nlohmann::json& record) {
  CompressionMetrics m;
  if (!record.is_object()) return m;
  m.rel_l2_error = number_at(record, kRelL2Error);
  m.bits_per_element = number_at(record, kBitsPerElement);
  m.bias_rel_l2 = number_at(record, kBiasRelL2);
  if (const auto it = record.find(kIdenticalAcrossRanks); it != record.end() && it->is_boolean())
    m.identical_across_ranks = it->get<bool>();
  return m;
}

}  // namespace pico
