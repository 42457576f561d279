// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/loggp_model.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/plain_text.hpp"

namespace pico {
namespace {

constexpr const char* kSchema = "pico-model/1";

nlohmann::json error_json(const FitError& e) {
  return {{"points", e.points}, {"median_rel_error", e.median_rel}, {"max_rel_error", e.max_rel}};
}

template <class T>
T field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) throw InputError(where, fmt::format("the model has no '{}'", key), "write it with pico fit");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(where, fmt::format("'{}' has the wrong type", key), "write it with pico fit");
  }
}

// An optional member of the model, `fallback` when absent.
template <class T>
T optional_field(const nlohmann::json& j, const char* key, T fallback, const std::string& where) {
  return j.is_object() && j.contains(key) ? field<T>(j, key, where) : fallback;
}

// A whole number from lo to hi: a fraction is refused rather than truncated,
// and 1e300 rather than cast to -9223372036854775808.
std::int64_t whole_field(const nlohmann::json& j, const char* key, const std::string& where, std::int64_t lo,
                         std::int64_t hi) {
  if (!j.is_object() || !j.contains(key))
    throw InputError(where, fmt::format("the model has no '{}'", key), "write it with pico fit");
  try {
    return json_int(j.at(key), lo, hi);
  } catch (const std::out_of_range& e) {
    throw InputError(where, fmt::format("'{}': {}", key, e.what()), "write it with pico fit");
  }
}

// A LogGOPSim parameter: what LogGOPSim takes (a C int).
std::int64_t parameter(const nlohmann::json& j, const char* key, const std::string& where) {
  return whole_field(j, key, where, 0, kMaxLogGOPSimParameter);
}

// A relative error: a finite, non-negative number.
double error_field(const nlohmann::json& j, const char* key, const std::string& where) {
  const double v = optional_field(j, key, 0.0, where);
  if (!(v >= 0) || !std::isfinite(v))
    throw InputError(where, fmt::format("'{}' = {} is not a relative error (0 or more)", key, v),
                     "write it with pico predict --check --record");
  return v;
}

FitError error_from_json(const nlohmann::json& j, const std::string& where) {
  FitError e;
  if (j.is_object() && j.contains("points")) e.points = static_cast<int>(whole_field(j, "points", where, 0, INT_MAX));
  e.median_rel = error_field(j, "median_rel_error", where);
  e.max_rel = error_field(j, "max_rel_error", where);
  if (e.median_rel > e.max_rel)
    throw InputError(where, fmt::format("the median error {} is above the largest {}", e.median_rel, e.max_rel),
                     "write it with pico predict --check --record");
  return e;
}

}  // namespace

LogGPParams LogGPParams::for_message(std::uint64_t largest_message) const {
  LogGPParams p = *this;
  if (bands.empty()) return p;
  auto band = std::find_if(bands.begin(), bands.end(), [&](const SizeBand& b) { return largest_message <= b.up_to; });
  if (band == bands.end()) band = std::prev(bands.end());
  p.L = band->L;
  p.o = band->o;
  p.G = band->G;
  p.bands.clear();
  return p;
}

nlohmann::json to_json(const LogGPModel& m) {
  const LogGPParams& p = m.params;
  nlohmann::json bands = nlohmann::json::array();
  for (const SizeBand& b : p.bands) bands.push_back({{"up_to", b.up_to}, {"L", b.L}, {"o", b.o}, {"G", b.G}});
  return {{"schema", kSchema},
          {"platform", m.platform},
          {"library", m.library},
          {"scope", m.scope},
          {"source", m.source},
          {"time_unit", "ps"},
          {"L", p.L},
          {"o", p.o},
          {"g", p.g},
          {"G", p.G},
          {"O", p.O},
          {"S", p.S},
          {"reduce_ps_per_byte", p.reduce_ps_per_byte},
          {"exchange_factor", p.exchange_factor},
          {"bands", bands},
          {"fit", {{"p2p", error_json(m.p2p)}, {"collectives", error_json(m.collectives)}}},
          {"held_out",
           {{"report", m.held_out.report},
            {"error", error_json(m.held_out.error)},
            {"ranked_points", m.held_out.ranked},
            {"best_matches", m.held_out.best_matches}}}};
}

std::string accuracy_text(const LogGPModel& m, const std::string& model_path) {
  if (m.held_out.error.points == 0)
    return fmt::format("accuracy: not checked on a run it was not fitted from (pico predict --check OTHER_RUN "
                       "--model {} --record)",
                       model_path.empty() ? "M" : model_path);
  return fmt::format("accuracy: +-{:.1f}% median error (max {:.1f}%), best algorithm right at {} of {} points, "
                     "checked on {} held-out cases of {}",
                     100 * m.held_out.error.median_rel, 100 * m.held_out.error.max_rel, m.held_out.best_matches,
                     m.held_out.ranked, m.held_out.error.points, m.held_out.report);
}

