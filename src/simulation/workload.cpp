// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/spec.hpp"
#include "simulation/workload.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "config/count_patterns.hpp"
#include "config/data_files.hpp"
#include "config/units.hpp"
#include "config/yaml_reader.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using yaml::Map;
using yaml::Value;

std::uint64_t size_of(const Value& v, std::string_view what) {
  std::string why;
  const std::string text = v.as_nonempty_string(what);
  const auto bytes = parse_size(text, &why);
  if (!bytes) v.fail(fmt::format("bad size '{}': {}", text, why), "write e.g. 8B, 4KiB or 25MiB");
  if (*bytes > kMaxCallBytes)
    v.fail(fmt::format("{} is {} bytes, beyond the 1 TiB per rank pico schedules", what, *bytes),
           "give a smaller size");
  return *bytes;
}

double duration_of(const Value& v, std::string_view what) {
  std::string why;
  const std::string text = v.as_nonempty_string(what);
  const auto s = parse_duration_s(text, &why);
  if (!s || *s < 0 || *s > 1e6) v.fail(fmt::format("bad duration '{}': {}", text, why.empty() ? "out of range" : why),
                                       "write e.g. 0s, 250us or 1.5ms");
  return *s;
}

}  // namespace

std::vector<int> Workload::group_of(int p, int rank, int* comm_rank) const {
  const Partition& part = partitions[static_cast<std::size_t>(p)];
  const int span = part.group_size * part.stride;
  const int base = rank / span * span + rank % part.stride;
  std::vector<int> members(static_cast<std::size_t>(part.group_size));
  for (int k = 0; k < part.group_size; ++k) members[static_cast<std::size_t>(k)] = base + k * part.stride;
  if (comm_rank) *comm_rank = (rank - base) / part.stride;
  return members;
}

std::uint64_t Workload::communication_calls() const {
  std::uint64_t n = 0;
  for (const WorkloadCall& c : calls) n += c.kind != CallKind::compute;
  return n * static_cast<std::uint64_t>(iterations);
}

void Workload::scale_compute(double factor) {
  for (WorkloadCall& c : calls) c.gap_s *= factor;
  final_gap_s *= factor;
}

Workload parse_workload_yaml(const std::string& text, const std::string& file) {
  static const std::vector<std::string> kTop{"name", "ranks", "communicators", "iterations", "calls", "final_gap"};
  static const std::vector<std::string> kComm{"group_size", "stride"};
  static const std::vector<std::string> kCall{"collective", "size", "comm", "root", "gap", "repeat", "counts"};
  const Value doc = Value::parse_document(text, file);
  const Map top = doc.as_map("the workload", kTop);
  Workload w;
  w.name = top.get("name") ? top.get("name")->as_path_component("name") : "workload";
  w.ranks = static_cast<int>(top.require("ranks").as_int("ranks", 1, 1 << 20));
  w.partitions.push_back(regular_partition("world", w.ranks, 1));
  if (auto comms = top.get("communicators")) {
    for (const auto& [key, value] : comms->as_entries("communicators")) {
      const std::string name = key.as_path_component("communicator name");
      if (name == "world") key.fail("'world' is every rank already", "give the communicator another name");
      const Map m = value.as_map("communicator", kComm);
      Partition p = regular_partition(name, static_cast<int>(m.require("group_size").as_int("group_size", 1, w.ranks)), 1);
      if (auto s = m.get("stride")) p.stride = static_cast<int>(s->as_int("stride", 1, w.ranks));
      if (w.ranks % (p.group_size * p.stride) != 0)
        value.fail(fmt::format("{} ranks do not split into groups of {} ranks {} apart", w.ranks, p.group_size, p.stride),
                   "group_size x stride must divide ranks");
      w.partitions.push_back(p);
    }
  }
  if (auto it = top.get("iterations")) w.iterations = it->as_int("iterations", 1, std::int64_t{1} << 32);
  if (auto g = top.get("final_gap")) w.final_gap_s = duration_of(*g, "final_gap");
  std::vector<std::string> collectives, comm_names;
  for (Collective c : all_collectives())
    if (!spec_for(c).point_to_point) collectives.emplace_back(name(c));
  for (const Partition& p : w.partitions) comm_names.push_back(p.name);
  const auto calls = top.require("calls").as_list("calls");
  if (calls.empty()) top.require("calls").fail("no calls", "list the collectives of one iteration");
  for (const Value& item : calls) {
    const Map m = item.as_map("call", kCall);
    WorkloadCall c;
    c.collective = *parse_collective(m.require("collective").as_choice("collective", collectives));
    if (spec_for(c.collective).has_payload) c.bytes = size_of(m.require("size"), "size");
    if (auto comm = m.get("comm")) {
      const std::string n = comm->as_choice("comm", comm_names);
      for (std::size_t i = 0; i < w.partitions.size(); ++i)
        if (w.partitions[i].name == n) c.partition = static_cast<int>(i);
    }
    const int group = w.partitions[static_cast<std::size_t>(c.partition)].group_size;
    if (auto r = m.get("root")) c.root = static_cast<int>(r->as_int("root", 0, group - 1));
    if (auto g = m.get("gap")) c.gap_s = duration_of(*g, "gap");
    if (auto counts = m.get("counts")) {
      if (!spec_for(c.collective).count_matrix)
        m.key("counts")->fail(fmt::format("{} takes no count matrix", name(c.collective)), "leave out counts");
      c.counts = parse_count_pattern_item(*counts, group);
    }
    const std::int64_t repeat = m.get("repeat") ? m.get("repeat")->as_int("repeat", 1, 1 << 24) : 1;
    if (w.calls.size() + static_cast<std::uint64_t>(repeat) > kMaxWorkloadCalls)
      (m.get("repeat") ? *m.get("repeat") : item).fail(
          fmt::format("the iteration would hold over {} calls", kMaxWorkloadCalls),
          "use iterations: for repetition of the whole iteration");
    for (std::int64_t k = 0; k < repeat; ++k) w.calls.push_back(c);
  }
  return w;
}

