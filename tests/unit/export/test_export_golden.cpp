// SPDX-License-Identifier: BSD-3-Clause
// Every export format against a golden file (tests/data/export): the exact
// text pico writes for a fixed profile. tests/tools/tuning_formats.py (CTest
// "tuning: formats") checks the same goldens against each library's rules,
// so a golden cannot drift into a file the library would ignore.
// PICO_UPDATE_GOLDEN=1 rewrites them (then review the diff).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/mpich_defaults.hpp"
#include "export/ompi_han_rules.hpp"
#include "export/ompi_sizes.hpp"
#include "export_fixtures.hpp"
#include "simulation/simulator_exports.hpp"
#include "support/input_error.hpp"
#include "tuning/exported_choice.hpp"
#include "tuning/ompi_rank_distribution.hpp"

using namespace pico;
using test::kExportDir;
using test::mpich_options;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string exported(const std::string& profile, const std::string& format, const FormatArgs& args = {}) {
  const ExportOutput out = export_profile(load_profile(kExportDir + profile), profile, export_format(format), args);
  REQUIRE(out.files.size() == 1);
  CHECK(out.files.front().first.empty());
  return out.files.front().second;
}

void check_golden(const std::string& text, const std::string& golden) {
  if (std::getenv("PICO_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(kExportDir + golden) << text;
    return;
  }
  INFO(golden);
  CHECK(text == read(kExportDir + golden));
}

}  // namespace

TEST_CASE("golden: every format") {
  FormatArgs nccl;
  nccl.set("nccl-channels", "8");
  check_golden(exported("openmpi-4.1.4.profile.json", "ompi-rules"), "openmpi-4.1.4.ompi-rules");
  check_golden(exported("openmpi-5.0.7.profile.json", "ompi-rules"), "openmpi-5.0.7.ompi-rules");
  check_golden(exported("openmpi-4.1.4-han.profile.json", "ompi-rules"), "openmpi-4.1.4-han.ompi-rules");
  check_golden(exported("openmpi-4.1.4-han.profile.json", "ompi-han-rules"), "openmpi-4.1.4-han.ompi-han-rules");
  check_golden(exported("openmpi-6.0.0.profile.json", "ompi-json"), "openmpi-6.0.0.ompi-json");
  check_golden(exported("mpich-4.0.2.profile.json", "mpich-json", mpich_options()), "mpich-4.0.2.mpich-json");
  check_golden(exported("mpich-4.0.2-ch4.profile.json", "mpich-json", mpich_options()), "mpich-4.0.2-ch4.mpich-json");
  check_golden(exported("mpich-4.0.2-ch4.profile.json", "mpich-ch4-json", mpich_options()),
               "mpich-4.0.2-ch4.mpich-ch4-json");
  check_golden(exported("ucc.profile.json", "ucc-tune"), "ucc.ucc-tune");
  check_golden(exported("nccl.profile.json", "nccl-tuner", nccl), "nccl.nccl-tuner");
  check_golden(exported("nccl-one-choice.profile.json", "nccl-env"), "nccl-one-choice.nccl-env");
  check_golden(exported("intelmpi.profile.json", "intel-mpi"), "intelmpi.intel-mpi");
}

