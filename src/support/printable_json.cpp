// SPDX-License-Identifier: BSD-3-Clause
#include "support/printable_json.hpp"

#include <string>

#include "support/input_error.hpp"

namespace pico {

namespace {

std::string printable_text(const std::string& text, LineBreaks breaks) {
  if (breaks == LineBreaks::escape) return printable(text);
  std::string out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    out += printable(text.substr(start, end - start)) + "\n";
  return out + printable(text.substr(start));
}

}  // namespace

nlohmann::json printable_strings(const nlohmann::json& j, LineBreaks breaks) {
  if (j.is_string()) return printable_text(j.get_ref<const std::string&>(), breaks);
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const nlohmann::json& e : j) out.push_back(printable_strings(e, breaks));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[printable(key)] = printable_strings(value, breaks);
    return out;
  }
  return j;
}

}  // namespace pico
