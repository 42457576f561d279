// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/profile.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "support/checked_math.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/plain_text.hpp"

namespace pico {
namespace {

using nlohmann::json;

constexpr const char* kHint = "pico reads the profiles `pico tune` writes (docs/tuning.md#the-profile)";

// The values each parameter an export carries may take: Open MPI's segment
// size and fan-outs are C ints of its MCA variables (0: the library's own
// choice), coll/han 4.1's module of a level is 0 or 1 (up: libnbc, adapt;
// low: tuned, sm), NCCL's channel count is 1 to MAXCHANNELS (64). A value
// outside these would be written as given (-1, or 1e300 cast to a negative long).
struct ParameterBounds {
  const char* name;
  double lo, hi;
};
constexpr ParameterBounds kParameterBounds[] = {{"segment_size", 0, 2147483647},
                                                {"chain_fanout", 0, 2147483647},
                                                {"tree_fanout", 0, 2147483647},
                                                {"up_module", 0, 1},
                                                {"low_module", 0, 1},
                                                {"channels", 1, 64}};

json range_json(const ProfileRange& r) {
  json j = {{"min_bytes", r.min_bytes},
            {"max_bytes", r.max_bytes ? json(*r.max_bytes) : json(nullptr)},
            {"algorithm", r.algorithm},
            {"params", r.params},
            {"measured_bytes", r.measured_bytes}};
  j["speedup"] = r.speedup ? json{{"estimate", r.speedup->estimate}, {"low", r.speedup->low}, {"high", r.speedup->high}}
                           : json(nullptr);
  j["near_fastest"] = r.near_fastest ? json(*r.near_fastest) : json(nullptr);
  j["undecided_bytes"] = r.undecided_bytes;
  json evidence = json::array();
  for (const auto& e : r.evidence)
    evidence.push_back({{"report", e.report},
                        {"case_id", e.case_id},
                        {"bytes", e.bytes},
                        {"seconds", e.seconds},
                        {"default_seconds", e.default_seconds}});
  j["evidence"] = std::move(evidence);
  json ran = json::array();
  for (const DefaultRan& d : r.default_ran) ran.push_back({{"bytes", d.bytes}, {"algorithm", d.algorithm}});
  j["default_ran"] = std::move(ran);
  return j;
}

// Reads members with errors that name the JSON path of what is wrong.
class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(where_, fmt::format("{}: {}", path.empty() ? "profile" : path, what), kHint);
  }

  const json& member(const json& j, const std::string& path, const char* key) const {
    const auto it = j.find(key);
    if (it == j.end()) fail(path, fmt::format("no \"{}\" member", key));
    return *it;
  }
  // Every string of a profile is one line of printable UTF-8 (support/plain_text.hpp): the exports write
  // the platform and version into comments, and a line break there would start a rule.
  std::string string(const json& j, const std::string& path, const char* key) const {
    const json& v = member(j, path, key);
    return text(v, join(path, key));
  }
  // Calls each(object, its path) for every element of the optional array
  // j[key], each an object; `shape` (e.g. "{bytes, algorithm}") names what
  // an element holds in the errors.
  template <class Each>
  void objects(const json& j, const std::string& path, const char* key, const std::string& shape, Each&& each) const {
    const auto it = j.find(key);
    if (it == j.end()) return;
    const std::string at = join(path, key);
    if (!it->is_array()) fail(at, shape.empty() ? "must be an array" : "must be an array of " + shape);
    for (std::size_t k = 0; k < it->size(); ++k) {
      const std::string ep = fmt::format("{}/{}", at, k);
      if (!(*it)[k].is_object()) fail(ep, shape.empty() ? "must be an object" : "must be an object " + shape);
      each((*it)[k], ep);
    }
  }
  std::string text(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must be a string");
    std::string s = v.get<std::string>();
    if (const auto problem = one_line_problem(s))
      fail(path, fmt::format("{} at byte {}: it must be one line of printable text", problem->what, problem->byte));
    return s;
  }
  // An optional member: "" when absent.
  std::string optional_string(const json& j, const std::string& path, const char* key) const {
    return j.contains(key) ? string(j, path, key) : std::string();
  }
  // An optional array of texts (`what` says what they are); empty when absent.
  std::vector<std::string> optional_texts(const json& j, const char* key, const char* what) const {
    std::vector<std::string> out;
    const auto it = j.find(key);
    if (it == j.end()) return out;
    if (!it->is_array()) fail(key, fmt::format("must be an array of {}", what));
    for (std::size_t k = 0; k < it->size(); ++k) out.push_back(text((*it)[k], fmt::format("{}/{}", key, k)));
    return out;
  }
  double number(const json& j, const std::string& path, const char* key) const {
    const json& v = member(j, path, key);
    if (!v.is_number()) fail(join(path, key), "must be a number");
    return v.get<double>();
  }
  // Below 2^63: what the libraries' readers take (Open MPI's %li, JSON int64), and room for max + 1.
  std::uint64_t size(const json& v, const std::string& path) const {
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
        v.get<std::uint64_t>() > kMaxProfileBytes)
      fail(path, "must be a whole number of bytes from 0 to 2^63-1");
    return v.get<std::uint64_t>();
  }
  int count(const json& j, const std::string& path, const char* key) const {
    const json& v = member(j, path, key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > (1 << 30))
      fail(join(path, key), "must be a whole number from 0 to 2^30");
    return v.get<int>();
  }
  const json& array(const json& j, const std::string& path, const char* key) const {
    const json& v = member(j, path, key);
    if (!v.is_array()) fail(join(path, key), "must be an array");
    return v;
  }
  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "/" + key;
  }

 private:
  std::string where_;
};