LogGPModel model_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != kSchema)
    throw InputError(where, fmt::format("not a pico model (schema {} expected)", kSchema),
                     "write one with: pico fit REPORT -o model.json");
  LogGPModel m;
  m.platform = optional_field<std::string>(j, "platform", "", where);
  m.library = optional_field<std::string>(j, "library", "", where);
  m.scope = optional_field<std::string>(j, "scope", "unknown", where);
  m.source = optional_field<std::string>(j, "source", "", where);
  // Free text that the simulator exports write (ASTRA-sim's network.yml names the platform in a comment):
  // one line of printable UTF-8 (support/plain_text.hpp), or a line break there would add keys.
  for (const auto& [key, text] : {std::pair<const char*, const std::string&>{"platform", m.platform},
                                  {"library", m.library}, {"scope", m.scope}, {"source", m.source}})
    if (const auto problem = one_line_problem(text))
      throw InputError(where, fmt::format("'{}' {} at byte {}: it must be one line of printable text", key,
                                          problem->what, problem->byte),
                       "write it with pico fit");
  LogGPParams& p = m.params;
  p.L = parameter(j, "L", where);
  p.o = parameter(j, "o", where);
  p.g = parameter(j, "g", where);
  p.G = parameter(j, "G", where);
  p.O = parameter(j, "O", where);
  p.S = parameter(j, "S", where);
  p.reduce_ps_per_byte = field<double>(j, "reduce_ps_per_byte", where);
  if (!(p.reduce_ps_per_byte >= 0) || p.reduce_ps_per_byte > 1e9)
    throw InputError(where, "'reduce_ps_per_byte' must be a non-negative number of ps", "e.g. 250 (4 GB/s)");
  // Both are later additions: a model written before them has neither.
  p.exchange_factor = optional_field(j, "exchange_factor", 1.0, where);
  if (!(p.exchange_factor >= 1) || p.exchange_factor > 100)
    throw InputError(where, fmt::format("'exchange_factor' = {} is outside [1, 100]", p.exchange_factor),
                     "1 charges a same-pair exchange as any message");
  if (j.contains("bands")) {
    const nlohmann::json& bands = j["bands"];
    if (!bands.is_array()) throw InputError(where, "'bands' must be an array", "write it with pico fit");
    for (std::size_t i = 0; i < bands.size(); ++i) {
      const std::string band_where = fmt::format("{}: bands[{}]", where, i);
      // Bytes as the libraries read them (signed 64-bit): -1 read as 2^64-1 before.
      SizeBand b{.up_to = static_cast<std::uint64_t>(whole_field(bands[i], "up_to", band_where, 0, INT64_MAX)),
                 .L = parameter(bands[i], "L", band_where),
                 .o = parameter(bands[i], "o", band_where),
                 .G = parameter(bands[i], "G", band_where)};
      if (!p.bands.empty() && b.up_to <= p.bands.back().up_to)
        throw InputError(band_where, fmt::format("'up_to' {} does not follow {}", b.up_to, p.bands.back().up_to),
                         "list the bands by ascending up_to");
      p.bands.push_back(b);
    }
  }
  if (j.contains("fit") && j["fit"].is_object()) {
    m.p2p = error_from_json(j["fit"].value("p2p", nlohmann::json()), where);
    m.collectives = error_from_json(j["fit"].value("collectives", nlohmann::json()), where);
  }
  if (j.contains("held_out") && j["held_out"].is_object()) {
    const nlohmann::json& h = j["held_out"];
    m.held_out.report = optional_field<std::string>(h, "report", "", where);
    m.held_out.error = error_from_json(h.value("error", nlohmann::json()), where);
    const std::string held = where + ": held_out";
    if (h.contains("ranked_points"))
      m.held_out.ranked = static_cast<int>(whole_field(h, "ranked_points", held, 0, m.held_out.error.points));
    if (h.contains("best_matches"))
      m.held_out.best_matches = static_cast<int>(whole_field(h, "best_matches", held, 0, m.held_out.ranked));
    if (const auto problem = one_line_problem(m.held_out.report))
      throw InputError(where, fmt::format("'held_out/report' {} at byte {}", problem->what, problem->byte),
                       "write it with pico predict --check --record");
  }
  return m;
}

LogGPModel load_model(const std::string& path) {
  return model_from_json(read_json_file(path, "give a file written by pico fit", kMaxSmallJsonFileBytes), path);
}

LogGPModel default_model() {
  LogGPModel m;
  m.platform = "ATLAHS AI parameters";
  m.scope = "unknown";
  m.params = LogGPParams{.L = 3'700'000, .o = 200'000, .g = 5'000, .G = 40, .O = 0, .S = 0,
                         .reduce_ps_per_byte = 250, .exchange_factor = 1, .bands = {}};
  return m;
}

}  // namespace pico
