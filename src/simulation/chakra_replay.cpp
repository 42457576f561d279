// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/chakra_replay.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "simulation/chakra_writer.hpp"
#include "simulation/simulator_exports.hpp"
#include "simulation/trace_replay.hpp"
#include "support/input_error.hpp"
#include "support/plain_text.hpp"
#include "support/shell_words.hpp"

namespace pico {
namespace {

enum class Form { native, custom, expanded };

// How each collective call is written, decided once for all ranks.
struct ChakraPlan {
  std::vector<Form> form;                     // per collective call
  std::vector<int> custom;                    // per collective call: its custom implementation, or -1
  std::vector<std::uint64_t> custom_first;    // per custom implementation: the first call that uses it
  std::vector<std::string> custom_name;
  std::map<std::string, std::string> native;  // ASTRA-sim collective key -> implementation
  std::map<std::string, std::uint64_t> native_calls, calls;  // per key: run natively, in all
  std::set<int> group_comms;                  // communicators native nodes name by pg_name
};

// ASTRA-sim's implementation that runs the same algorithm as pico's reference
// one at the same cost, "" where none does: its ring is the ring (each
// received block reduced, as pico's schedule does: within 2% of pico's
// schedule run as a custom implementation, docs/simulation.md), its
// halvingDoubling all-gather recursive doubling, its direct all-to-all every
// rank sending to every other at once (pico's linear). Its halvingDoubling
// all-reduce and reduce-scatter send Rabenseifner's and recursive halving's
// messages but reduce only some of them (HalvingDoubling::insert_packet marks
// a message `processed` on alternate rounds): 1.2-2x faster than the
// algorithm's reductions cost, so those run as pico's schedule. Stricter than
// pico export's nearest implementation (astra_sim_implementation).
std::string astra_sim_same_algorithm(Collective c, const std::string& algorithm) {
  if (algorithm == "ring") return "ring";
  if (c == Collective::allgather && algorithm == "recursive_doubling") return "halvingDoubling";
  if (c == Collective::alltoall && algorithm == "linear") return "direct";
  return "";
}

// Communicator 0 is the world in a trace program (a workload's and a trace's
// alike): its calls need no pg_name, so ASTRA-sim looks their implementation
// up per node (a group's is looked up once per group and type).
bool is_world(const TraceCollective& c) { return c.comm == 0; }

// A group of fewer NPUs than the world: ASTRA-sim builds it a plan of its own
// (CommunicatorGroup::get_collective_plan) that deletes, at exit, the
// implementation it shares with every other group of the NPU for that
// collective type, so two such groups of one NPU running one type natively
// free it twice (astra-sim 518bd51: exit 134 after every rank finished under
// glibc's malloc checks, undefined behaviour without).
bool is_proper_group(const TraceProgram& t, int comm) {
  return comm != 0 && t.comms[static_cast<std::size_t>(comm)].ranks.size() < t.ranks.size();
}

ChakraPlan plan_chakra(const TraceProgram& t, const std::vector<std::string>& algorithms,
                       std::vector<std::string>& notes) {
  ChakraPlan plan;
  // Per call, ASTRA-sim's implementation of its algorithm where ASTRA-sim can run it.
  std::vector<std::string> same(t.collectives.size());
  std::map<std::string, std::uint64_t> refused;  // why -> calls
  // Per collective key and implementation, the calls that could run it natively: those of
  // the world (and of groups of every NPU), and per proper group.
  std::map<std::string, std::map<std::string, std::uint64_t>> open_calls;
  std::map<std::string, std::map<std::string, std::map<int, std::uint64_t>>> group_calls;
  for (std::size_t i = 0; i < t.collectives.size(); ++i) {
    const TraceCollective& c = t.collectives[i];
    const std::string key(spec_for(c.collective).names.astra_sim);
    const int p = static_cast<int>(t.comms[static_cast<std::size_t>(c.comm)].ranks.size());
    if (key.empty() || !chakra_comm_type(c.collective) || p < 2) continue;  // a group of one writes nothing
    ++plan.calls[key];
    const std::string impl = astra_sim_same_algorithm(c.collective, algorithms[i]);
    if (impl.empty()) continue;
    if (const std::string why = astra_sim_refuses(impl, c.collective, astra_comm_size(c.collective, c.bytes, p), p);
        !why.empty()) {
      ++refused[fmt::format("{}: {}", key, why)];
      continue;
    }
    same[i] = impl;
    if (is_proper_group(t, c.comm)) ++group_calls[key][impl][c.comm];
    else ++open_calls[key][impl];
  }
  // The proper groups one implementation can run natively: those with the
  // most such calls first (then the lower id), a group sharing an NPU with
  // one taken before it left out.
  auto take_groups = [&t](const std::map<int, std::uint64_t>& per_comm) {
    std::vector<std::pair<std::uint64_t, int>> order;
    for (const auto& [comm, n] : per_comm) order.emplace_back(n, comm);
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::set<int> taken_npus, taken;
    for (const auto& [n, comm] : order) {
      const std::vector<int>& npus = t.comms[static_cast<std::size_t>(comm)].ranks;
      if (std::any_of(npus.begin(), npus.end(), [&](int r) { return taken_npus.contains(r); })) continue;
      taken_npus.insert(npus.begin(), npus.end());
      taken.insert(comm);
    }
    return taken;
  };
  // Per key, the implementation that runs the most calls natively, groups
  // left out counted out (ring where none can).
  std::set<std::pair<std::string, int>> native_groups;  // (key, comm)
  for (const Collective c : all_collectives()) {
    const std::string key(spec_for(c).names.astra_sim);
    if (key.empty()) continue;
    std::set<std::string> impls;
    for (const auto& [impl, n] : open_calls[key]) impls.insert(impl);
    for (const auto& [impl, per_comm] : group_calls[key]) impls.insert(impl);
    std::string best = "ring";
    std::uint64_t most = 0;
    std::map<std::string, std::set<int>> taken;  // impl -> the groups it can take
    for (const std::string& impl : impls) {
      taken[impl] = take_groups(group_calls[key][impl]);
      std::uint64_t n = open_calls[key][impl];
      for (const int comm : taken[impl]) n += group_calls[key][impl][comm];
      if (n > most) best = impl, most = n;
    }
    plan.native[key] = best;
    for (const auto& [comm, n] : group_calls[key][best]) {
      if (taken[best].contains(comm)) {
        native_groups.emplace(key, comm);
        continue;
      }
      notes.push_back(fmt::format("{}: {} call(s) on group {} written out as messages: it shares an NPU with a group "
                                  "that runs {} natively, and ASTRA-sim frees a shared implementation twice",
                                  key, n, comm, key));
    }
  }
  for (const auto& [why, n] : refused)
    notes.push_back(fmt::format("{} call(s) not run by ASTRA-sim's implementation ({}): pico's schedule instead", n, why));
  std::map<std::tuple<Collective, std::string, int, std::uint64_t, int, std::string>, int> customs;
  for (std::size_t i = 0; i < t.collectives.size(); ++i) {
    const TraceCollective& c = t.collectives[i];
    const std::string key(spec_for(c.collective).names.astra_sim);
    const bool runs_natively = !same[i].empty() && same[i] == plan.native[key] &&
                               (!is_proper_group(t, c.comm) || native_groups.contains({key, c.comm}));
    // Every other call of the world is pico's schedule run by ASTRA-sim's
    // collective engine, which sends a step's messages together (a workload's
    // sends leave one at a time per NPU); one it has no node for stands on an
    // all-reduce node the custom table claims (ChakraCollective::custom_only).
    Form form = Form::expanded;
    if (runs_natively) form = Form::native;
    else if (is_world(c)) form = Form::custom;
    plan.form.push_back(form);
    plan.custom.push_back(-1);
    if (form == Form::native) {
      ++plan.native_calls[key];
      if (c.comm != 0) plan.group_comms.insert(c.comm);
    }
    if (form != Form::custom) continue;
    const int np = static_cast<int>(t.ranks.size());
    const int k = static_cast<int>(plan.custom_first.size());
    auto [it, fresh] = customs.try_emplace({c.collective, algorithms[i], np, c.bytes, c.root, c.counts}, k);
    if (fresh) {
      plan.custom_first.push_back(i);
      plan.custom_name.push_back(fmt::format("{}-{}-{}B{}{}", name(c.collective), algorithms[i], c.bytes,
                                             c.root != 0 ? fmt::format("-root{}", c.root) : "",
                                             c.counts.empty() ? "" : fmt::format("-counts{}", k)));
    }
    plan.custom.back() = it->second;
  }
  return plan;
}

class ChakraRankFormatter {
 public:
  ChakraRankFormatter(const TraceProgram& t, const TracePlan& tags, const ChakraPlan& plan,
                      const ChakraReplayOptions& o)
      : t_(t), tags_(tags), plan_(plan), o_(o), schedules_(t, tags) {}

