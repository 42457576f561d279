// SPDX-License-Identifier: BSD-3-Clause
#include "core/format_args.hpp"

namespace pico {

std::string FormatArgs::text(std::string_view name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::string() : it->second;
}

std::optional<long long> FormatArgs::integer(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::stoll(it->second);
}

std::optional<double> FormatArgs::number(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::stod(it->second);
}

}  // namespace pico
