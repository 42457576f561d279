// SPDX-License-Identifier: BSD-3-Clause
#include "config/platform.hpp"

#include "config/data_files.hpp"
#include "config/env_names.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config/yaml_reader.hpp"
#include "core/build_info.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

namespace fs = std::filesystem;
using yaml::Map;
using yaml::Value;

const std::vector<std::string> kPlatformKeys{"name", "description", "scheduler", "slurm", "launcher", "env", "worker", "mpi", "emulated", "tuning",
                                          "placement"};
const std::vector<std::string> kPlacementKeys{"ranks_per_node", "fill"};
const std::vector<std::string> kFills{"node_after_node", "evenly", "cyclic"};
const std::vector<std::string> kTuningKeys{"profile"};
const std::vector<std::string> kMpiKeys{"library", "version"};
const std::vector<std::string> kLauncherKeys{"kind",          "command",       "wrapper", "args", "allow_run_as_root",
                                             "oversubscribe", "cpu_bind",      "max_processes"};
constexpr const char* kEmbeddedLocalName = "<embedded>/platforms/local.yaml";

std::string parse_scheduler(const Value& v) {
  const std::vector<std::string> schedulers{"local", "slurm"};
  return v.as_choice("scheduler", schedulers);
}

std::vector<std::string> parse_args(const Value& v) {
  std::vector<std::string> args;
  for (const auto& item : v.as_list("args")) args.push_back(item.as_string("a launcher argument"));
  return args;
}

MpiSpec parse_mpi(const Value& v) {
  const Map m = v.as_map("mpi", kMpiKeys);
  MpiSpec mpi;
  const std::vector<std::string> libraries{"auto", "openmpi", "mpich"};
  if (auto x = m.get("library")) mpi.library = x->as_choice("mpi library", libraries);
  if (auto x = m.get("version")) mpi.version = x->as_string("mpi version");
  return mpi;
}

// Launcher values are written into a Slurm job script, so they must stay on one line.
std::string one_line(const Value& v, std::string_view what) {
  std::string s = v.as_string(what);
  if (s.find_first_of(std::string("\n\r\0", 3)) != std::string::npos)
    v.fail(fmt::format("{} contains a line break or NUL", what), "write it on one line");
  return s;
}

LauncherSpec parse_launcher(const Value& v, const std::string& scheduler) {
  const Map m = v.as_map("launcher", kLauncherKeys);
  LauncherSpec l;
  if (scheduler == "slurm") {
    l.kind = "srun";  // the default inside an allocation; Open MPI and MPICH both start under srun --mpi=pmix
    l.command = "srun";
    l.args = {"--mpi=pmix"};
  }
  if (auto x = m.get("kind")) {
    const std::vector<std::string> kinds{"mpirun", "srun", "direct"};
    l.kind = x->as_choice("launcher kind", kinds);
    if (l.kind == "srun" && scheduler != "slurm")
      x->fail("launcher kind srun needs a Slurm allocation", "set scheduler: slurm, or use kind: mpirun");
    if (l.kind == "direct" && scheduler == "slurm")
      x->fail("launcher kind direct starts the worker on this host", "use kind: srun inside a Slurm allocation");
    // direct: the worker starts alone (an MPI singleton); `command` is only asked which MPI it is.
    if (!m.has("command")) l.command = l.kind == "direct" ? "mpirun" : l.kind;
    if (!m.has("args")) l.args = l.kind == "srun" ? std::vector<std::string>{"--mpi=pmix"} : std::vector<std::string>{};
  }
  if (auto x = m.get("command")) l.command = one_line(*x, "launcher command");
  if (l.command.empty()) m.require("command").fail("launcher command must not be empty");
  if (auto x = m.get("args")) {
    l.args.clear();
    for (const auto& item : x->as_list("args")) l.args.push_back(one_line(item, "a launcher argument"));
  }
  if (auto x = m.get("cpu_bind")) {
    const std::vector<std::string> bindings{"none", "cores", "threads", "sockets"};
    l.cpu_bind = x->as_choice("launcher cpu_bind", bindings);
  }
  if (auto x = m.get("wrapper")) l.wrapper = parse_args(*x);
  if (auto x = m.get("allow_run_as_root")) l.allow_run_as_root = x->as_bool("allow_run_as_root");
  if (auto x = m.get("oversubscribe")) l.oversubscribe = x->as_bool("oversubscribe");
  if (auto x = m.get("max_processes")) {
    // Under Slurm the allocation bounds a launch; a second bound there would only disagree with it.
    if (scheduler == "slurm") x->fail("max_processes bounds launches on this host", "under Slurm, size the allocation instead");
    l.max_processes = static_cast<int>(x->as_int("max_processes", 1, INT_MAX));
  }
  return l;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || s.ends_with(".yaml") || s.ends_with(".yml");
}

}  // namespace

