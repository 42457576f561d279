// SPDX-License-Identifier: BSD-3-Clause
// The compressed backend's options as the experiment gives them (`inputs:`,
// `bias_calls` and `threads` in its backends entry) and as they travel in a case
// (Case::options, strings): one parser for the front end's validation and
// the worker.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "compression/options/input_spec.hpp"

namespace pico::compressed {

struct Options {
  InputSpec inputs;
  int bias_calls = 16;  // calls averaged for the bias metric
  int threads = 1;      // the rank's threads for the compression kernels (kernel_threads.hpp)
};

// The most threads a rank's compression kernels may use (`threads`).
inline constexpr int kMaxKernelThreads = 64;

std::optional<Distribution> parse_distribution(std::string_view s);
std::optional<Correlation> parse_correlation(std::string_view s);
std::string_view name(Distribution d);
std::string_view name(Correlation c);

// Case::options <-> Options. Missing keys keep their defaults; throws
// std::invalid_argument on a malformed value (the front end validated them).
std::map<std::string, std::string> options_to_case(const Options& o);
Options options_from_case(const std::map<std::string, std::string>& options);
nlohmann::json inputs_to_json(const InputSpec& s);

}  // namespace pico::compressed