TEST_CASE("han's rules: what Open MPI 4.1.4 can load, and nothing else") {
  const TunedProfile han = load_profile(kExportDir + "openmpi-4.1.4-han.profile.json");
  CHECK(chooses_component(han));
  CHECK_FALSE(chooses_component(load_profile(kExportDir + "openmpi-4.1.4.profile.json")));
  const auto vars = han_rules_variables(han, "/r/han-rules.txt");
  CHECK(vars.at("coll_han_priority") == "100");
  CHECK(vars.at("coll_han_dynamic_rules_filename") == "/r/han-rules.txt");
  CHECK(vars.at("coll_han_allreduce_low_module") == "1");
  CHECK(vars.at("coll_han_use_simple_reduce") == "1");
  CHECK(vars.at("coll_han_use_simple_bcast") == "0");  // han, not its simple variant: said explicitly
  const auto refused = [&](TunedProfile p, const std::string& why) {
    CHECK_THROWS_WITH(export_profile(p, "p.json", export_format("ompi-han-rules"), {}), Catch::Contains(why));
  };
  TunedProfile two_variants = han;  // allreduce's two han ranges with different low modules
  two_variants.rules[1].ranges[0].params["low_module"] = 0;
  refused(two_variants, "needs coll_han_allreduce_low_module=0");
  TunedProfile simple_and_not = han;  // han at 64 KiB, han_simple on 8 ranks: one use_simple per collective
  simple_and_not.rules[1].ranges[0].algorithm = "han_simple";
  simple_and_not.rules[1].ranges[0].params.erase("segment_size");
  refused(simple_and_not, "coll_han_use_simple_allreduce");
  TunedProfile adapt = han;
  adapt.rules[2].ranges[1].algorithm = "adapt";
  adapt.rules[2].ranges[1].params = {{"segment_size", 8192}};
  refused(adapt, "never hands a call to adapt");
  TunedProfile six = han;  // 5.0.7 reads the same file (cluster: openmpi5_profile loads one); 6.0 is not checked
  six.library.version = "6.0.0";
  refused(six, "written for Open MPI 4.1 and 5.0");
}

TEST_CASE("every format in the table has a name, a library, a writer and loading instructions") {
  for (const ExportFormat* f : export_formats()) {
    CHECK(!f->name.empty());
    CHECK(!f->library.empty());
    CHECK(f->write != nullptr);
    CHECK(f->how_to_load != nullptr);
    CHECK(&export_format(f->name) == f);
  }
  CHECK_THROWS_AS(export_format("astra-sim-9"), InputError);
  // A flag's name is the same flag in every format that declares it: one meaning, one range.
  std::map<std::string_view, const FormatFlag*> seen;
  std::vector<const ExportFormat*> all = export_formats();
  for (const ExportFormat* f : simulator_export_formats()) {
    CHECK(f->library.empty());  // a simulator takes any library's profile through its reference equivalents
    all.push_back(f);
  }
  for (const ExportFormat* f : all)
    for (const FormatFlag& flag : f->flags) {
      INFO(f->name << " --" << flag.name);
      CHECK(!flag.help.empty());
      CHECK((flag.kind == FlagKind::text || flag.min <= flag.max));
      if (auto [it, fresh] = seen.emplace(flag.name, &flag); !fresh) CHECK(it->second->help == flag.help);
    }
  FormatArgs args;
  args.set("nccl-channels", "8");
  CHECK(args.integer("nccl-channels") == 8);
  CHECK_FALSE(args.integer("npus"));
  CHECK(args.text("mpich-defaults").empty());
}

TEST_CASE("export refuses a profile of another library, naming both") {
  try {
    exported("openmpi-4.1.4.profile.json", "mpich-json", mpich_options());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.message, Catch::Matchers::Contains("the profile is for openmpi 4.1.4"));
    CHECK_THAT(e.message, Catch::Matchers::Contains("writes mpich's input"));
  }
}

