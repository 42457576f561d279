// SPDX-License-Identifier: BSD-3-Clause
#include "config/count_patterns.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "collectives/count_matrix.hpp"

namespace pico {
namespace {

const std::vector<std::string> kPatternKeys{"pattern", "seed", "rank", "factor", "alpha", "spread", "path"};

// The keys each pattern takes besides `pattern`.
std::vector<std::string> keys_of(CountPatternKind k) {
  switch (k) {
    case CountPatternKind::uniform: return {};
    case CountPatternKind::random: return {"seed"};
    case CountPatternKind::hot: return {"rank", "factor"};
    case CountPatternKind::powerlaw: return {"alpha"};
    case CountPatternKind::file: return {"path"};
    case CountPatternKind::distance: return {"spread"};
  }
  return {};
}

double positive_number(const yaml::Value& v, std::string_view what, bool zero_allowed) {
  double x = 0;
  if (!v.is_scalar() || !YAML::convert<double>::decode(v.node(), x) || !std::isfinite(x) || x < 0 ||
      (!zero_allowed && x == 0))
    v.fail(fmt::format("{} must be a number {} 0, got {}", what, zero_allowed ? ">=" : ">", v.describe()));
  return x;
}

// A pattern name with its defaults; a file has none to give.
CountPattern pattern_named(const yaml::Value& v, std::string_view what) {
  const std::string kind = v.as_choice(what, count_pattern_kinds());
  if (kind != "file") return parse_count_pattern(kind);
  if (what == "count_matrix")  // a bare name: a file has no path to give
    v.fail("the file pattern needs a path", "write {pattern: file, path: counts.txt}");
  CountPattern p;
  p.kind = CountPatternKind::file;
  return p;
}

CountPattern parse_one(const yaml::Value& item) {
  if (!item.is_map()) return pattern_named(item, "count_matrix");
  const yaml::Map m = item.as_map("count_matrix entry", kPatternKeys);
  const yaml::Value kind_node = m.require("pattern");
  CountPattern p = pattern_named(kind_node, "pattern");
  const std::vector<std::string> allowed = keys_of(p.kind);
  for (const std::string& key : kPatternKeys) {
    if (key == "pattern" || !m.has(key) || std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    m.key(key)->fail(fmt::format("the {} pattern takes no {}", kind_node.as_string("pattern"), key),
                     allowed.empty() ? std::string("it takes no keys")
                                     : fmt::format("it takes {}", yaml::join(allowed)));
  }
  if (auto v = m.get("seed")) p.seed = static_cast<std::uint64_t>(v->as_int("seed", 0, INT64_MAX));
  if (auto v = m.get("rank")) p.rank = static_cast<int>(v->as_int("rank", 0, INT_MAX));
  if (auto v = m.get("factor")) p.factor = positive_number(*v, "factor", false);
  if (auto v = m.get("alpha")) p.alpha = positive_number(*v, "alpha", true);
  if (auto v = m.get("spread")) {
    p.spread = positive_number(*v, "spread", true);
    if (p.spread > 1) v->fail(fmt::format("spread must be in [0, 1], got {}", v->describe()), "1 is nccl-tests' default");
  }
  if (p.kind == CountPatternKind::file) {
    const yaml::Value path = m.require("path");
    std::filesystem::path file(path.as_nonempty_string("path"));
    if (file.is_relative()) file = std::filesystem::path(item.file()).parent_path() / file;
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(file, ec);
    p.path = (ec ? file : absolute).lexically_normal().string();
  }
  return p;
}

}  // namespace

std::string parse_count_pattern_item(const yaml::Value& item, int ranks) {
  const CountPattern p = parse_one(item);
  if (const std::string why = pattern_fit_reason(p, ranks); !why.empty())
    item.fail(why, fmt::format("give a rank below {}", ranks));
  if (p.kind == CountPatternKind::file) read_count_weights(p.path, ranks);
  return pattern_text(p);
}

std::vector<std::string> parse_count_patterns(const yaml::Value& v, const std::vector<int>& processes) {
  std::vector<std::string> out;
  for (const yaml::Value& item : v.as_list("count_matrix")) {
    const CountPattern p = parse_one(item);
    if (p.kind == CountPatternKind::file)
      for (int np : processes) read_count_weights(p.path, np);
    const std::string text = pattern_text(p);
    if (std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
  }
  if (out.empty()) v.fail("count_matrix lists no pattern", fmt::format("give one of {}", count_pattern_names()));
  return out;
}

}  // namespace pico