  void format(int rank, const std::string& path) {
    const TraceRank& tr = t_.ranks[static_cast<std::size_t>(rank)];
    ChakraRankWriter w(path, t_.collectives.size());
    requests_.assign(tr.requests, {});
    schedules_.begin_rank(rank);
    for (const TraceOp& op : tr.ops) {
      w.compute(op.gap_s);
      switch (op.kind) {
        case TraceOpKind::send:
        case TraceOpKind::recv: {
          const TraceMessage& m = t_.messages[op.index];
          const bool send = op.kind == TraceOpKind::send;
          const std::uint64_t id =
              w.point_to_point(send, m.bytes, send ? m.dst : m.src, tags_.message_tag[op.index], op.blocking);
          if (!op.blocking) requests_[op.request].assign(1, id);
          break;
        }
        case TraceOpKind::cancelled: break;
        case TraceOpKind::collective: collective(op, w); break;
        case TraceOpKind::wait: {
          done_.clear();
          for (std::uint32_t k = 0; k < op.count; ++k) {
            const auto& ids = requests_[tr.waited[op.index + k]];
            done_.insert(done_.end(), ids.begin(), ids.end());
          }
          w.wait(done_);
          break;
        }
      }
    }
    w.compute(tr.final_gap_s);
    w.finish();
  }

