// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/reference/recording.hpp"

#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "collectives/count_matrix.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "collectives/spec.hpp"

namespace pico::reference {
namespace {

using transport::RecordingTransport;

std::size_t element_bytes(const ScheduleRequest& req) {
  return req.dtype == Dtype::none ? 1 : dtype_size(req.dtype);
}

std::size_t segment_elements(const ScheduleRequest& req) {
  if (req.segment_bytes == 0) return 0;
  return std::max<std::size_t>(1, req.segment_bytes / element_bytes(req));
}

Case as_case(const ScheduleRequest& req) {
  Case c;
  c.backend = "reference";
  c.collective = req.collective;
  c.algorithm = req.algorithm;
  c.dtype = req.dtype;
  c.count = req.count;
  c.bytes = req.count * element_bytes(req);
  c.np = req.np;
  c.in_place = req.in_place;
  c.root = req.root;
  if (!req.counts.empty()) c.options[kCountsOption] = req.counts;
  return c;
}

}  // namespace

void check_request(const ScheduleRequest& req) {
  if (req.np < 1) throw std::invalid_argument(fmt::format("np must be at least 1, got {}", req.np));
  // sendrecv is one point-to-point exchange: there is no algorithm of pico's own to record.
  if (reference_algorithm_names(req.collective).empty())
    throw std::invalid_argument(fmt::format("pico has no reference {} algorithm", name(req.collective)));
  if (!reference_algorithm_exists(req.collective, req.algorithm))
    throw std::invalid_argument(fmt::format("no reference {} algorithm '{}' (known: {})", name(req.collective),
                                            req.algorithm, fmt::join(reference_algorithm_names(req.collective), ", ")));
  if (req.root < 0 || req.root >= req.np)
    throw std::invalid_argument(fmt::format("root {} is outside [0, {})", req.root, req.np));
  const CollectiveSpec& spec = spec_for(req.collective);
  if (req.in_place && !spec.supports_in_place()) throw std::invalid_argument(std::string(spec.no_in_place_reason));
  if (spec.has_payload && req.dtype == Dtype::none)
    throw std::invalid_argument(fmt::format("{} needs a datatype", name(req.collective)));
  if (!req.counts.empty()) {
    if (!spec.count_matrix) throw std::invalid_argument(fmt::format("{} takes no count matrix", name(req.collective)));
    if (const std::string why = pattern_fit_reason(parse_count_pattern(req.counts), req.np); !why.empty())
      throw std::invalid_argument(why);
  }
}

void record_rank(const ScheduleRequest& req, int rank, transport::RankSchedule& out) {
  const auto* entry = find_algorithm<RecordingTransport>(req.collective, req.algorithm);
  if (entry == nullptr) {
    check_request(req);  // throws with the list of known names
    throw std::invalid_argument("unknown reference algorithm");
  }
  const Case c = as_case(req);
  const BufferSizes sizes = spec_for(req.collective).buffer_sizes(c, rank);
  const std::size_t segment = segment_elements(req);
  const transport::BufferCapacity capacity{sizes.send, sizes.recv,
                                           entry->traits.scratch(req.count, req.np, segment)};
  RecordingTransport t(rank, req.np, element_bytes(req), capacity, out);
  // The buffer MPI_IN_PLACE stands for is absent.
  const InPlaceSide in_place = in_place_side(c, rank);
  CallArgs args{
      .send = in_place == InPlaceSide::send ? nullptr : t.send_buffer(),
      .recv = in_place == InPlaceSide::recv ? nullptr : t.recv_buffer(),
      .count = req.count,
      .root = req.root,
      .in_place = in_place != InPlaceSide::none,
      .segment = segment,
      .layout = nullptr,
  };
  const VectorLayout layout =
      spec_for(req.collective).count_matrix ? vector_layout(*count_matrix(c), rank) : VectorLayout{};
  args.layout = &layout;
  entry->run(t, args);
  t.finish();
}

std::vector<transport::RankSchedule> record_all(const ScheduleRequest& req) {
  check_request(req);
  std::vector<transport::RankSchedule> all(static_cast<std::size_t>(req.np));
  for (int r = 0; r < req.np; ++r) record_rank(req, r, all[static_cast<std::size_t>(r)]);
  return all;
}

}  // namespace pico::reference