TEST_CASE("export refuses what the library would ignore or abort on") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4.profile.json");
  auto refuses = [&](const TunedProfile& bad, const std::string& format, const std::string& why) {
    try {
      export_profile(bad, "bad.json", export_format(format), {});
      FAIL("no error for " + why);
    } catch (const InputError& e) {
      CHECK(e.file == "bad.json");
      CHECK_THAT(e.message, Catch::Matchers::Contains(why));
    }
  };
  SECTION("first range not at 0") {
    p.rules[0].ranges[0].min_bytes = 1;
    refuses(p, "ompi-rules", "not 0");
  }
  SECTION("a gap between ranges") {
    p.rules[0].ranges[0].max_bytes = *p.rules[0].ranges[0].max_bytes - 1;
    refuses(p, "ompi-rules", "cover every size");
  }
  SECTION("the last range bounded") {
    p.rules[0].ranges.back().max_bytes = 1u << 30;
    refuses(p, "ompi-rules", "larger messages are not covered");
  }
  SECTION("an algorithm the version lacks (allgather_reduce is 6.0)") {
    p.rules[0].ranges[0].algorithm = "allgather_reduce";
    refuses(p, "ompi-rules", "exists in versions >=6.0");
  }
  SECTION("an algorithm no version has") {
    p.rules[0].ranges[0].algorithm = "ring2";
    refuses(p, "ompi-rules", "'ring2' is not one openmpi 4.1.4 has");
  }
  SECTION("a parameter the file has no column for") {
    p.rules[0].ranges[0].params["max_requests"] = 4;
    refuses(p, "ompi-rules", "has no column");
  }
  SECTION("JSON rules for a version that reads only the classic file") {
    refuses(p, "ompi-json", "reads only the classic rules file");
  }
  SECTION("scan, whose rules compare the datatype size times the communicator size") {
    p.rules[0].collective = Collective::scan;
    refuses(p, "ompi-rules", "cannot hold a per-size choice");
  }
}

TEST_CASE("intel-mpi names scan and exscan by their own variables") {
  TunedProfile p = load_profile(kExportDir + "intelmpi.profile.json");
  ProfileRule& rule = p.rules.front();
  for (Collective c : {Collective::scan, Collective::exscan}) {
    rule.collective = c;
    const std::string text = export_profile(p, "p.json", export_format("intel-mpi"), {}).files.front().second;
    CHECK_THAT(text, Catch::Matchers::Contains(c == Collective::scan ? "export I_MPI_ADJUST_SCAN=\""
                                                                     : "export I_MPI_ADJUST_EXSCAN=\""));
  }
}

TEST_CASE("nccl exports refuse what NCCL would read otherwise") {
  TunedProfile p = load_profile(kExportDir + "nccl.profile.json");
  SECTION("no channel count") {
    CHECK_THROWS_WITH(export_profile(p, "p.json", export_format("nccl-tuner"), {}),
                      Catch::Matchers::Contains("no channel count"));
  }
  SECTION("several choices per collective cannot be NCCL_ALGO") {
    CHECK_THROWS_WITH(export_profile(p, "p.json", export_format("nccl-env"), {}),
                      Catch::Matchers::Contains("nccl-tuner"));
  }
}

TEST_CASE("MPICH's default tree from the installed library, when there is one") {
  const std::string lib = "/usr/lib/x86_64-linux-gnu/libmpich.so.12";
  if (!std::ifstream(lib)) {
    WARN("skipped: no " << lib);
    return;
  }
  const MpichDefaults d = load_mpich_defaults("", lib);
  REQUIRE(d.tree.is_object());
  CHECK(d.tree.contains("collective=allreduce"));
  CHECK(d.tree.contains("collective=bcast"));
  // The MPIR-level tree, not ch4's compositions.
  CHECK(d.tree["collective=allreduce"].dump().find("MPIR_Allreduce_intra_recursive_doubling") != std::string::npos);
  // Key order is the file's: the first match wins in MPICH.
  CHECK(d.tree.begin().key() == "collective=bcast");
  // The ch4 device's tree beside it: compositions, the same as the golden's copy.
  const MpichDefaults ch4 = load_mpich_defaults("", lib, MpichTree::ch4);
  CHECK(ch4.tree["collective=allreduce"].dump().find("MPIDI_Allreduce_intra_composition_alpha") != std::string::npos);
  CHECK(ch4.tree.dump() == nlohmann::ordered_json::parse(read(kExportDir + "mpich-4.0.2-ch4-defaults.json")).dump());
}

