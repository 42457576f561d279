// SPDX-License-Identifier: BSD-3-Clause
#include "core/host_load.hpp"

#include <algorithm>
#include <cmath>

namespace pico {

double HostLoad::beside(int ranks) const {
  // The kernel's exponential average with a 60 s time constant: over wall_s,
  // after = before * d + (beside + ranks) * (1 - d), d = exp(-wall_s / 60).
  constexpr double kTimeConstantS = 60;
  double others = before;
  if (after && wall_s >= kTimeConstantS) {
    const double d = std::exp(-wall_s / kTimeConstantS);
    others = std::max(others, (*after - before * d) / (1 - d) - ranks);
  }
  return std::max(0.0, others);
}

nlohmann::json to_json(const HostLoad& load) {
  nlohmann::json j = {{"host", load.host}, {"cores", load.cores}, {"before", load.before}, {"wall_s", load.wall_s}};
  j["after"] = load.after ? nlohmann::json(*load.after) : nlohmann::json(nullptr);
  return j;
}

std::optional<HostLoad> host_load_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto number = [&](const char* key) -> std::optional<double> {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
      return std::nullopt;
    return it->get<double>();
  };
  const auto cores = j.find("cores");
  const auto host = j.find("host");
  const auto before = number("before");
  if (cores == j.end() || !cores->is_number_integer() || cores->get<long long>() <= 0 || host == j.end() ||
      !host->is_string() || !before)
    return std::nullopt;
  HostLoad load;
  load.host = host->get<std::string>();
  load.cores = static_cast<int>(std::min<long long>(cores->get<long long>(), 1 << 20));
  load.before = *before;
  load.after = number("after");
  load.wall_s = number("wall_s").value_or(0);
  return load;
}

}  // namespace pico
