// SPDX-License-Identifier: BSD-3-Clause
// The compressed backends' own keys: `inputs` and `bias_calls`, and for the
// CPU one `threads` (the rank's threads for the compression kernels).
#include <cstdint>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "compression/options/options.hpp"
#include "config/backend_options.hpp"
#include "config/yaml_reader.hpp"

namespace pico {
namespace {

using yaml::Map;
using yaml::Value;

const std::vector<std::string> kInputKeys{"distribution", "correlation", "rho", "dof", "seed"};

double parse_number(const Value& v, std::string_view what) {
  const std::string text = v.as_string(what);
  try {
    std::size_t used = 0;
    const double x = std::stod(text, &used);
    if (used == text.size()) return x;
  } catch (const std::exception&) {
  }
  v.fail(fmt::format("{} must be a number, got {}", what, v.describe()));
}

// Sets `out` from m[key] when present; an unknown name is an error listing `names`.
template <class E>
void read_choice(const Map& m, const char* key, std::optional<E> (*parse)(std::string_view),
                 const std::vector<std::string>& names, E& out) {
  const auto v = m.get(key);
  if (!v) return;
  const std::string s = v->as_string(key);
  const auto parsed = parse(s);
  if (!parsed) v->fail(fmt::format("unknown {} '{}'", key, s), yaml::suggest_and_list(s, names, "available"));
  out = *parsed;
}

compressed::InputSpec parse_inputs(const Value& v) {
  compressed::InputSpec spec;
  const Map inputs = v.as_map("inputs", kInputKeys);
  read_choice(inputs, "distribution", compressed::parse_distribution, {"normal", "laplace", "student_t"},
              spec.distribution);
  read_choice(inputs, "correlation", compressed::parse_correlation, {"identical", "correlated", "independent"},
              spec.correlation);
  if (auto r = inputs.get("rho")) {
    spec.rho = parse_number(*r, "rho");
    if (spec.rho < 0 || spec.rho > 1) r->fail("rho must lie in [0, 1]");
  }
  if (auto d = inputs.get("dof")) {
    spec.dof = parse_number(*d, "dof");
    if (spec.dof <= 2) d->fail("dof must exceed 2 (the Student-t variance is finite only then)");
  }
  if (auto s = inputs.get("seed")) spec.seed = static_cast<std::uint64_t>(s->as_int("seed", 0, INT64_MAX));
  return spec;
}

std::map<std::string, std::string> parse_compressed_options(const Map& entry) {
  compressed::Options o;
  if (auto v = entry.get("inputs")) o.inputs = parse_inputs(*v);
  if (auto b = entry.get("bias_calls")) o.bias_calls = static_cast<int>(b->as_int("bias_calls", 1, 100000));
  return compressed::options_to_case(o);
}

std::map<std::string, std::string> parse_cpu_compressed_options(const Map& entry) {
  auto options = parse_compressed_options(entry);
  if (auto t = entry.get("threads")) {
    compressed::Options o = compressed::options_from_case(options);
    o.threads = static_cast<int>(t->as_int("threads", 1, compressed::kMaxKernelThreads));
    options = compressed::options_to_case(o);
  }
  return options;
}

}  // namespace

BackendOptions compressed_backend_options() {
  return {{"inputs", "bias_calls", "threads"}, parse_cpu_compressed_options};
}
BackendOptions gpu_compressed_backend_options() { return {{"inputs", "bias_calls"}, parse_compressed_options}; }

}  // namespace pico