// Issue 35, finding 3: a library's size key is checked arithmetic, never a wrapped one.
TEST_CASE("export refuses a range whose library size would pass 2^63-1 instead of wrapping") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4.profile.json");
  // allgather keys on the total (x comm size 4): 2^62 x 4 wrapped to 0, a second rule at 0.
  for (ProfileRule& rule : p.rules)
    if (rule.collective == Collective::allgather) {
      rule.ranges.back().min_bytes = std::uint64_t{1} << 62;
      rule.ranges.front().max_bytes = (std::uint64_t{1} << 62) - 1;
    }
  CHECK_THROWS_WITH(export_profile(p, "p.json", export_format("ompi-rules"), {}),
                    Catch::Matchers::Contains("allgather np 4") && Catch::Matchers::Contains("past 2^63-1"));
}

TEST_CASE("intel-mpi refuses a range starting past its largest size rather than write min > max") {
  TunedProfile p = load_profile(kExportDir + "intelmpi.profile.json");
  ProfileRule& rule = p.rules.front();
  rule.ranges.back().min_bytes = std::uint64_t{1} << 32;
  (rule.ranges.end() - 2)->max_bytes = (std::uint64_t{1} << 32) - 1;
  rule.ranges.back().algorithm = "1";
  CHECK_THROWS_WITH(export_profile(p, "p.json", export_format("intel-mpi"), {}),
                    Catch::Matchers::Contains("past Intel MPI's largest message size"));
}

TEST_CASE("ucc-tune never writes an empty range 0-0 for the largest sizes") {
  TunedProfile p = load_profile(kExportDir + "ucc.profile.json");
  const std::string text = export_profile(p, "p.json", export_format("ucc-tune"), {}).files.front().second;
  CHECK_THAT(text, !Catch::Matchers::Contains(":0-0:"));
  ProfileRule& rule = p.rules.front();
  (rule.ranges.end() - 2)->max_bytes = kMaxProfileBytes - 1;
  rule.ranges.back().min_bytes = kMaxProfileBytes;
  const std::string edge = export_profile(p, "p.json", export_format("ucc-tune"), {}).files.front().second;
  CHECK_THAT(edge, Catch::Matchers::Contains("-9223372036854775807:") && !Catch::Matchers::Contains(":0-0:"));
}

TEST_CASE("Open MPI's rules choose alltoallv by communicator size alone: a per-size choice is refused") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4.profile.json");
  for (ProfileRule& rule : p.rules) {
    if (rule.collective != Collective::alltoallv) continue;
    ProfileRange small = rule.ranges.front();
    small.max_bytes = 1023;
    small.algorithm = "basic_linear";
    rule.ranges.front().min_bytes = 1024;
    rule.ranges.insert(rule.ranges.begin(), small);
  }
  for (const char* format : {"ompi-rules"}) {
    try {
      export_profile(p, "p.json", export_format(format), FormatArgs{});
      FAIL("no refusal");
    } catch (const InputError& e) {
      CHECK_THAT(e.message, Catch::Matchers::Contains("choose alltoallv by communicator size alone"));
    }
  }
}

namespace {

// Open MPI 4.1's reading of a classic rules file for one collective id (its
// coll_tuned_dynamic_file.c and get_target_method_params, from their
// behaviour as docs/tuning.md states it): the last comm-size block <= the
// communicator, else the first; in it the last rule starting <= the message.
// Returns the rule's trailing comment (pico writes the algorithm name there).
struct RulesFile {
  std::map<int, std::vector<std::pair<int, std::vector<std::pair<long long, std::string>>>>> blocks;