const std::vector<std::string>& platform_keys() { return kPlatformKeys; }
const std::vector<std::string>& launcher_keys() { return kLauncherKeys; }
const std::vector<std::string>& platform_mpi_keys() { return kMpiKeys; }

Platform parse_platform(const std::string& yaml_text, const std::string& file_for_messages) {
  const Value doc = Value::parse_document(yaml_text, file_for_messages);
  const Map top = doc.as_map("the platform", kPlatformKeys);
  Platform p;
  // The name is the directory under -o that holds this platform's runs.
  p.name = top.require("name").as_path_component("platform name");
  if (auto v = top.get("description")) p.description = v->as_string("description");
  if (auto v = top.get("scheduler")) p.scheduler = parse_scheduler(*v);
  if (auto v = top.get("slurm")) {
    if (p.scheduler != "slurm") top.key("slurm")->fail("a slurm map needs scheduler: slurm", "add scheduler: slurm, or remove the slurm map");
    p.slurm = parse_slurm(*v);
  } else if (p.scheduler == "slurm") {
    p.slurm.file = file_for_messages;
  }
  if (auto v = top.get("launcher")) {
    p.launcher = parse_launcher(*v, p.scheduler);
  } else if (p.scheduler == "slurm") {
    p.launcher = parse_launcher(Value::parse_document("{}", file_for_messages), p.scheduler);
  }
  if (auto v = top.get("env")) p.env = parse_env_map(*v, "env");
  if (auto v = top.get("worker")) p.worker = v->as_nonempty_string("worker");
  if (auto v = top.get("mpi")) p.mpi = parse_mpi(*v);
  if (auto v = top.get("emulated")) p.emulated = v->as_nonempty_string("emulated (the emulated cluster's description file)");
  if (auto v = top.get("placement")) {
    const Map m = v->as_map("placement", kPlacementKeys);
    RankPlacement placement;
    placement.ranks_per_node = static_cast<int>(m.require("ranks_per_node").as_int("ranks_per_node", 1, 1 << 20));
    if (auto fill = m.get("fill")) {
      const std::string chosen = fill->as_choice("fill", kFills);
      placement.fill = chosen == "evenly"   ? RankPlacement::Fill::evenly
                       : chosen == "cyclic" ? RankPlacement::Fill::cyclic
                                            : RankPlacement::Fill::node_after_node;
    }
    placement.source = "the platform's placement (" + file_for_messages + ")";
    p.placement = placement;
  }
  if (auto v = top.get("tuning")) {
    const Map tuning = v->as_map("tuning", kTuningKeys);
    // Relative to the platform file, so the platform and its profile travel together.
    fs::path profile = tuning.require("profile").as_nonempty_string("tuning profile");
    if (profile.is_relative() && file_for_messages.find('/') != std::string::npos)
      profile = fs::path(file_for_messages).parent_path() / profile;
    p.tuning_profile = profile.string();
  }
  p.source_path = file_for_messages;
  p.source_text = yaml_text;
  return p;
}

Platform load_platform(const std::string& path) {
  return parse_platform(read_config_file(path, "the platform file", "check the path, or give a platform name such as 'local'"), path);
}

std::vector<KnownPlatform> known_platforms() {
  for (const auto& dir : data_file_candidates("platforms")) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<KnownPlatform> found;
    for (const auto& f : fs::directory_iterator(dir, ec))
      if (f.path().extension() == ".yaml") found.push_back({f.path().stem().string(), f.path().string()});
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return found;
  }
  return {};
}

Platform resolve_platform(const std::string& name_or_path) {
  if (name_or_path.empty()) throw InputError("<platform>", 0, 0, "empty platform name", "try 'local'");
  if (looks_like_path(name_or_path)) return load_platform(name_or_path);
  const auto files = data_file_candidates(fs::path("platforms") / (name_or_path + ".yaml"));
  for (const auto& f : files) {
    std::error_code ec;
    if (fs::is_regular_file(f, ec)) return load_platform(f.string());
  }
  // An installed pico may have neither tree around; it still runs locally.
  if (name_or_path == "local") return parse_platform(std::string(build::embedded_local_platform), kEmbeddedLocalName);
  std::vector<std::string> tried;
  for (const auto& f : files) tried.push_back(f.string());
  // A typo ("local-mpi") is nearer a known name than the paths tried say.
  std::vector<std::string> names{"local"};
  for (const KnownPlatform& p : known_platforms())
    if (p.name != "local") names.push_back(p.name);
  const auto near = yaml::closest(name_or_path, names);
  throw InputError(name_or_path, 0, 0, fmt::format("unknown platform '{}'", name_or_path),
                    fmt::format("{}`pico list platforms` names them; looked for {}; or give a path to a platform file",
                                near ? fmt::format("did you mean '{}'? ", *near) : std::string(), yaml::join(tried)));
}

}  // namespace pico
