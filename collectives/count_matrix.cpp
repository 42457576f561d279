// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/count_matrix.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "collectives/philox_core.hpp"
#include "support/input_error.hpp"
#include "support/whole_file.hpp"

namespace pico {
namespace {

struct KindName {
  CountPatternKind kind;
  std::string_view name;
};
constexpr KindName kKinds[] = {{CountPatternKind::uniform, "uniform"},
                               {CountPatternKind::random, "random"},
                               {CountPatternKind::hot, "hot"},
                               {CountPatternKind::powerlaw, "powerlaw"},
                               {CountPatternKind::file, "file"},
                               {CountPatternKind::distance, "distance"}};

std::string_view kind_name(CountPatternKind k) {
  for (const auto& [kind, n] : kKinds)
    if (kind == k) return n;
  return "?";
}

double parse_number(std::string_view key, std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw std::invalid_argument(fmt::format("{}={} is not a number", key, text));
  return v;
}

// The uniform [0, 1) draw of block (from, to) under `seed`: one Philox4x32-10
// block per entry, counter (from, to), so the matrix is the same on every rank
// and independent of the order it is computed in.
double philox_uniform(std::uint64_t seed, int from, int to) {
  std::uint32_t c[4] = {static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to), 0x636f756eu, 0x74730000u};
  compressed::detail::philox_block(static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), c);
  return c[0] * (1.0 / 4294967296.0);
}

std::vector<double> weights_of(const CountPattern& p, int np) {
  if (const std::string why = pattern_fit_reason(p, np); !why.empty()) throw std::invalid_argument(why);
  if (p.kind == CountPatternKind::file) return read_count_weights(p.path, np);
  const auto n = static_cast<std::size_t>(np);
  std::vector<double> w(n * n, 1.0);
  for (int from = 0; from < np; ++from)
    for (int to = 0; to < np; ++to) {
      double& x = w[static_cast<std::size_t>(from) * n + static_cast<std::size_t>(to)];
      switch (p.kind) {
        case CountPatternKind::uniform: break;
        case CountPatternKind::random: x = philox_uniform(p.seed, from, to); break;
        case CountPatternKind::hot: x = to == p.rank ? p.factor : 1.0; break;
        case CountPatternKind::powerlaw: x = std::pow(static_cast<double>(to + 1), -p.alpha); break;
        case CountPatternKind::file: break;
        case CountPatternKind::distance: {
          // (1 - s)/np of the row uniform, s by distance over the sum of distances, np(np-1)/2.
          const double d = static_cast<double>((to - from + np) % np);
          const double pairs = static_cast<double>(np) * (np - 1) / 2;
          x = (1 - p.spread) / np + (np > 1 ? p.spread * d / pairs : p.spread);
          break;
        }
      }
    }
  return w;
}

}  // namespace

std::string pattern_text(const CountPattern& p) {
  switch (p.kind) {
    case CountPatternKind::uniform: return "uniform";
    case CountPatternKind::random: return fmt::format("random:seed={}", p.seed);
    case CountPatternKind::hot: return fmt::format("hot:rank={},factor={}", p.rank, param_text(p.factor));
    case CountPatternKind::powerlaw: return fmt::format("powerlaw:alpha={}", param_text(p.alpha));
    case CountPatternKind::file: return "file:" + p.path;
    case CountPatternKind::distance: return fmt::format("distance:spread={}", param_text(p.spread));
  }
  return "?";
}

std::string pattern_fit_reason(const CountPattern& p, int np) {
  if (p.kind == CountPatternKind::hot && p.rank >= np)
    return fmt::format("the hot rank {} is not among the {} ranks", p.rank, np);
  return "";
}

std::vector<std::string> count_pattern_kinds() {
  std::vector<std::string> out;
  for (const auto& k : kKinds) out.emplace_back(k.name);
  return out;
}

std::string count_pattern_names() {
  std::string out;
  for (std::size_t i = 0; i < std::size(kKinds); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == std::size(kKinds) ? " or " : ", ", kKinds[i].name);
  return out;
}

