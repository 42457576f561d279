// SPDX-License-Identifier: BSD-3-Clause
#include "reports/html_report.hpp"

#include <map>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "core/build_info.hpp"
#include "core/report_facts.hpp"
#include "reports/application_html.hpp"
#include "reports/html_assets.hpp"

namespace pico {

std::string html_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string script_safe_json(const nlohmann::json& data) {
  // Invalid UTF-8 in a report (a hostile reason string) is replaced, not thrown on.
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  for (char ch : text) {
    if (ch == '<')
      out += "\\u003c";
    else
      out += ch;
  }
  return out;
}

namespace {

// A script's text is inlined as is; "</script" inside it would end the element.
const std::string& checked_script(const std::string& text, const char* what) {
  if (text.find("</script") != std::string::npos)
    throw std::runtime_error(fmt::format("{} contains \"</script\" and cannot be inlined", what));
  return text;
}

// Replaces each @@NAME@@ of the template in one pass, so nothing inserted is scanned again.
std::string fill_template(std::string_view page, const std::map<std::string_view, std::string_view>& values) {
  std::string out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t open = page.find("@@", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = page.find("@@", open + 2);
    if (close == std::string_view::npos) break;
    const auto it = values.find(page.substr(open + 2, close - open - 2));
    if (it == values.end()) {  // not a marker: keep the text
      out += page.substr(at, open + 2 - at);
      at = open + 2;
      continue;
    }
    out += page.substr(at, open - at);
    out += it->second;
    at = close + 2;
  }
  out += page.substr(at);
  return out;
}

// The template filled: the title escaped, the data made script-safe, the scripts inlined.
std::string page(const std::string& title, const nlohmann::json& page_data, std::string_view application_script,
                 const VegaLibrary& library) {
  const std::string data = script_safe_json(page_data);
  const std::string generator = fmt::format("pico {} ({})", build::version, build::git_hash);
  const std::string escaped_title = html_escaped(title), escaped_generator = html_escaped(generator);
  const std::string application(application_script);
  return fill_template(html_assets::page_template,
                       {{"TITLE", escaped_title},
                        {"GENERATOR", escaped_generator},
                        {"VEGA", checked_script(library.vega, "vega.min.js")},
                        {"VEGA_LITE", checked_script(library.vega_lite, "vega-lite.min.js")},
                        {"VEGA_EMBED", checked_script(library.vega_embed, "vega-embed.min.js")},
                        {"DATA", data},
                        {"APPLICATION", checked_script(application, "application.js")},
                        {"CHARTS", html_assets::charts_script}});
}

}  // namespace

std::string html_title(const std::vector<LabelledReport>& reports, const std::vector<std::string>& user_labels) {
  std::string title = "pico report";
  if (reports.size() == 1)  // one run: no number to tell it from another
    return title + ": " + (user_labels.empty() ? report_facts(reports.front().report).experiment.name : user_labels.front());
  for (std::size_t i = 0; i < reports.size(); ++i) title += (i == 0 ? ": " : "; ") + reports[i].label;
  return title;
}

std::string render_html(const std::vector<LabelledReport>& reports, const VegaLibrary& library,
                        const std::vector<std::string>& user_labels) {
  return page(html_title(reports, user_labels), html_page_data(reports), "", library);
}

std::string render_application_html(const LabelledReport& report, const VegaLibrary& library) {
  return page("pico report: " + report.label, application_page_data(report), html_assets::application_script,
              library);
}

}  // namespace pico
