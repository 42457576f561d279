// SPDX-License-Identifier: BSD-3-Clause
// The typed numbers of a compressed case's record (core/compression_metrics.hpp):
// read where present and of their type, nullopt otherwise.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "core/case_result.hpp"
#include "core/compression_metrics.hpp"

using namespace pico;
using nlohmann::json;

TEST_CASE("compression metrics: the record's numbers, typed", "[compression][core]") {
  const json record = {{"rel_l2_error", 0.0312}, {"bits_per_element", 8.25}, {"bias_rel_l2", nullptr},
                       {"identical_across_ranks", false}, {"parameters", {{"bits", 8}}}};
  const CompressionMetrics m = CompressionMetrics::of(record);
  CHECK(m.rel_l2_error == 0.0312);
  CHECK(m.bits_per_element == 8.25);
  CHECK_FALSE(m.bias_rel_l2);  // null: the exact result was 0, no relative error
  CHECK(m.identical_across_ranks == false);
}

TEST_CASE("compression metrics: absent, mistyped or no record at all", "[compression][core]") {
  const CompressionMetrics wrong = CompressionMetrics::of({{"rel_l2_error", "0.1"}, {"identical_across_ranks", 1}});
  CHECK_FALSE(wrong.rel_l2_error);
  CHECK_FALSE(wrong.identical_across_ranks);
  CHECK_FALSE(CompressionMetrics::of(json::array({1, 2})).rel_l2_error);
  CaseResult dense;  // an exact case carries no record
  CHECK_FALSE(dense.compression_metrics().rel_l2_error);
  dense.compression = json{{"rel_l2_error", 2.76e-8}};
  CHECK(dense.compression_metrics().rel_l2_error == 2.76e-8);
}
