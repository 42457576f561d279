// SPDX-License-Identifier: BSD-3-Clause
#include "compression/options/options.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace pico::compressed {
namespace {

constexpr std::pair<Distribution, std::string_view> kDistributions[] = {
    {Distribution::normal, "normal"}, {Distribution::laplace, "laplace"}, {Distribution::student_t, "student_t"}};
constexpr std::pair<Correlation, std::string_view> kCorrelations[] = {{Correlation::identical, "identical"},
                                                                      {Correlation::correlated, "correlated"},
                                                                      {Correlation::independent, "independent"}};

template <class E, std::size_t N>
std::optional<E> parse_named(const std::pair<E, std::string_view> (&table)[N], std::string_view s) {
  for (const auto& [value, text] : table)
    if (text == s) return value;
  return std::nullopt;
}
template <class E, std::size_t N>
std::string_view name_of(const std::pair<E, std::string_view> (&table)[N], E e) {
  for (const auto& [value, text] : table)
    if (value == e) return text;
  return "?";
}

double number(const std::map<std::string, std::string>& o, const char* key, double fallback) {
  const auto it = o.find(key);
  if (it == o.end()) return fallback;
  try {
    return std::stod(it->second);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("option {}: '{}' is not a number", key, it->second));
  }
}

}  // namespace

std::optional<Distribution> parse_distribution(std::string_view s) { return parse_named(kDistributions, s); }
std::optional<Correlation> parse_correlation(std::string_view s) { return parse_named(kCorrelations, s); }
std::string_view name(Distribution d) { return name_of(kDistributions, d); }
std::string_view name(Correlation c) { return name_of(kCorrelations, c); }

std::map<std::string, std::string> options_to_case(const Options& o) {
  std::map<std::string, std::string> options{{"distribution", std::string(name(o.inputs.distribution))},
                                             {"correlation", std::string(name(o.inputs.correlation))},
                                             {"rho", fmt::format("{}", o.inputs.rho)},
                                             {"dof", fmt::format("{}", o.inputs.dof)},
                                             {"seed", fmt::format("{}", o.inputs.seed)},
                                             {"bias_calls", fmt::format("{}", o.bias_calls)}};
  // Only when asked, so that a case's id (a hash of its options) is what it was before threads existed.
  if (o.threads != 1) options["threads"] = fmt::format("{}", o.threads);
  return options;
}

Options options_from_case(const std::map<std::string, std::string>& options) {
  Options o;
  if (auto it = options.find("distribution"); it != options.end()) {
    const auto d = parse_distribution(it->second);
    if (!d) throw std::invalid_argument("unknown distribution '" + it->second + "'");
    o.inputs.distribution = *d;
  }
  if (auto it = options.find("correlation"); it != options.end()) {
    const auto c = parse_correlation(it->second);
    if (!c) throw std::invalid_argument("unknown correlation '" + it->second + "'");
    o.inputs.correlation = *c;
  }
  o.inputs.rho = number(options, "rho", o.inputs.rho);
  o.inputs.dof = number(options, "dof", o.inputs.dof);
  o.inputs.seed = static_cast<std::uint64_t>(number(options, "seed", static_cast<double>(o.inputs.seed)));
  o.bias_calls = static_cast<int>(number(options, "bias_calls", o.bias_calls));
  o.threads = static_cast<int>(number(options, "threads", o.threads));
  return o;
}

nlohmann::json inputs_to_json(const InputSpec& s) {
  nlohmann::json j = {{"distribution", name(s.distribution)}, {"correlation", name(s.correlation)}, {"seed", s.seed}};
  if (s.correlation == Correlation::correlated) j["rho"] = s.rho;
  if (s.distribution == Distribution::student_t) j["dof"] = s.dof;
  return j;
}

}  // namespace pico::compressed
