// SPDX-License-Identifier: BSD-3-Clause
// The numbers of a compressed case's record that pico itself reads: the worker
// (ranks that disagree fail the case), the run table, compare, the HTML page
// and the terminal view. compression/allreduce/evaluation.cpp writes the record
// under these keys; its other fields (parameters, inputs, wire bytes, ...) stay
// as written in the report (docs/compression.md#report).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace pico {

struct CompressionMetrics {
  static constexpr const char* kRelL2Error = "rel_l2_error";  // ||mean - exact|| / ||exact||, worst rank
  static constexpr const char* kBitsPerElement = "bits_per_element";  // payload bits on the wire per element
  static constexpr const char* kBiasRelL2 = "bias_rel_l2";  // of the mean over bias_calls calls
  static constexpr const char* kIdenticalAcrossRanks = "identical_across_ranks";

  std::optional<double> rel_l2_error;
  std::optional<double> bits_per_element;
  std::optional<double> bias_rel_l2;
  std::optional<bool> identical_across_ranks;

  // A record's metrics; a field absent, null or of another type is nullopt (a record that is not
  // an object has none).
  static CompressionMetrics of(const nlohmann::json& record);
};

}  // namespace pico