  explicit RulesFile(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::vector<long long>> rows;
    std::vector<std::string> comments;
    while (std::getline(in, line)) {
      const auto hash = line.find('#');
      std::istringstream nums(line.substr(0, hash));
      std::vector<long long> row;
      for (long long v; nums >> v;) row.push_back(v);
      if (row.empty()) continue;
      rows.push_back(row);
      comments.push_back(hash == std::string::npos ? "" : line.substr(hash + 2));
    }
    std::size_t at = 1;  // rows[0]: the number of collectives
    for (long long c = 0; c < rows[0][0]; ++c) {
      const int id = static_cast<int>(rows[at++][0]);
      const long long n_blocks = rows[at++][0];
      for (long long b = 0; b < n_blocks; ++b) {
        const int comm_size = static_cast<int>(rows[at][0]);
        const long long n_rules = rows[at++][1];
        std::vector<std::pair<long long, std::string>> rules;
        for (long long r = 0; r < n_rules; ++r, ++at) rules.emplace_back(rows[at][0], comments[at]);
        blocks[id].emplace_back(comm_size, rules);
      }
    }
  }

  std::string runs(int id, int comm_size, long long message) const {
    const auto& of = blocks.at(id);
    std::size_t best = 0;
    for (std::size_t i = 0; i < of.size() && of[i].first <= comm_size; ++i) best = i;
    std::string name;
    for (const auto& [from, algorithm] : of[best].second)
      if (from <= message) name = algorithm;
    return name;
  }
};

}  // namespace

// Issue 53, finding 1: allgather's rules were scaled by the rule's comm size
// while Open MPI multiplies by the communicator's, so at np 2 a profile tuned
// on 4 ran ring where pico chose bruck.
TEST_CASE("ompi-rules: Open MPI runs pico's choice or its own default at every communicator size, never another") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4.profile.json");
  ProfileRule two;
  for (const ProfileRule& rule : p.rules)
    if (rule.collective == Collective::allgather) two = rule;
  REQUIRE(two.ranges.size() == 2);
  two.comm_size = 2;
  two.ranges[0].algorithm = "bruck";
  ProfileRule big = two;
  big.comm_size = 40;  // would drive 40..79 (twice the size)
  big.ranges[0].max_bytes = (std::uint64_t{1} << 57) - 1;  // x 64 passes 2^63-1: 40..63 only
  big.ranges[1].min_bytes = std::uint64_t{1} << 57;
  p.rules.push_back(two);
  p.rules.push_back(big);
  const RulesFile file(export_profile(p, "p.json", export_format("ompi-rules"), {}).files.front().second);
  const int id = 0;  // allgather
  std::map<int, bool> drives;  // comm size -> a block scaled for it
  for (const auto& [comm_size, rules] : file.blocks.at(id)) drives[comm_size] = rules.size() > 1;
  for (int np : {2, 3, 4, 5, 7, 40, 41, 63}) CHECK(drives[np]);
  // Below the smallest rule, past twice a rule's size, past what fits in 2^63-1.
  for (int np : {1, 8, 64}) CHECK_FALSE(drives[np]);
  for (int np = 1; np <= 100; ++np)
    for (std::uint64_t bytes : {0ULL, 1023ULL, 1024ULL, 1025ULL, 5000ULL, (1ULL << 57) - 1, 1ULL << 57}) {
      const unsigned __int128 key = static_cast<unsigned __int128>(bytes) * static_cast<unsigned>(np);
      if (key > kMaxLibraryBytes) continue;
      const std::string ran = file.runs(id, np, static_cast<long long>(key));
      const ProfileRange* chosen = p.choose(Collective::allgather, np, bytes);
      REQUIRE(chosen != nullptr);
      INFO("np " << np << ", " << bytes << " B: Open MPI runs " << ran << ", pico chose " << chosen->algorithm);
      const bool driven = (np >= 2 && np <= 7) || (np >= 40 && np <= 63);
      if (driven) CHECK(ran == chosen->algorithm);
      else CHECK(ran == "default");
    }
}

