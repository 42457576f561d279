// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/simulator_exports.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <map>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "simulation/profile_choice.hpp"
#include "tuning/exported_choice.hpp"

namespace pico {
namespace {

// Reference algorithm -> Schedgen2's allreduce algorithms (mpi_colls.py).
std::string schedgen2_name(Collective c, const std::string& reference) {
  if (c != Collective::allreduce) return "";
  if (reference == "ring" || reference == "segmented_ring") return "ring";
  if (reference == "recursive_doubling" || reference == "rabenseifner") return "recdoub";
  return "";
}

}  // namespace

std::string astra_sim_implementation(const std::string& reference) {
  if (reference == "ring" || reference == "segmented_ring") return "ring";
  if (reference == "recursive_doubling" || reference == "rabenseifner" || reference == "recursive_halving" ||
      reference == "bruck")
    return "halvingDoubling";
  if (reference == "reduce_bcast" || reference == "binomial") return "doubleBinaryTree";
  if (reference == "linear" || reference == "pairwise") return "direct";
  return "";
}

std::string astra_sim_refuses(const std::string& impl, Collective c, std::optional<std::uint64_t> comm_size, int npus) {
  const auto np = static_cast<std::uint64_t>(npus);
  if (impl == "halvingDoubling" && !std::has_single_bit(np))
    return fmt::format("halvingDoubling on {} NPUs, not a power of two, finishes no rank", npus);
  if (comm_size && c != Collective::allgather && *comm_size < np)
    return fmt::format("{} below {} B on {} NPUs: a message of 0 bytes", impl, np, npus);
  return "";
}

// ASTRA-sim's analytical network (astra-network-analytical, congestion_unaware
// BasicTopology::compute_communication_delay) charges a message
// hops x latency + bytes / bandwidth, reads its bandwidth "GB/s" as 2^30 bytes
// per 10^9 ns, and routes every Switch message over two links (NPU, switch,
// NPU). So each link gets half of LogP's per-message cost L + 2o (the
// analytical network has no CPU overhead of its own), and 1/G is written in
// its GiB/s: one message then costs L + 2o + bytes x G, as in the model.
AstraSimInputs astra_sim_platform(const LogGPModel& model, int npus, int splits) {
  AstraSimInputs in;
  in.system = {{"scheduling-policy", "LIFO"},          {"endpoint-delay", 10},
               {"active-chunks-per-dimension", 1},     {"preferred-dataset-splits", splits},
               {"collective-optimization", "localBWAware"}, {"local-reduction-delay", 1}};
  const LogGPParams& m = model.params;
  constexpr double kSwitchHops = 2;
  constexpr double kAstraBytesPerGB = 1 << 30;
  double bandwidth = kUnboundedAstraBandwidth;
  if (m.G > 0)
    bandwidth = 1e3 / static_cast<double>(m.G) * 1e9 / kAstraBytesPerGB;  // 1/G: bytes per ns, as GiB/s
  else
    in.notes.push_back(fmt::format("the model has G = 0 (no per-byte cost) and ASTRA-sim needs a bandwidth: "
                                   "written as {:.0f} GB/s, so bytes cost next to nothing",
                                   kUnboundedAstraBandwidth));
  // A reduction: ASTRA-sim's own implementations charge each received chunk
  // they reduce 3 x bytes / local-mem-bw ns (PacketBundle::call: two reads,
  // one write; local-mem-bw in 10^9 B/s, 0 unless set), pico's schedules
  // bytes x reduce_ps_per_byte in a compute node: one cost on both paths.
  in.system["local-mem-bw"] = m.reduce_ps_per_byte > 0 ? 3e3 / m.reduce_ps_per_byte : kUnboundedAstraBandwidth;
  const double link_latency_ns = static_cast<double>(m.L + 2 * m.o) * 1e-3 / kSwitchHops;
  in.network_yaml = fmt::format(
      "# ASTRA-sim analytical network from pico's LogGP model ({}): a message crosses 2 links\n"
      "# (NPU, switch, NPU), each with half of L + 2o; bandwidth 1/G in ASTRA-sim's GB/s (2^30 B)\n"
      "topology: [ Switch ]\nnpus_count: [ {} ]\nbandwidth: [ {:.3f} ]  # GiB/s\nlatency: [ {:.1f} ]  # ns per link\n",
      model.platform, npus, bandwidth, link_latency_ns);
  in.memory = {{"memory-type", "NO_MEMORY_EXPANSION"}};
  return in;
}

namespace {

// One Schedgen2 entry per span of each range of `rule` (or, rule nullptr, one for the library's own decision:
// ATLAHS's fixed algorithm, as pico replay runs it) on the communicator sizes [from, to); `own`: whether the
// sizes are the rule's own, where a "default" range is what the default ran there (ExportedRule::spans).
void add_schedgen2_entries(nlohmann::json& out, std::vector<std::string>* skipped, const ReferenceEquivalents& eq,
                           Collective c, int from, std::optional<int> to, const ProfileRule* rule, bool own) {
  const auto entry = [&](const std::string& algorithm, std::uint64_t min_bytes, std::optional<std::uint64_t> max) {
    out.push_back({{"algorithm", algorithm},
                   {"ptrn", std::string(name(c))},
                   {"lower_bounds", {{"comm_size", from}, {"datasize", min_bytes}}},
                   {"upper_bounds",
                    {{"comm_size", to ? *to : -1},
                     {"datasize", max ? nlohmann::json(*max + 1) : nlohmann::json(-1)}}}});
  };
  const std::string fixed(spec_for(c).names.replay_default);
  if (rule == nullptr) {
    // A collective Schedgen2 has no algorithm for is listed once per range of its rules, below.
    if (const std::string algorithm = schedgen2_name(c, fixed); !algorithm.empty()) entry(algorithm, 0, std::nullopt);
    return;
  }
  const ExportedRule applied{rule, "", own ? rule->comm_size : 0};
  for (const ProfileRange& range : rule->ranges)
    for (const ProfileRange::Span& span : applied.spans(range)) {
      // "default" the reports did not resolve: ATLAHS's fixed algorithm, as pico replay runs it.
      const std::string ref = span.algorithm == "default" ? fixed : reference_equivalent(eq, c, span.algorithm);
      const std::string algorithm = schedgen2_name(c, ref);
      if (!algorithm.empty()) {
        entry(algorithm, span.min_bytes, span.max_bytes);
        continue;
      }
      const std::string why = fmt::format("{} on {} ranks from {} B: {} has no Schedgen2 algorithm", name(c),
                                          rule->comm_size, span.min_bytes, applied.choice_at(span.min_bytes));
      if (skipped && std::find(skipped->begin(), skipped->end(), why) == skipped->end()) skipped->push_back(why);
    }
}

// Whether a range of the rule runs otherwise at its own size than elsewhere: a "default" whose sweep saw what ran.
bool resolves_default(const ProfileRule& rule) {
  const ExportedRule own{&rule, "", rule.comm_size};
  return std::any_of(rule.ranges.begin(), rule.ranges.end(),
                     [&](const ProfileRange& r) { return own.spans(r).front().algorithm != r.algorithm; });
}

}  // namespace

nlohmann::json schedgen2_ptrn_config(const TunedProfile& p, const std::string& where, std::vector<std::string>* skipped) {
  const ReferenceEquivalents eq = load_reference_equivalents(p.library.name, where);
  nlohmann::json out = nlohmann::json::array();
  for (const Collective c : all_collectives()) {
    // The communicator sizes the library applies each rule on, as the profile's export writes them (and pico
    // predict --profile reads them): below the smallest rule, between exact sizes or past a rule's reach, the
    // library's own decision, written as ATLAHS's algorithm (Schedgen2 raises on a call no entry matches).
    for (const AppliedCommSizes& s : loaded_comm_sizes(p, where, c)) {
      const ProfileRule* rule = s.rule;
      const int n = rule != nullptr ? rule->comm_size : 0;
      if (rule == nullptr || !resolves_default(*rule) || n < s.from || (s.to && n >= *s.to) || n == INT_MAX) {
        add_schedgen2_entries(out, skipped, eq, c, s.from, s.to, rule, false);
        continue;
      }
      // What the default ran is known at the rule's own size only: that size apart from the rest of its reach.
      if (s.from < n) add_schedgen2_entries(out, skipped, eq, c, s.from, n, rule, false);
      add_schedgen2_entries(out, skipped, eq, c, n, n + 1, rule, true);
      if (!s.to || n + 1 < *s.to) add_schedgen2_entries(out, skipped, eq, c, n + 1, s.to, rule, false);
    }
  }
  return out;
}

AstraSimInputs astra_sim_inputs(const TunedProfile& p, const std::string& where, const LogGPModel& model, int npus,
                                int splits) {
  const ReferenceEquivalents eq = load_reference_equivalents(p.library.name, where);
  AstraSimInputs in = astra_sim_platform(model, npus, splits);
  for (const Collective c : all_collectives()) {
    const std::string_view astra = spec_for(c).names.astra_sim;
    if (astra.empty()) continue;
    // The choice for the largest messages: the last span of the rule the profile's export applies on npus ranks
    // (loaded_rule, as pico predict --profile and pico replay read it).
    const ExportedRule applied = loaded_rule(p, where, c, npus);
    const ProfileRule* rule = applied.rule;
    const ProfileRange* range = rule != nullptr ? &rule->ranges.back() : nullptr;
    const std::optional<ProfileRange::Span> largest =
        range ? std::optional(applied.spans(*range).back()) : std::nullopt;
    if (range != nullptr)  // the rule's other choices, which one system file cannot hold
      for (const ProfileRange& other : rule->ranges)
        for (const ProfileRange::Span& span : applied.spans(other))
          if (span.algorithm != largest->algorithm)
            in.notes.push_back(fmt::format(
                "{} on {} ranks, {}-{} B: {} is not carried (one implementation per collective: the largest "
                "messages' {}); pico replay --format chakra carries per-size choices",
                name(c), rule->comm_size, span.min_bytes,
                span.max_bytes ? std::to_string(*span.max_bytes) : std::string("..."),
                applied.choice_at(span.min_bytes), applied.choice_at(largest->min_bytes)));
    // "default" without a record of what the library ran: ATLAHS's fixed
    // algorithm, as pico replay runs it (one rule for every simulator path).
    const bool unresolved = !largest || largest->algorithm == "default";
    const std::string reference = unresolved ? std::string(spec_for(c).names.replay_default)
                                             : reference_equivalent(eq, c, largest->algorithm);
    if (unresolved)
      in.notes.push_back(fmt::format(
          "{}: {}: ATLAHS's {}, as pico replay runs it", name(c),
          !range ? fmt::format("the library's own decision on {} NPUs ({})", npus, applied.why)
          : applied.own_size()
              ? std::string("the library default, and the reports do not say what it ran")
              : fmt::format("the library default on {} NPUs, which the reports did not see (its rule is for np {})",
                            npus, rule->comm_size),
          reference));
    std::string impl = astra_sim_implementation(reference);
    if (impl.empty()) {
      impl = "ring";
      in.notes.push_back(fmt::format("{}: {} has no ASTRA-sim equivalent; ASTRA-sim's ring", name(c),
                                     unresolved ? reference : applied.choice_at(largest->min_bytes)));
    } else if (const std::string why = astra_sim_refuses(impl, c, std::nullopt, npus); !why.empty()) {
      impl = "ring";
      in.notes.push_back(fmt::format("{}: ASTRA-sim's {}; ASTRA-sim's ring", name(c), why));
    } else if (impl == "halvingDoubling" && c != Collective::allgather) {
      in.notes.push_back(fmt::format("{}: ASTRA-sim's halvingDoubling reduces only some of its messages (cheaper than "
                                     "{} under the model) and aborts on a call under {} B; pico replay --format "
                                     "chakra runs it as pico's schedule", name(c), reference, 2 * npus));
    }
    in.system[fmt::format("{}-implementation", astra)] = nlohmann::json::array({impl});
  }
  return in;
}

namespace {

// Schedgen2 (spcl/LogGOPSim src/Schedgen2/mpi_colls.py) reads a per-size
// algorithm table; the ranges it has no algorithm for become notes.
ExportOutput write_schedgen2(const TunedProfile& profile, const std::string& profile_path, const FormatArgs&) {
  std::vector<std::string> skipped;
  ExportOutput out{{{"", schedgen2_ptrn_config(profile, profile_path, &skipped).dump(2) + "\n"}}, {}};
  for (const std::string& why : skipped) out.notes.push_back("not expressed: " + why);
  return out;
}

std::string schedgen2_how_to_load(const TunedProfile&, const FormatArgs&, const std::string& file) {
  return fmt::format("Load it in Schedgen2: python3 mpi_colls.py ... --ptrn-config {}\n", file.empty() ? "FILE" : file);
}

// The NPUs of the network: --npus, else the profile's largest communicator.
int astra_npus(const TunedProfile& profile, const FormatArgs& args) {
  if (const auto npus = args.integer("npus")) return static_cast<int>(*npus);
  int npus = 0;
  for (const ProfileRule& rule : profile.rules) npus = std::max(npus, rule.comm_size);
  return npus;
}

// ASTRA-sim takes three files, written into the directory -o names.
ExportOutput write_astra_sim(const TunedProfile& profile, const std::string& profile_path, const FormatArgs& args) {
  const std::string model_path = args.text("model");
  const LogGPModel model = model_path.empty() ? default_model() : load_model(model_path);
  AstraSimInputs in = astra_sim_inputs(profile, profile_path, model, astra_npus(profile, args),
                                       static_cast<int>(args.integer("splits").value_or(1)));
  ExportOutput out{{{"system.json", in.system.dump(2) + "\n"},
                    {"network.yml", in.network_yaml},
                    {"memory.json", in.memory.dump(2) + "\n"}},
                   {}};
  for (std::string& note : in.notes) out.notes.push_back("note: " + note);
  return out;
}

std::string astra_sim_how_to_load(const TunedProfile& profile, const FormatArgs& args, const std::string& dir) {
  return fmt::format(
      "Run ASTRA-sim with them ({1} NPUs): --system-configuration={0}/system.json "
      "--network-configuration={0}/network.yml\n"
      "  --remote-memory-configuration={0}/memory.json --workload-configuration=YOUR_WORKLOAD\n",
      dir, astra_npus(profile, args));
}

constexpr FormatFlag kAstraSimFlags[] = {
    {"model", "the model (pico fit) for bandwidth and latency (default: ATLAHS AI)", FlagKind::text, 0, 0},
    {"npus", "NPUs in the network (default: the profile's largest communicator)", FlagKind::integer, 1, 1 << 24},
    {"splits", "preferred-dataset-splits: chunks per collective (default 1; more only for bandwidth-bound workloads)",
     FlagKind::integer, 1, 1024},
};

}  // namespace

extern const ExportFormat kSchedgen2Format{
    .name = "schedgen2",
    .library = "",
    .description = "Schedgen2's --ptrn-config table (JSON)",
    .flags = {},
    .directory = false,
    .write = write_schedgen2,
    .how_to_load = schedgen2_how_to_load,
    .loading = nullptr};

extern const ExportFormat kAstraSimFormat{
    .name = "astra-sim",
    .library = "",
    .description = "ASTRA-sim 2.x system JSON, network YAML and memory JSON",
    .flags = kAstraSimFlags,
    .directory = true,
    .write = write_astra_sim,
    .how_to_load = astra_sim_how_to_load,
    .loading = nullptr};

const std::vector<const ExportFormat*>& simulator_export_formats() {
  static const std::vector<const ExportFormat*> formats{&kAstraSimFormat, &kSchedgen2Format};
  return formats;
}

}  // namespace pico