void check_parameters(const Reader& in, const std::map<std::string, double>& params, const std::string& path) {
  for (const auto& [key, value] : params) {
    if (const auto problem = one_line_problem(key)) in.fail(path, fmt::format("a parameter name {}", problem->what));
    for (const ParameterBounds& b : kParameterBounds)
      if (key == b.name && !(value >= b.lo && value <= b.hi && value == std::floor(value)))
        in.fail(path + "/" + key, fmt::format("is {}: it must be a whole number from {} to {}", value, b.lo, b.hi));
  }
}

// "4.1.4", "2.28.9", "2021.10", "5.0.0rc12": an export checks algorithm ids
// against it, so a profile without one would pass every version check.
bool is_version(const std::string& v) {
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v.front()))) return false;
  for (const char ch : v)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && std::string_view(".-+~_").find(ch) == std::string_view::npos)
      return false;
  return true;
}

ProfileRange range_from_json(const Reader& in, const json& j, const std::string& path) {
  if (!j.is_object()) in.fail(path, "must be an object");
  ProfileRange r;
  r.min_bytes = in.size(in.member(j, path, "min_bytes"), path + "/min_bytes");
  if (const json& max = in.member(j, path, "max_bytes"); !max.is_null()) r.max_bytes = in.size(max, path + "/max_bytes");
  r.algorithm = in.string(j, path, "algorithm");
  if (r.algorithm.empty()) in.fail(path + "/algorithm", "must name an algorithm (or \"default\")");
  if (const auto it = j.find("params"); it != j.end()) {
    if (!it->is_object()) in.fail(path + "/params", "must be an object of numbers");
    for (const auto& [key, value] : it->items()) {
      if (!value.is_number()) in.fail(path + "/params/" + key, "must be a number");
      r.params[key] = value.get<double>();
    }
    check_parameters(in, r.params, path + "/params");
  }
  if (const auto it = j.find("measured_bytes"); it != j.end()) {
    if (!it->is_array()) in.fail(path + "/measured_bytes", "must be an array of sizes");
    for (std::size_t k = 0; k < it->size(); ++k)
      r.measured_bytes.push_back(in.size((*it)[k], fmt::format("{}/measured_bytes/{}", path, k)));
  }
  if (const auto it = j.find("near_fastest"); it != j.end() && !it->is_null()) {
    r.near_fastest = in.number(j, path, "near_fastest");
    if (!(*r.near_fastest >= 0 && *r.near_fastest <= 1)) in.fail(path + "/near_fastest", "must be a probability from 0 to 1");
  }
  if (const auto it = j.find("undecided_bytes"); it != j.end()) {
    if (!it->is_array()) in.fail(path + "/undecided_bytes", "must be an array of sizes");
    for (std::size_t k = 0; k < it->size(); ++k)
      r.undecided_bytes.push_back(in.size((*it)[k], fmt::format("{}/undecided_bytes/{}", path, k)));
  }
  if (const auto it = j.find("speedup"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) in.fail(path + "/speedup", "must be an object {estimate, low, high} or null");
    const std::string sp = path + "/speedup";
    r.speedup = SpeedupInterval{in.number(*it, sp, "estimate"), in.number(*it, sp, "low"), in.number(*it, sp, "high")};
  }
  in.objects(j, path, "evidence", "", [&](const json& e, const std::string& ep) {
    r.evidence.push_back({in.string(e, ep, "report"), in.string(e, ep, "case_id"),
                          in.size(in.member(e, ep, "bytes"), ep + "/bytes"), in.number(e, ep, "seconds"),
                          in.number(e, ep, "default_seconds")});
  });
  in.objects(j, path, "default_ran", "{bytes, algorithm}", [&](const json& d, const std::string& dp) {
    DefaultRan ran{in.size(in.member(d, dp, "bytes"), dp + "/bytes"), in.string(d, dp, "algorithm")};
    if (ran.algorithm.empty() || ran.algorithm == "default")
      in.fail(dp + "/algorithm", "must name the algorithm the library's default ran");
    if (!r.covers(ran.bytes)) in.fail(dp + "/bytes", "must lie in the range");
    if (!r.default_ran.empty() && ran.bytes <= r.default_ran.back().bytes)
      in.fail(dp + "/bytes", "must be above the size before it");
    r.default_ran.push_back(std::move(ran));
  });
  return r;
}

