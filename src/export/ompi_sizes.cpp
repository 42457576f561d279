// SPDX-License-Identifier: BSD-3-Clause
#include "export/ompi_sizes.hpp"

#include <fmt/format.h>

#include "export/export_support.hpp"

namespace pico {

int ompi_collective_id(Collective c) {
  switch (c) {
    case Collective::allgather: return 0;
    case Collective::allreduce: return 2;
    case Collective::alltoall: return 3;
    case Collective::barrier: return 6;
    case Collective::bcast: return 7;
    case Collective::gather: return 9;
    case Collective::reduce: return 11;
    case Collective::reduce_scatter: return 13;  // pico runs MPI_Reduce_scatter_block
    case Collective::scatter: return 15;
    case Collective::sendrecv: break;
  }
  throw ExportRefusal(fmt::format("{} has no coll/tuned rules (point to point)", name(c)),
                      "leave it out of the profile");
}

std::string ompi_json_key(Collective c) {
  if (c == Collective::reduce_scatter) return "reduce_scatter_block";
  ompi_collective_id(c);  // refuses what tuned has no rules for
  return std::string(name(c));
}

std::uint64_t ompi_size_factor(Collective c, int comm_size) {
  switch (c) {
    case Collective::allreduce:
    case Collective::bcast:
    case Collective::reduce: return 1;
    case Collective::allgather:
    case Collective::alltoall:
    case Collective::gather:
    case Collective::scatter:
    case Collective::reduce_scatter: return static_cast<std::uint64_t>(comm_size);
    case Collective::barrier: return 0;
    case Collective::sendrecv: break;
  }
  return 1;
}

OmpiRuleColumns ompi_rule_columns(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                  const ProfileRange& range) {
  OmpiRuleColumns cols;
  if (range.algorithm == "default") {
    cols.algorithm = "0";
    return cols;
  }
  cols.algorithm = catalogue_entry(catalog, profile, rule, range).value;
  for (const auto& [param, value] : range.params) {
    const auto v = static_cast<long long>(value);
    if (param == "segment_size") cols.segsize = v;
    else if (param == "chain_fanout" || param == "tree_fanout") cols.faninout = v;
    else
      throw ExportRefusal(fmt::format("{}: parameter '{}' of {} has no column in Open MPI's rules", describe(rule),
                                      param, range.algorithm),
                          "the rules carry segment_size and one fan-out only");
  }
  return cols;
}

}  // namespace pico
