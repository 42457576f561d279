// SPDX-License-Identifier: BSD-3-Clause
#include "core/case.hpp"

#include <climits>
#include <cmath>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "support/hash.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"

namespace pico {

std::string param_text(double value) {
  if (std::nearbyint(value) == value && std::abs(value) < 9.0e15) return fmt::format("{}", static_cast<std::int64_t>(value));
  return fmt::format("{}", value);
}

std::string candidate_label(const std::string& algorithm, const std::map<std::string, double>& params) {
  std::string label = algorithm;
  for (const auto& [p, v] : params) label += fmt::format(" {}={}", p, param_text(v));
  return label;
}

std::string choice_id(const Case& c, bool with_backend) {
  Case k = c;
  if (!with_backend) k.backend.clear();
  k.algorithm.clear();
  k.params.clear();
  k.selection = {};
  k.case_id.clear();
  k.index = 0;
  return compute_case_id(k);
}

nlohmann::json params_to_json(const std::map<std::string, double>& params) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : params) {
    if (std::nearbyint(v) == v && std::abs(v) < 9.0e15)
      out[k] = static_cast<std::int64_t>(v);
    else
      out[k] = v;
  }
  return out;
}

std::string_view name(CallForm f) {
  switch (f) {
    case CallForm::blocking: return "blocking";
    case CallForm::nonblocking: return "nonblocking";
    case CallForm::persistent: return "persistent";
  }
  return "blocking";
}

std::optional<CallForm> parse_call_form(std::string_view s) {
  for (CallForm f : kCallForms)
    if (name(f) == s) return f;
  return std::nullopt;
}

CallForm call_form(const Case& c) { return call_form(c.options); }

CallForm call_form(const std::map<std::string, std::string>& options) {
  const auto it = options.find(kCall);
  return it == options.end() ? CallForm::blocking : parse_call_form(it->second).value_or(CallForm::blocking);
}

int ranks_per_process(const Case& c) {
  const auto it = c.options.find(kGpusPerProcess);
  return it == c.options.end() ? 1 : std::stoi(it->second);
}

std::string compute_case_id(const Case& c) {
  std::string canonical = fmt::format(
      "backend={};collective={};algorithm={};dtype={};op={};count={};np={};in_place={};mode={};root={};",
      c.backend, name(c.collective), c.algorithm, name(c.dtype), name(c.op), c.count, c.np,
      c.in_place ? 1 : 0, name(c.mode), c.root);
  // Appended only when present, so cases without parameters keep their ids.
  if (!c.params.empty()) {
    canonical += "params=";
    for (const auto& [k, v] : c.params) canonical += fmt::format("{}:{},", k, param_text(v));
    canonical += ";";
  }
  if (!c.options.empty()) {
    canonical += "options=";
    for (const auto& [k, v] : c.options) canonical += fmt::format("{}:{},", k, v);
    canonical += ";";
  }
  return fmt::format("{:016x}", fnv1a64(std::as_bytes(std::span(canonical))));
}

std::string run_key(const Case& c) {
  return c.repetition == 0 ? c.case_id : fmt::format("{}/{}", c.case_id, c.repetition);
}

nlohmann::json case_to_json(const Case& c) {
  nlohmann::json j = {
      {"case_id", c.case_id},
      {"index", c.index},
      {"backend", c.backend},
      {"collective", name(c.collective)},
      {"algorithm", c.algorithm},
      {"dtype", name(c.dtype)},
      {"op", name(c.op)},
      {"count", c.count},
      {"bytes", c.bytes},
      {"np", c.np},
      {"in_place", c.in_place},
      {"mode", name(c.mode)},
      {"root", c.root},
      {"params", params_to_json(c.params)},
      {"selection",
       {{"mechanism", c.selection.mechanism},
        {"variable", c.selection.variable},
        {"value", c.selection.value},
        {"readback", c.selection.readback},
        {"parameters", c.selection.parameters},
        {"fallback", c.selection.fallback},
        {"verify", c.selection.verify}}},
  };
  // Only where it is not the default, as repetition: records of other libraries stay as they were.
  if (c.selection.takes_effect != Selection{}.takes_effect) j["selection"]["takes_effect"] = c.selection.takes_effect;
  if (!c.options.empty()) j["options"] = c.options;
  if (c.repetition != 0) j["repetition"] = c.repetition;
  return j;
}

Case case_from_json(const nlohmann::json& j) {
  try {
    Case c;
    c.case_id = json_field<std::string>(j, "case_id");
    c.index = json_field_or(j, "index", 0);  // position in the plan: absent from hand-made records
    c.backend = json_field<std::string>(j, "backend");
    c.algorithm = json_field<std::string>(j, "algorithm");
    auto collective = parse_collective(json_field<std::string>(j, "collective"));
    auto mode = parse_timing_mode(json_field<std::string>(j, "mode"));
    const auto dtype_name = json_field<std::string>(j, "dtype");
    const auto op_name = json_field<std::string>(j, "op");
    auto dtype = dtype_name == "none" ? std::optional<Dtype>(Dtype::none) : parse_dtype(dtype_name);
    auto op = op_name == "none" ? std::optional<Op>(Op::none) : parse_op(op_name);
    const auto unknown = [](const char* key, const std::string& value) {
      return std::runtime_error(fmt::format("{}: unknown value '{}'", key, value));
    };
    if (!collective) throw unknown("collective", json_field<std::string>(j, "collective"));
    if (!mode) throw unknown("mode", json_field<std::string>(j, "mode"));
    if (!dtype) throw unknown("dtype", dtype_name);
    if (!op) throw unknown("op", op_name);
    c.collective = *collective;
    c.mode = *mode;
    c.dtype = *dtype;
    c.op = *op;
    c.count = json_field<std::uint64_t>(j, "count");
    c.bytes = json_field<std::uint64_t>(j, "bytes");
    // Bounded, not cut to an int: a plan.json edited to np 10^12 must not launch -727379968 ranks.
    try {
      c.np = static_cast<int>(json_int(j.at("np"), 1, INT_MAX));
    } catch (const std::out_of_range& e) {
      throw std::runtime_error(fmt::format("np: {}", e.what()));
    }
    c.in_place = json_field<bool>(j, "in_place");
    c.root = json_field_or(j, "root", 0);
    c.repetition = json_field_or(j, "repetition", 0);
    if (c.repetition < 0) throw std::runtime_error(fmt::format("repetition {} is negative", c.repetition));
    if (j.contains("params")) c.params = json_field<std::map<std::string, double>>(j, "params");
    if (j.contains("options")) c.options = json_field<std::map<std::string, std::string>>(j, "options");
    if (j.contains("selection")) {
      const auto& s = j.at("selection");
      c.selection.mechanism = json_field_or<std::string>(s, "mechanism", "none");
      c.selection.variable = json_field_or<std::string>(s, "variable", "");
      c.selection.value = json_field_or<std::string>(s, "value", "");
      c.selection.readback = json_field_or<std::string>(s, "readback", "");
      c.selection.fallback = json_field_or<std::string>(s, "fallback", "");
      c.selection.verify = json_field_or<std::string>(s, "verify", "mpi_t");
      c.selection.takes_effect = json_field_or<std::string>(s, "takes_effect", "new_communicator");
      if (s.contains("parameters")) c.selection.parameters = json_field<std::map<std::string, std::string>>(s, "parameters");
    }
    return c;
  } catch (const nlohmann::json::exception& e) {  // json_field names the field; nlohmann's own errors, not
    throw std::runtime_error(fmt::format("malformed case object: {}", json_error_text(e)));
  }
}

}  // namespace pico