 private:
  void collective(const TraceOp& op, ChakraRankWriter& w) {
    const std::size_t i = op.index;
    const TraceCollective& c = t_.collectives[i];
    const std::vector<int>& group = t_.comms[static_cast<std::size_t>(c.comm)].ranks;
    if (group.size() < 2) return;
    std::vector<std::uint64_t> done;
    if (plan_.form[i] != Form::expanded) {
      const ChakraCollective node{c.collective, astra_comm_size(c.collective, c.bytes, static_cast<int>(group.size())),
                                  c.comm == 0 ? "" : std::to_string(c.comm), !chakra_comm_type(c.collective)};
      done.assign(1, w.collective(i, node, op.blocking));
    } else {
      const transport::RankSchedule& rs = schedules_.of(i);
      if (op.blocking) w.schedule(rs, tags_.tag_base[i], o_.model.params.reduce_ps_per_byte, group);
      else done = w.detached_schedule(rs, tags_.tag_base[i], o_.model.params.reduce_ps_per_byte, group);
    }
    if (!op.blocking) requests_[op.request] = std::move(done);
  }

  const TraceProgram& t_;
  const TracePlan& tags_;
  const ChakraPlan& plan_;
  const ChakraReplayOptions& o_;
  TraceSchedules schedules_;
  std::vector<std::vector<std::uint64_t>> requests_;
  std::vector<std::uint64_t> done_;
};

void write_text(const std::string& path, const std::string& text, ChakraReplayOutput& out) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) throw InputError(path, "cannot write", "check the directory of -o exists and is writable");
  out.files.push_back(path);
}

