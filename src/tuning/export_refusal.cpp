// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/export_refusal.hpp"

#include <fmt/format.h>

namespace pico {

ExportRefusal::ExportRefusal(std::string message, std::string h)
    : std::runtime_error(std::move(message)), hint(std::move(h)) {}

std::string describe(const ProfileRule& rule) {
  return fmt::format("{} np {} ({}x{})", name(rule.collective), rule.comm_size, rule.nodes, rule.ppn);
}

}  // namespace pico
