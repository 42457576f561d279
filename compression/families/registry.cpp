// SPDX-License-Identifier: BSD-3-Clause
// Compressed allreduce algorithms by name (configs/catalog/compressed.yaml).
#include "compression/families/registry.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "compression/families/adaptive_topk.hpp"
#include "compression/families/dense.hpp"
#include "compression/families/ef_sign.hpp"
#include "compression/families/global_qsgd.hpp"
#include "compression/families/global_qsgd_exponential.hpp"
#include "compression/families/hard_threshold.hpp"
#include "compression/families/powersgd.hpp"
#include "compression/families/randomk.hpp"
#include "compression/families/sign_majority.hpp"
#include "compression/families/topk.hpp"
#include "compression/families/topk_sparse.hpp"

namespace pico::compressed {
namespace {

std::unique_ptr<CompressedAllreduce> global_qsgd(const Setup& s, std::string communicate) {
  const double bits = s.param("bits", 8);
  if (bits == 8) return std::make_unique<GlobalQsgd<std::int8_t>>(s, std::move(communicate));
  if (bits == 16) return std::make_unique<GlobalQsgd<std::int16_t>>(s, std::move(communicate));
  throw std::invalid_argument(fmt::format("Global-QSGD codes are 8 or 16 bits, not {}", bits));
}

struct Named {
  const char* name;
  std::unique_ptr<CompressedAllreduce> (*make)(const Setup&);
};

constexpr Named kAlgorithms[] = {
    {"dense", [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<Dense>(s); }},
    {"global_qsgd", [](const Setup& s) { return global_qsgd(s, "library"); }},
    {"global_qsgd_pipelined", [](const Setup& s) { return global_qsgd(s, "pipelined"); }},
    {"global_qsgd_exponential",
     [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<GlobalQsgdExponential>(s); }},
    {"topk", [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<Topk>(s); }},
    {"sign_majority",
     [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<SignMajority>(s); }},
    {"randomk", [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<RandomK>(s); }},
    {"topk_sparse",
     [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<TopkSparse>(s); }},
    {"adaptive_topk",
     [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<AdaptiveTopk>(s); }},
    {"hard_threshold",
     [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<Threshold>(s); }},
    {"ef_sign", [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<EfSign>(s); }},
    {"powersgd", [](const Setup& s) -> std::unique_ptr<CompressedAllreduce> { return std::make_unique<PowerSgd>(s); }},
};

}  // namespace

std::unique_ptr<CompressedAllreduce> make_compressed_allreduce(const std::string& algorithm, const Setup& setup) {
  for (const auto& a : kAlgorithms)
    if (algorithm == a.name) return a.make(setup);
  // global_qsgd_<reference allreduce>: the integer SUM by that reference algorithm.
  constexpr std::string_view kQsgdOver = "global_qsgd_";
  if (algorithm.starts_with(kQsgdOver)) return global_qsgd(setup, algorithm.substr(kQsgdOver.size()));
  throw std::invalid_argument(fmt::format("no compressed allreduce '{}'", algorithm));
}

}  // namespace pico::compressed