CountPattern parse_count_pattern(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  CountPattern p;
  const auto* k = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindName& n) { return n.name == kind; });
  if (k == std::end(kKinds))
    throw std::invalid_argument(fmt::format("unknown count pattern '{}' (known: {})", kind, count_pattern_names()));
  p.kind = k->kind;
  if (p.kind == CountPatternKind::file) {
    if (rest.empty()) throw std::invalid_argument("the file pattern needs a path: file:<path>");
    p.path = std::string(rest);
    return p;
  }
  std::size_t at = 0;
  while (at < rest.size()) {
    const std::size_t comma = std::min(rest.find(',', at), rest.size());
    const std::string_view item = rest.substr(at, comma - at);
    at = comma + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) throw std::invalid_argument(fmt::format("'{}' is not key=value", item));
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    const double v = parse_number(key, value);
    const bool integral = v == std::floor(v);
    if (p.kind == CountPatternKind::random && key == "seed" && integral && v >= 0 && v < 1.8e19) {
      p.seed = static_cast<std::uint64_t>(v);
    } else if (p.kind == CountPatternKind::hot && key == "rank" && integral && v >= 0 && v <= INT_MAX) {
      p.rank = static_cast<int>(v);  // any int, as the experiment parser takes it (config/count_patterns.cpp)
    } else if (p.kind == CountPatternKind::hot && key == "factor" && v > 0) {
      p.factor = v;
    } else if (p.kind == CountPatternKind::powerlaw && key == "alpha" && v >= 0) {
      p.alpha = v;
    } else if (p.kind == CountPatternKind::distance && key == "spread" && v >= 0 && v <= 1) {
      p.spread = v;
    } else {
      throw std::invalid_argument(fmt::format(
          "{} takes no {}={} (random: seed, an integer >= 0; hot: rank, an integer >= 0, and factor > 0; "
          "powerlaw: alpha >= 0; distance: spread in [0, 1])",
          kind_name(p.kind), key, value));
    }
  }
  return p;
}

CountMatrix::CountMatrix(int np, std::vector<std::uint64_t> counts) : np_(np), counts_(std::move(counts)) {
  if (np < 1 || counts_.size() != static_cast<std::size_t>(np) * static_cast<std::size_t>(np))
    throw std::invalid_argument(fmt::format("a count matrix of {} ranks needs {} entries, not {}", np,
                                            static_cast<std::size_t>(np) * static_cast<std::size_t>(np),
                                            counts_.size()));
  offsets_.resize(counts_.size());
  for (int from = 0; from < np; ++from) {
    std::uint64_t before = 0;
    for (int to = 0; to < np; ++to) {
      offsets_[index(from, to)] = before;
      before += at(from, to);
    }
  }
}

std::uint64_t CountMatrix::sent_by(int rank) const {
  std::uint64_t sum = 0;
  for (int q = 0; q < np_; ++q) sum += at(rank, q);
  return sum;
}

std::uint64_t CountMatrix::received_by(int rank) const {
  std::uint64_t sum = 0;
  for (int q = 0; q < np_; ++q) sum += at(q, rank);
  return sum;
}

std::uint64_t CountMatrix::total() const { return std::accumulate(counts_.begin(), counts_.end(), std::uint64_t{0}); }

std::uint64_t CountMatrix::largest() const { return *std::max_element(counts_.begin(), counts_.end()); }

// An np x np text matrix: 4,096 ranks of 12-character numbers are some 200 MiB.
constexpr std::uintmax_t kMaxCountMatrixFileBytes = 256 * kMiB;

std::vector<double> read_count_weights(const std::string& path, int np) {
  // A FIFO would block and /dev/zero fill memory: one bounded read of a regular file.
  std::istringstream in(read_whole_file(path, kMaxCountMatrixFileBytes, "the count matrix file",
                                        "give a readable file of np x np numbers"));
  const auto n = static_cast<std::size_t>(np);
  std::vector<double> w;
  std::string line;
  int line_no = 0;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string_view content = std::string_view(line).substr(0, line.find('#'));
    std::size_t in_row = 0, at = 0;
    while (at < content.size()) {
      at = content.find_first_not_of(" \t\r,", at);
      if (at == std::string_view::npos) break;
      const std::size_t end = std::min(content.find_first_of(" \t\r,", at), content.size());
      const std::string_view token = content.substr(at, end - at);
      double v = 0;
      const auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec != std::errc() || stop != token.data() + token.size() || !std::isfinite(v) || v < 0)
        throw InputError(path, line_no, static_cast<int>(at) + 1,
                         fmt::format("'{}' is not a non-negative number", token),
                         "write one row of np non-negative numbers per sending rank");
      w.push_back(v);
      ++in_row;
      at = end;
    }
    if (in_row == 0) continue;
    if (in_row != n)
      throw InputError(path, line_no, 1, fmt::format("row {} has {} entries; a run on {} ranks needs {}", rows + 1,
                                                     in_row, np, np),
                       "give an np x np matrix for every process count the experiment runs");
    ++rows;
  }
  if (rows != n)
    throw InputError(path, line_no, 0, fmt::format("{} rows; a run on {} ranks needs {}", rows, np, np),
                     "give an np x np matrix for every process count the experiment runs");
  if (std::all_of(w.begin(), w.end(), [](double x) { return x == 0; }))
    throw InputError(path, "every entry is 0", "give the matrix a positive entry");
  return w;
}