// Issue 66, finding 7: pico predict --profile said "picks bruck" at np 2 where the exported file holds a default
// block and Open MPI runs its own decision. predict reads exported_rule, which is checked here against what Open
// MPI reads from the written file at every communicator size, below the smallest rule and past a rule's reach.
TEST_CASE("exported_rule is what Open MPI reads from the ompi-rules file at every communicator size") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4.profile.json");
  ProfileRule four;
  for (const ProfileRule& rule : p.rules)
    if (rule.collective == Collective::allgather) four = rule;
  std::erase_if(p.rules, [](const ProfileRule& r) { return r.collective == Collective::allgather; });
  four.comm_size = 4;  // np 1-3 lie below it; the golden's allreduce (4 and 8) and others keep one rank's bytes
  four.ranges[0].algorithm = "bruck";
  ProfileRule big = four;
  big.comm_size = 40;
  p.rules.push_back(four);
  p.rules.push_back(big);
  const RulesFile file(export_profile(p, "p.json", export_format("ompi-rules"), {}).files.front().second);
  int compared = 0, below = 0;
  for (const ProfileRule& of : p.rules) {
    const Collective c = of.collective;
    for (int np = 1; np <= 100; ++np)
      for (std::uint64_t bytes : {0ULL, 8ULL, 1023ULL, 1024ULL, 5000ULL, 65536ULL, 1ULL << 30}) {
        const unsigned __int128 key = static_cast<unsigned __int128>(bytes) * ompi_rule_size_factor(of, np);
        if (key > kMaxLibraryBytes) continue;
        const std::string ran = file.runs(ompi_collective_id(c), np, static_cast<long long>(key));
        const ExportedRule applied = exported_rule(p, c, np);
        const std::string predicted = applied.rule ? applied.rule->range_for(bytes)->algorithm : "default";
        INFO(name(c) << " np " << np << ", " << bytes << " B: the file runs " << ran << ", exported_rule says "
                     << predicted << " " << applied.why);
        CHECK(ran == predicted);
        CHECK(applied.why.empty() == (applied.rule != nullptr));
        ++compared;
        if (c == Collective::allgather && np < 4) {
          ++below;
          CHECK(applied.rule == nullptr);
          CHECK_THAT(applied.why, Catch::Contains("below its smallest rule (np 4)"));
        }
      }
  }
  CHECK(below > 0);
  CHECK(compared > 1000);
}

// The same blocks in han's rules: below allgather's smallest rule han hands the call to tuned, whose default
// block then runs Open MPI's own decision; before, han's first configuration applied the rule for 4 there.
TEST_CASE("ompi-han-rules follows tuned's comm-size blocks below the smallest rule and past a rule's reach") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4-han.profile.json");
  ProfileRule allgather = p.rules.front();
  allgather.collective = Collective::allgather;
  allgather.comm_size = 4;
  allgather.nodes = 2;
  allgather.ppn = 2;
  ProfileRange all;
  all.algorithm = "han";
  allgather.ranges = {all};
  p.rules.push_back(allgather);
  const std::string text = export_profile(p, "p.json", export_format("ompi-han-rules"), {}).files.front().second;
  const std::string of_allgather = text.substr(text.find("# collective allgather"));
  CHECK_THAT(of_allgather, Catch::StartsWith("# collective allgather\n1  # topological levels\n2  # the user's "
                                             "communicator\n3  # configurations\n"
                                             "1 1  # communicator size from 1: no rule tuned for it\n0 tuned\n"
                                             "4 1  # communicator size from 4, message rules\n0 han  # han\n"
                                             "8 1  # communicator size from 8: no rule tuned for it\n0 tuned\n"));
  CHECK(exported_rule(p, Collective::allgather, 3).rule == nullptr);
  CHECK(exported_rule(p, Collective::allgather, 7).rule != nullptr);
  CHECK(exported_rule(p, Collective::allgather, 8).rule == nullptr);
}