// The prefix before anything is written: ASTRA-sim's inputs name it (the
// custom table is YAML, the system file JSON), and every file pico writes is
// PREFIX.<suffix>, so a prefix these cannot hold would leave some written and
// the rest not.
void check_prefix(const std::string& prefix, int ranks, bool custom) {
  constexpr const char* kHint = "give -o a file prefix in an existing directory, e.g. -o out/app (writes out/app.0.et, ...)";
  const std::filesystem::path p(prefix);
  const std::string leaf = p.filename().string();
  if (leaf.empty() || leaf == "." || leaf == "..")
    throw InputError("-o", fmt::format("'{}' names a directory, not a file prefix (the traces would be hidden "
                                       "files such as .0.et)", prefix), kHint);
  if (const auto bad = one_line_problem(prefix))
    throw InputError("-o", fmt::format("the prefix {} at byte {}: ASTRA-sim's YAML and JSON inputs name it", bad->what,
                                       bad->byte), kHint);
  // The longest name written beside the prefix: PREFIX.<last rank>.et, PREFIX.custom.yaml, PREFIX.system.json.
  const std::size_t longest = leaf.size() + std::max({fmt::format(".{}.et", ranks - 1).size(), sizeof(".custom.yaml") - 1,
                                                      sizeof(".system.json") - 1});
  if (longest > NAME_MAX)
    throw InputError("-o", fmt::format("the prefix's last part is {} bytes: the longest file written beside it would be "
                                       "{} bytes, past the {} a file name can have", leaf.size(), longest, NAME_MAX),
                     kHint);
  std::error_code ec;
  const auto custom_dir = std::filesystem::status(prefix + ".custom", ec).type();
  if (custom && custom_dir != std::filesystem::file_type::not_found && custom_dir != std::filesystem::file_type::directory)
    throw InputError(prefix + ".custom", "exists and is not a directory: pico writes the custom implementations' traces "
                                         "there", "remove it, or choose another -o");
}

}  // namespace

std::uint64_t astra_comm_size(Collective c, std::uint64_t bytes, int np) {
  return bytes * size_factor(spec_for(c).names.chakra_size, np);
}

