// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/ompi_rank_distribution.hpp"

namespace pico {

RankDistribution measured_distribution(const ProfileRule& rule) {
  if (rule.nodes == 1) return RankDistribution::single_node;
  if (rule.nodes > 1 && rule.ppn == 1) return RankDistribution::one_per_node;
  return RankDistribution::any;
}

std::string_view ompi_json_name(RankDistribution d) {
  switch (d) {
    case RankDistribution::single_node: return "single-node";
    case RankDistribution::one_per_node: return "one-per-node";
    case RankDistribution::any: break;
  }
  return "any";
}

bool distribution_matches(RankDistribution d, int np, int nodes) {
  if (nodes <= 0) return true;
  switch (d) {
    case RankDistribution::single_node: return nodes == 1;
    case RankDistribution::one_per_node: return nodes == np;
    case RankDistribution::any: break;
  }
  return true;
}

std::string distribution_words(RankDistribution d) {
  switch (d) {
    case RankDistribution::single_node: return "single-node communicators";
    case RankDistribution::one_per_node: return "communicators of one rank per node";
    case RankDistribution::any: break;
  }
  return "any placement";
}

}  // namespace pico