// Scaled so the entries sum to mean_count * np^2 exactly: entry i gets the
// rounded running total of the scaled weights minus the rounded total before it.
CountMatrix make_count_matrix(const CountPattern& pattern, int np, std::uint64_t mean_count) {
  // Bounded before anything is allocated: the weights, counts and offsets are
  // 24 bytes an entry (np 16384: 6.4 GB, then bad_alloc).
  if (np > kMaxCountMatrixRanks)
    throw std::invalid_argument(fmt::format("a count matrix of {} ranks is {} million entries; pico builds them for up "
                                            "to {} ranks ({} MB)",
                                            np, static_cast<std::uint64_t>(np) * static_cast<std::uint64_t>(np) / 1000000,
                                            kMaxCountMatrixRanks,
                                            std::uint64_t{kMaxCountMatrixRanks} * kMaxCountMatrixRanks * 24 / 1000000));
  const double volume = static_cast<double>(mean_count) * static_cast<double>(np) * static_cast<double>(np);
  // Every entry and running total must stay an exact uint64 (llround past 2^63 is undefined).
  if (volume >= 0x1p62)
    throw std::invalid_argument(fmt::format("{} elements per block on {} ranks is more than 64 bits can count",
                                            mean_count, np));
  std::vector<double> w = weights_of(pattern, np);
  // Relative to the largest weight, so that weights summing past the largest
  // double (a file of 1e308s, hot:factor=1e308) keep their proportions instead
  // of making the sum inf and every entry NaN (a 2^63-element block).
  const double top = *std::max_element(w.begin(), w.end());
  if (!(top > 0) || !std::isfinite(top)) throw std::invalid_argument("a count pattern needs a positive, finite weight");
  for (double& x : w) x /= top;
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<std::uint64_t> counts(w.size());
  double running = 0;
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    running += w[i];
    const auto upto = static_cast<std::uint64_t>(std::llround(running / sum * volume));
    counts[i] = upto - std::min(upto, given);
    given = std::max(given, upto);
  }
  return CountMatrix(np, std::move(counts));
}

std::string counts_option(const Case& c) {
  const auto it = c.options.find(kCountsOption);
  return it == c.options.end() ? std::string() : it->second;
}

std::shared_ptr<const CountMatrix> count_matrix(const Case& c) {
  struct Last {
    std::string pattern;
    int np = 0;
    std::uint64_t count = 0;
    std::shared_ptr<const CountMatrix> matrix;
  };
  thread_local Last last;
  const std::string pattern = counts_option(c);
  if (!last.matrix || last.pattern != pattern || last.np != c.np || last.count != c.count) {
    const CountPattern p = pattern.empty() ? CountPattern{} : parse_count_pattern(pattern);
    last = {pattern, c.np, c.count, std::make_shared<const CountMatrix>(make_count_matrix(p, c.np, c.count))};
  }
  return last.matrix;
}

VectorLayout vector_layout(const CountMatrix& m, int rank) {
  const auto n = static_cast<std::size_t>(m.np());
  VectorLayout l;
  l.send_counts.resize(n);
  l.send_displs.resize(n);
  l.recv_counts.resize(n);
  l.recv_displs.resize(n);
  l.peer_send_displs.resize(n);
  for (int q = 0; q < m.np(); ++q) {
    const auto i = static_cast<std::size_t>(q);
    l.send_counts[i] = m.at(rank, q);
    l.send_displs[i] = m.offset(rank, q);
    l.recv_counts[i] = m.at(q, rank);
    l.recv_displs[i] = l.recv_total;
    l.recv_total += l.recv_counts[i];
    l.peer_send_displs[i] = m.offset(q, rank);
  }
  l.send_total = m.sent_by(rank);
  return l;
}

}  // namespace pico