Workload load_workload_yaml(const std::string& path) {
  return parse_workload_yaml(read_config_file(path, "the workload", "give a workload YAML file (docs/simulation.md)"),
                             path);
}

Workload llm_step_workload(const LlmStep& s) {
  auto bad = [](const char* flag, const std::string& what, const char* hint) { throw InputError(flag, what, hint); };
  if (s.dp < 1 || s.tp < 1 || s.pp < 1) bad("--dp", "--dp, --tp and --pp must be at least 1", "e.g. --dp 16");
  if (static_cast<std::int64_t>(s.dp) * s.tp * s.pp > (1 << 20)) bad("--dp", "dp x tp x pp is over 2^20 ranks", "fewer ranks");
  if (!(s.parameters >= 1) || s.parameters > 1e15) bad("--params", "--params must be in [1, 1e15]", "e.g. --params 7e9");
  if (s.bucket_bytes < 1 || s.bucket_bytes > kMaxCallBytes) bad("--bucket", "--bucket must be in [1 B, 1 TiB]", "e.g. --bucket 25MB");
  if (s.layers < 1 || s.layers % s.pp != 0) bad("--layers", "--layers must be a positive multiple of --pp", "e.g. --layers 32");
  if (s.hidden < 1 || s.sequence < 1 || s.micro_batches < 1) bad("--hidden", "--hidden, --seq and --micro-batches must be positive", "e.g. --hidden 4096");
  if (!(s.compute_s >= 0) || s.compute_s > 1e6) bad("--compute", "--compute must be a duration in [0, 1e6 s]", "e.g. --compute 1s");
  Workload w;
  w.name = "llm-step";
  w.ranks = s.dp * s.tp * s.pp;
  // Megatron's order: TP ranks adjacent, then DP, then PP stages.
  w.partitions = {regular_partition("world", w.ranks, 1), regular_partition("tp", s.tp, 1),
                  regular_partition("dp", s.dp, s.tp), regular_partition("pp", s.pp, s.tp * s.dp)};
  const int layers_per_stage = s.layers / s.pp;
  // Forward is a third of the compute, backward two thirds (backward computes two gradients per matmul).
  const double per_layer = s.compute_s / s.micro_batches / layers_per_stage;
  const double fwd = per_layer / 3, bwd = per_layer * 2 / 3;
  const std::uint64_t activation = static_cast<std::uint64_t>(s.sequence) * s.hidden * s.activation_bytes;
  if (activation > kMaxCallBytes) bad("--seq", "seq x hidden x activation bytes is over 1 TiB", "smaller --seq or --hidden");
  const double gradients = s.parameters / (static_cast<double>(s.tp) * s.pp) * s.gradient_bytes;
  // Count the step's calls before making them (doubles: no product here can wrap).
  const double passes = 2.0 * s.micro_batches * (layers_per_stage * (s.tp > 1 ? 2.0 : 1.0) + (s.pp > 1 ? 1 : 0));
  const double buckets = s.dp > 1 ? std::ceil(gradients / static_cast<double>(s.bucket_bytes)) : 0;
  if (passes + buckets > static_cast<double>(kMaxWorkloadCalls))
    bad(buckets > passes ? "--bucket" : "--micro-batches",
        fmt::format("the step would hold {:.3g} calls, over pico's {}", passes + buckets, kMaxWorkloadCalls),
        buckets > passes ? "a larger --bucket" : "fewer --micro-batches or --layers");
  auto layer_pass = [&](double gap) {
    // Megatron TP: two allreduces of the activations per layer and pass (attention, MLP).
    if (s.tp > 1) {
      w.calls.push_back({CallKind::collective, Collective::allreduce, activation, 1, 0, gap / 2});
      w.calls.push_back({CallKind::collective, Collective::allreduce, activation, 1, 0, gap / 2});
    } else {
      w.calls.push_back({CallKind::compute, Collective::barrier, 0, 0, 0, gap});
    }
  };
  for (int mb = 0; mb < s.micro_batches; ++mb) {
    for (int l = 0; l < layers_per_stage; ++l) layer_pass(fwd);
    if (s.pp > 1) w.calls.push_back({CallKind::shift_up, Collective::sendrecv, activation, 3, 0, 0});
  }
  for (int mb = 0; mb < s.micro_batches; ++mb) {
    if (s.pp > 1) w.calls.push_back({CallKind::shift_down, Collective::sendrecv, activation, 3, 0, 0});
    for (int l = 0; l < layers_per_stage; ++l) layer_pass(bwd);
  }
  // DDP: the stage's gradients, in buckets, allreduced across the DP group after backward.
  if (s.dp > 1) {
    const auto total = static_cast<std::uint64_t>(std::llround(gradients));
    for (std::uint64_t done = 0; done < total; done += s.bucket_bytes)
      w.calls.push_back({CallKind::collective, Collective::allreduce, std::min(s.bucket_bytes, total - done), 2, 0, 0});
  }
  return w;
}

}  // namespace pico