ChakraReplayOutput write_chakra_replay(const TraceProgram& t, const std::vector<std::string>& algorithms,
                                       const ChakraReplayOptions& o) {
  ChakraReplayOutput out;
  const ReplayOptions ro{
      .reduce_ps_per_byte = o.model.params.reduce_ps_per_byte, .segment_bytes = o.segment_bytes, .threads = 1};
  const TracePlan tags(t, algorithms, ro);
  const ChakraPlan plan = plan_chakra(t, algorithms, out.notes);
  // ASTRA-sim reads the custom table's node ids as int (CollectiveImplLookup).
  if (!plan.custom_first.empty() && t.collectives.size() > static_cast<std::size_t>(INT32_MAX))
    throw InputError("pico replay", fmt::format("{} collective calls: ASTRA-sim's custom table holds node ids below 2^31",
                                                t.collectives.size()),
                     "replay fewer iterations, or choose algorithms ASTRA-sim runs itself (--algorithm)");
  const std::string& prefix = o.prefix;
  check_prefix(prefix, t.size(), !plan.custom_first.empty());
  const std::string absolute = std::filesystem::absolute(prefix).lexically_normal().string();
  try {
    ChakraRankFormatter formatter(t, tags, plan, o);
    for (int r = 0; r < t.size(); ++r) {
      const std::string path = fmt::format("{}.{}.et", prefix, r);
      formatter.format(r, path);
      out.files.push_back(path);
    }
    // The custom implementations: pico's schedule of each, one trace per rank of the world.
    if (!plan.custom_first.empty()) std::filesystem::create_directories(prefix + ".custom");
    for (std::size_t k = 0; k < plan.custom_first.size(); ++k) {
      const reference::ScheduleRequest& req = tags.requests[plan.custom_first[k]];
      transport::RankSchedule rs;
      for (int r = 0; r < req.np; ++r) {
        reference::record_rank(req, r, rs);
        const std::string path = fmt::format("{}.custom/{}.{}.et", prefix, plan.custom_name[k], r);
        ChakraRankWriter w(path, 0);
        w.schedule(rs, 0, o.model.params.reduce_ps_per_byte);
        w.finish();
        out.files.push_back(path);
      }
    }
  } catch (const std::filesystem::filesystem_error& e) {
    throw InputError(e.path1().string(), fmt::format("cannot create the directory: {}", e.code().message()),
                     "check the directory of -o exists and is writable");
  }  // a trace that cannot be opened is an InputError, one cut short a WriteError (chakra_writer.cpp)
  std::string table;
  for (std::size_t i = 0; i < t.collectives.size(); ++i) {
    switch (plan.form[i]) {
      case Form::native: ++out.native; break;
      case Form::expanded: ++out.expanded; break;
      case Form::custom:
        ++out.custom;
        // A YAML double-quoted scalar is a JSON string: the path's ': ', '#' or quotes stay its own.
        table += fmt::format("{}: {}\n", i,
                             nlohmann::json(fmt::format("{}.custom/{}", absolute,
                                                        plan.custom_name[static_cast<std::size_t>(plan.custom[i])]))
                                 .dump());
        break;
    }
  }
  out.custom_traces = plan.custom_first.size();

  AstraSimInputs in = astra_sim_platform(o.model, t.size(), 1);
  for (std::string& note : in.notes) out.notes.push_back(std::move(note));
  for (const auto& [key, impl] : plan.native) {
    in.system[fmt::format("{}-implementation", key)] = nlohmann::json::array({impl});
    if (!plan.calls.count(key)) continue;
    const std::uint64_t native = plan.native_calls.count(key) ? plan.native_calls.at(key) : 0;
    out.notes.push_back(fmt::format("{}: ASTRA-sim's {} runs {} of the {} calls{}", key, impl, native, plan.calls.at(key),
                                    native == plan.calls.at(key) ? "" : "; pico's schedules run the others"));
  }
  if (!table.empty()) {
    write_text(prefix + ".custom.yaml", "# pico replay: per-node-custom-implementation, node id -> trace prefix\n" + table, out);
    in.system["per-node-custom-implementation"] = absolute + ".custom.yaml";
  }
  write_text(prefix + ".system.json", in.system.dump(2) + "\n", out);
  write_text(prefix + ".network.yml", in.network_yaml, out);
  write_text(prefix + ".memory.json", in.memory.dump(2) + "\n", out);
  std::vector<std::string> command{"AstraSim_Analytical_Congestion_Unaware", "--workload-configuration=" + prefix,
                                   "--system-configuration=" + prefix + ".system.json",
                                   "--network-configuration=" + prefix + ".network.yml",
                                   "--remote-memory-configuration=" + prefix + ".memory.json"};
  if (!plan.group_comms.empty()) {
    nlohmann::json groups = nlohmann::json::object();
    for (const int comm : plan.group_comms) {
      std::vector<int> npus = t.comms[static_cast<std::size_t>(comm)].ranks;
      std::sort(npus.begin(), npus.end());
      groups[std::to_string(comm)] = npus;
    }
    write_text(prefix + ".comm-groups.json", groups.dump(2) + "\n", out);
    command.push_back("--comm-group-configuration=" + prefix + ".comm-groups.json");
  }
  if (out.expanded > 0)
    out.notes.push_back(fmt::format("{} collective call(s) of groups written as pico's schedules (sends, receives, "
                                    "reductions) in the workload: ASTRA-sim looks a group's custom implementation up "
                                    "once per collective type, and a workload's sends leave one at a time per NPU",
                                    out.expanded));
  out.notes.push_back("durations are whole microseconds in Chakra: compute gaps and reductions are rounded, each "
                      "rank carrying what it rounded off into its next one");
  out.command = shell_join(command);
  return out;
}

}  // namespace pico