ProfileRule rule_from_json(const Reader& in, const json& j, const std::string& path) {
  if (!j.is_object()) in.fail(path, "must be an object");
  ProfileRule rule;
  const std::string collective = in.string(j, path, "collective");
  const auto c = parse_collective(collective);
  if (!c) in.fail(path + "/collective", fmt::format("unknown collective '{}'", collective));
  rule.collective = *c;
  rule.comm_size = in.count(j, path, "comm_size");
  rule.nodes = in.count(j, path, "nodes");
  rule.ppn = in.count(j, path, "ppn");
  const json& ranges = in.array(j, path, "ranges");
  for (std::size_t k = 0; k < ranges.size(); ++k)
    rule.ranges.push_back(range_from_json(in, ranges[k], fmt::format("{}/ranges/{}", path, k)));
  if (j.contains("predicted_from")) {
    const json& from = in.array(j, path, "predicted_from");
    for (std::size_t k = 0; k < from.size(); ++k) {
      const std::string at = fmt::format("{}/predicted_from/{}", path, k);
      if (!from[k].is_number_integer() || from[k].get<std::int64_t>() < 1 || from[k].get<std::int64_t>() > (1 << 30))
        in.fail(at, "must be a measured communicator size, a whole number from 1 to 2^30");
      rule.predicted_from.push_back(from[k].get<int>());
    }
  }
  return rule;
}

}  // namespace

std::uint64_t range_boundary(std::uint64_t lower, std::uint64_t upper) {
  const double mid = std::ceil(std::sqrt(static_cast<double>(lower) * static_cast<double>(upper)));
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(mid), lower + 1, upper);
}

std::string ProfileRange::default_ran_at(std::uint64_t bytes) const {
  if (default_ran.empty()) return "";
  std::size_t k = 0;
  while (k + 1 < default_ran.size() && bytes >= range_boundary(default_ran[k].bytes, default_ran[k + 1].bytes)) ++k;
  return default_ran[k].algorithm;
}

std::string ProfileRange::algorithm_at(std::uint64_t bytes) const {
  if (algorithm != "default" || default_ran.empty()) return algorithm;
  return default_ran_at(bytes);
}

std::string ProfileRange::choice_at(std::uint64_t bytes) const {
  const std::string ran = algorithm_at(bytes);
  return algorithm == "default" && ran != "default" ? fmt::format("default (ran {})", ran) : ran;
}