namespace {

// What Open MPI 6.0 runs from an ompi-json file, as its reader and lookup do (coll_tuned_dynamic_file.c,
// ompi_coll_tuned_get_com_rule_ptr and ompi_coll_tuned_get_target_method_params in coll_tuned_dynamic_rules.c):
// the first comm-size block whose distribution admits the communicator and whose sizes hold it, then the first
// message rule holding the key; "default" where none does.
std::string json_runs(const nlohmann::json& file, const std::string& coll, int np, int nodes, std::uint64_t key) {
  if (!file["collectives"].contains(coll)) return "default";
  const auto bound = [](const nlohmann::json& v) {
    return v.is_string() ? std::numeric_limits<std::uint64_t>::max() : v.get<std::uint64_t>();
  };
  for (const nlohmann::json& block : file["collectives"][coll]) {
    const std::string distro = block.value("comm_rank_distribution", "any");
    if (distro == "single-node" && nodes != 1) continue;
    if (distro == "one-per-node" && nodes != np) continue;
    if (bound(block["comm_size_min"]) > static_cast<std::uint64_t>(np) ||
        static_cast<std::uint64_t>(np) > bound(block["comm_size_max"]))
      continue;
    for (const nlohmann::json& rule : block["rules"])
      if (bound(rule["msg_size_min"]) <= key && key <= bound(rule["msg_size_max"])) return rule["alg"];
    return "default";
  }
  return "default";
}

}  // namespace

// Open MPI 6.0 keys a block on how the ranks lie across nodes too: ompi-json writes each rule's measured
// placement, and exported_rule (what pico predict, replay and tune --check say runs) must agree with what the
// library reads from the file at every placement, not only at the one measured.
TEST_CASE("ompi-json: each rule for the placement it was measured on, as exported_rule says") {
  const TunedProfile p = load_profile(kExportDir + "openmpi-6.0.0.profile.json");
  const nlohmann::json file =
      nlohmann::json::parse(export_profile(p, "p.json", export_format("ompi-json"), {}).files.front().second);
  std::map<std::string, int> distributions;
  for (const auto& [coll, blocks] : file["collectives"].items())
    for (const nlohmann::json& block : blocks) ++distributions[block["comm_rank_distribution"]];
  CHECK(distributions == std::map<std::string, int>{{"any", 1}, {"one-per-node", 1}, {"single-node", 3}});
  int compared = 0, refused_elsewhere = 0;
  for (const ProfileRule& of : p.rules) {
    const std::string coll = ompi_json_key(of.collective);
    for (int np = 1; np <= 10; ++np)
      for (int nodes : {0, 1, 2, np}) {
        if (nodes > np || (nodes > 0 && np % nodes != 0)) continue;
        const ExportedRule applied = exported_rule(p, of.collective, np, nodes);
        for (std::uint64_t bytes : {0ULL, 8ULL, 1024ULL, 4096ULL, 65536ULL, 1ULL << 20}) {
          const std::string predicted = applied.rule ? applied.rule->range_for(bytes)->algorithm : "default";
          // nodes 0, unknown: pico takes the rule's own placement; the file is read at it.
          const int at = nodes == 0 && np == of.comm_size ? of.nodes : nodes;
          const std::string ran = json_runs(file, coll, np, at, bytes * ompi_rule_size_factor(of, np));
          INFO(coll << " np " << np << " on " << nodes << " nodes, " << bytes << " B: the file runs " << ran
                    << ", exported_rule says " << predicted << " " << applied.why);
          CHECK(ran == predicted);
          ++compared;
        }
        CHECK(applied.why.empty() == (applied.rule != nullptr));
        if (np == of.comm_size && nodes != 0 && nodes != of.nodes && of.nodes * of.ppn == np &&
            measured_distribution(of) != RankDistribution::any) {
          ++refused_elsewhere;
          CHECK(applied.rule == nullptr);
          CHECK_THAT(applied.why, Catch::Contains("comm_rank_distribution"));
        }
      }
  }
  CHECK(refused_elsewhere >= 3);
  CHECK(compared > 300);
}
