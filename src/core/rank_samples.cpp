// SPDX-License-Identifier: BSD-3-Clause
#include "core/rank_samples.hpp"

#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "support/base64.hpp"

namespace pico {
namespace {

static_assert(std::endian::native == std::endian::little, "rank_samples are written as little-endian float32");

std::string encode(const std::vector<float>& values) {
  return base64_encode(std::as_bytes(std::span<const float>(values)));
}

std::vector<double> decode(const std::string& text, std::size_t expected) {
  const std::vector<std::byte> bytes = base64_decode(text);
  if (bytes.size() != expected * sizeof(float))
    throw std::runtime_error("rank_samples: an array does not hold ranks x samples values");
  std::vector<double> out(expected);
  for (std::size_t k = 0; k < expected; ++k) {
    float f = 0;
    std::memcpy(&f, bytes.data() + k * sizeof(float), sizeof(float));
    out[k] = f;
  }
  return out;
}

}  // namespace

nlohmann::json compact_rank_samples(const RankTimes& t) {
  const auto n = static_cast<std::size_t>(t.ranks) * static_cast<std::size_t>(t.samples);
  std::vector<float> arrival(n), exit(n);
  for (std::int64_t i = 0; i < t.samples; ++i) {
    double start = std::numeric_limits<double>::infinity();
    for (int r = 0; r < t.ranks; ++r) start = std::min(start, t.arrival(r, i));
    for (int r = 0; r < t.ranks; ++r) {
      const auto k = static_cast<std::size_t>(r * t.samples + i);
      arrival[k] = static_cast<float>(t.arrival(r, i) - start);
      exit[k] = static_cast<float>(t.exit(r, i) - start);
    }
  }
  return {{"ranks", t.ranks},
          {"samples", t.samples},
          {"encoding", kRankSamplesEncoding},
          {"layout", "rank-major"},
          {"arrival_s", encode(arrival)},
          {"exit_s", encode(exit)}};
}

RankTimes rank_samples_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("rank_samples is not an object");
  if (j.at("encoding").get<std::string>() != kRankSamplesEncoding)
    throw std::runtime_error("rank_samples: unknown encoding '" + j.at("encoding").get<std::string>() + "'");
  RankTimes t;
  t.ranks = j.at("ranks").get<int>();
  t.samples = j.at("samples").get<std::int64_t>();
  if (t.ranks < 0 || t.samples < 0) throw std::runtime_error("rank_samples: negative ranks or samples");
  const auto n = static_cast<std::size_t>(t.ranks) * static_cast<std::size_t>(t.samples);
  t.arrival_s = decode(j.at("arrival_s").get<std::string>(), n);
  t.exit_s = decode(j.at("exit_s").get<std::string>(), n);
  return t;
}

}  // namespace pico