std::vector<ProfileRange::Span> ProfileRange::spans() const {
  std::vector<Span> out{{min_bytes, max_bytes, algorithm_at(min_bytes)}};
  if (algorithm != "default") return out;
  for (std::size_t k = 1; k < default_ran.size(); ++k) {
    if (default_ran[k].algorithm == out.back().algorithm) continue;
    const std::uint64_t from = range_boundary(default_ran[k - 1].bytes, default_ran[k].bytes);
    out.back().max_bytes = from - 1;
    out.push_back({from, max_bytes, default_ran[k].algorithm});
  }
  return out;
}

const ProfileRange* ProfileRule::range_for(std::uint64_t bytes) const {
  for (const auto& range : ranges)
    if (range.covers(bytes)) return &range;
  return nullptr;  // not for a checked profile: its ranges cover every size
}

const ProfileRule* TunedProfile::rule_for(Collective collective, int comm_size, int nodes) const {
  // The communicator size whose rules apply: the largest <= comm_size, else the smallest.
  std::optional<int> applies, smallest;
  for (const auto& rule : rules) {
    if (rule.collective != collective) continue;
    if (!smallest || rule.comm_size < *smallest) smallest = rule.comm_size;
    if (rule.comm_size <= comm_size && (!applies || rule.comm_size > *applies)) applies = rule.comm_size;
  }
  if (!applies) applies = smallest;
  if (!applies) return nullptr;
  const ProfileRule* chosen = nullptr;
  for (const auto& rule : rules) {
    if (rule.collective != collective || rule.comm_size != *applies) continue;
    if (chosen == nullptr || (nodes != 0 && rule.nodes == nodes && chosen->nodes != nodes)) chosen = &rule;
  }
  return chosen;
}

const ProfileRange* TunedProfile::choose(Collective collective, int comm_size, std::uint64_t bytes, int nodes) const {
  const ProfileRule* rule = rule_for(collective, comm_size, nodes);
  return rule != nullptr ? rule->range_for(bytes) : nullptr;
}

json to_json(const TunedProfile& p) {
  json rules = json::array();
  for (const auto& rule : p.rules) {
    json ranges = json::array();
    for (const auto& r : rule.ranges) ranges.push_back(range_json(r));
    json r = {{"collective", std::string(name(rule.collective))},
              {"comm_size", rule.comm_size},
              {"nodes", rule.nodes},
              {"ppn", rule.ppn},
              {"ranges", std::move(ranges)}};
    if (!rule.predicted_from.empty()) r["predicted_from"] = rule.predicted_from;
    rules.push_back(std::move(r));
  }
  return {{"schema", kProfileSchema},
          {"library", {{"backend", p.library.backend}, {"name", p.library.name}, {"version", p.library.version}}},
          {"platform", p.platform},
          {"objective", p.objective},
          {"min_gain", p.min_gain},
          {"confidence", p.confidence},
          {"decide_from", p.decide_from},
          {"test", p.test},
          {"reports", p.reports},
          {"warnings", p.warnings},
          {"created", p.created},
          {"pico_version", p.pico_version},
          {"rules", std::move(rules)}};
}

TunedProfile profile_from_json(const json& j, const std::string& where) {
  const Reader in(where);
  if (!j.is_object()) in.fail("", "not a pico profile: the JSON is not an object");
  const auto schema = j.find("schema");
  if (schema == j.end() || !schema->is_string()) in.fail("", "not a pico profile: no \"schema\" member");
  if (*schema != kProfileSchema)
    throw InputError(where, fmt::format("a profile of schema '{}', not {}", schema->get<std::string>(), kProfileSchema),
                     "run `pico tune` of this pico version on the reports again");
  TunedProfile p;
  const json& library = in.member(j, "", "library");
  if (!library.is_object()) in.fail("library", "must be an object {backend, name, version}");
  p.library = {in.string(library, "library", "backend"), in.string(library, "library", "name"),
               in.string(library, "library", "version")};
  p.platform = in.string(j, "", "platform");
  p.objective = in.string(j, "", "objective");
  p.min_gain = in.number(j, "", "min_gain");
  p.confidence = j.contains("confidence") ? in.number(j, "", "confidence") : p.confidence;
  p.decide_from = j.contains("decide_from") ? in.number(j, "", "decide_from") : p.decide_from;
  p.test = in.optional_string(j, "", "test");
  p.created = in.optional_string(j, "", "created");
  p.pico_version = in.optional_string(j, "", "pico_version");
  p.reports = in.optional_texts(j, "reports", "run ids");
  p.warnings = in.optional_texts(j, "warnings", "texts");
  const json& rules = in.array(j, "", "rules");
  for (std::size_t k = 0; k < rules.size(); ++k)
    p.rules.push_back(rule_from_json(in, rules[k], fmt::format("rules/{}", k)));
  check_profile(p, where);
  return p;
}

TunedProfile load_profile(const std::filesystem::path& path, std::string* text) {
  JsonFileText file = read_json_file_text(path, "give a profile that `pico tune` wrote", kMaxSmallJsonFileBytes);
  TunedProfile profile = profile_from_json(file.json, path.string());
  if (text) *text = std::move(file.text);
  return profile;
}

void check_profile(const TunedProfile& p, const std::string& where) {
  const Reader in(where);
  if (p.library.backend.empty() || p.library.name.empty()) in.fail("library", "names no backend or library");
  if (!is_version(p.library.version))
    in.fail("library/version", fmt::format("'{}' is not a library version: a profile names the version it was tuned on "
                                           "(e.g. 4.1.4), since algorithm ids and names differ between versions",
                                           p.library.version));
  if (p.objective != "median" && p.objective != "p95") in.fail("objective", "must be median or p95");
  if (!(p.min_gain >= 0 && p.min_gain < 10)) in.fail("min_gain", "must be a fraction from 0 (e.g. 0.05 for 5%)");
  if (!(p.confidence > 0 && p.confidence < 1)) in.fail("confidence", "must be between 0 and 1 (e.g. 0.95)");
  if (!(p.decide_from >= 0 && p.decide_from <= 1)) in.fail("decide_from", "must be between 0 and 1 (e.g. 0.9)");
  std::set<std::tuple<Collective, int, int, int>> seen;
  for (std::size_t k = 0; k < p.rules.size(); ++k) {
    const ProfileRule& rule = p.rules[k];
    const std::string path = fmt::format("rules/{}", k);
    if (rule.comm_size < 1) in.fail(path + "/comm_size", "must be at least 1");
    if (!seen.insert({rule.collective, rule.comm_size, rule.nodes, rule.ppn}).second)
      in.fail(path, fmt::format("a second rule for {} on {} ranks ({} nodes x {} ppn)", name(rule.collective),
                                rule.comm_size, rule.nodes, rule.ppn));
    if (rule.ranges.empty()) in.fail(path + "/ranges", "is empty: a rule must cover every message size");
    for (std::size_t r = 0; r < rule.ranges.size(); ++r) {
      const ProfileRange& range = rule.ranges[r];
      const std::string rp = fmt::format("{}/ranges/{}", path, r);
      if (r == 0 && range.min_bytes != 0)
        in.fail(rp + "/min_bytes", "the first range must start at 0 (libraries ignore rule sets that do not)");
      if (range.max_bytes && *range.max_bytes < range.min_bytes) in.fail(rp, "max_bytes is below min_bytes");
      if (range.min_bytes > kMaxProfileBytes || (range.max_bytes && *range.max_bytes > kMaxProfileBytes))
        in.fail(rp, "sizes must be below 2^63");
      check_parameters(in, range.params, rp + "/params");
      const bool last = r + 1 == rule.ranges.size();
      if (last && range.max_bytes) in.fail(rp + "/max_bytes", "the last range must be unbounded (null)");
      if (!last && !range.max_bytes) in.fail(rp + "/max_bytes", "only the last range may be unbounded");
      const std::optional<std::uint64_t> next = range.max_bytes ? checked_add(*range.max_bytes, 1) : std::nullopt;
      if (!last && (!next || rule.ranges[r + 1].min_bytes != *next))
        in.fail(fmt::format("{}/ranges/{}/min_bytes", path, r + 1),
                fmt::format("must be {} (the previous range ends at {}): ranges must be contiguous",
                            next ? fmt::format("{}", *next) : std::string("2^64"), *range.max_bytes));
      if (range.speedup && !(range.speedup->low <= range.speedup->estimate && range.speedup->estimate <= range.speedup->high))
        in.fail(rp + "/speedup", "must have low <= estimate <= high");
    }
  }
}

}  // namespace pico
