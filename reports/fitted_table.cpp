// SPDX-License-Identifier: BSD-3-Clause
#include "reports/fitted_table.hpp"

#include <algorithm>
#include <deque>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/counted.hpp"

namespace pico {

namespace {

constexpr std::size_t kMinName = 24;  // a name cut shorter says little ("mpi/default (ran recu.." at 16 did)
// Shorter still only once the columns a reader needs least are left out: what a default ran stays whole there
// (shortened), so it is the other labels that are cut.
constexpr std::size_t kFloorName = 16;

}  // namespace

std::string cut(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 2) + ".."; }

namespace {

// shortened; whole_tail: the closing words in parentheses are kept (only the last: "default (counts uniform)
// (ran pairwise)" keeps "(ran pairwise)" and cuts the rest).
std::string shortened_label(const std::string& label, std::size_t n, std::map<std::string, std::string>& abbreviated,
                            bool whole_tail) {
  if (label.size() <= n) return label;
  // "mpi/default (ran rabenseifner)": what the library ran is the cell's point (cut, it read "mpi/default (ran
  // raben.."), so it stays whole; the backend is given up first, then the default's own name is shortened. So
  // does any closing word in parentheses ("unknown (no interposer)", "mpi/ring (nonblocking)").
  if (const std::size_t ran = label.rfind(" ("); whole_tail && ran != std::string::npos && label.back() == ')') {
    const std::string head = label.substr(0, ran), tail = label.substr(ran);
    const std::size_t slash = head.find('/');
    const std::string bare = slash == std::string::npos ? head : head.substr(slash + 1);
    if (bare.size() + tail.size() <= n || bare.size() <= 8) return bare + tail;
    return shortened_label(bare, std::max<std::size_t>(8, n > tail.size() ? n - tail.size() : 0), abbreviated,
                           false) +
           tail;
  }
  // Two spellings: the report's "chain[chain_fanout=4;segment_size=0]" and tune's "chain chain_fanout=4
  // segment_size=0" (src/tuning/candidate_label); [open, close) holds the parameters, split at `separator`.
  std::size_t open = label.find('['), close = label.find(']', open);
  char separator = ';';
  if (open == std::string::npos || close == std::string::npos) {
    open = label.find(' ');
    close = label.size();
    separator = ' ';
    if (open == std::string::npos || label.find('=', open) == std::string::npos) return cut(label, n);
  }
  std::string params;
  std::size_t at = open + 1;
  while (at < close) {
    const std::size_t end = std::min(label.find(separator, at), close), equals = label.find('=', at);
    if (equals < end) {
      const std::string key = label.substr(at, equals - at);
      std::string initials;
      for (std::size_t i = 0; i < key.size(); ++i)
        if (i == 0 || key[i - 1] == '_') initials += key[i];
      const auto [it, added] = abbreviated.try_emplace(initials, key);
      const std::string& shown = added || it->second == key ? initials : key;
      params += (params.empty() ? "" : std::string(1, separator)) + shown + label.substr(equals, end - equals);
    } else {
      params += (params.empty() ? "" : std::string(1, separator)) + label.substr(at, end - at);
    }
    at = end + 1;
  }
  const std::string family = label.substr(0, open),
                    tail = label.substr(open, 1) + params + (close < label.size() ? label.substr(close) : "");
  if (family.size() + tail.size() <= n) return family + tail;
  if (tail.size() + 6 <= n) return cut(family, n - tail.size()) + tail;  // "mpi/split_bin..[ss=8192]"
  return cut(family + tail, n);
}

}  // namespace

std::string shortened(const std::string& label, std::size_t n, std::map<std::string, std::string>& abbreviated) {
  return shortened_label(label, n, abbreviated, true);
}

std::string abbreviations_line(const std::map<std::string, std::string>& abbreviated, std::size_t width) {
  if (abbreviated.empty()) return "";
  std::string out = "parameters:";
  for (const auto& [initials, key] : abbreviated) out += fmt::format(" {} {},", initials, key);
  out.pop_back();
  return wrapped(out, width);
}

std::size_t TableNotes::add(const std::string& text) {
  auto it = std::find_if(notes_.begin(), notes_.end(), [&](const auto& n) { return n.first == text; });
  if (it == notes_.end()) it = notes_.insert(notes_.end(), {text, 0});
  ++it->second;
  return static_cast<std::size_t>(it - notes_.begin()) + 1;
}

std::string TableNotes::lines(std::size_t width) const {
  std::string out;
  for (std::size_t n = 0; n < notes_.size(); ++n)
    out += wrapped(fmt::format("[{}] {} {}", n + 1, counted(notes_[n].second, noun_), notes_[n].first), width, "    ");
  return out;
}

std::size_t table_width(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows) {
  std::size_t total = columns.empty() ? 0 : 2 * (columns.size() - 1);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    std::size_t w = columns[c].header.size();
    for (const auto& row : rows) w = std::max(w, row[c].size());
    total += w;
  }
  return total;
}

std::string fitted_table(std::span<const TextColumn> given, const std::vector<std::vector<std::string>>& given_rows,
                         std::size_t width, const CellColour& colour, std::vector<std::size_t> names,
                         std::vector<std::size_t> optional) {
  std::vector<TextColumn> columns(given.begin(), given.end());
  std::vector<std::vector<std::string>> rows = given_rows;
  std::vector<std::size_t> original(columns.size());  // shown column -> given column, for colour
  for (std::size_t c = 0; c < original.size(); ++c) original[c] = c;
  std::deque<std::string> headers;  // the headers made here ("baseline=candidate"): TextColumn only views its own
  const auto fits = [&] { return table_width(columns, rows) <= width; };
  const auto erase = [&](std::size_t c) {
    columns.erase(columns.begin() + static_cast<std::ptrdiff_t>(c));
    original.erase(original.begin() + static_cast<std::ptrdiff_t>(c));
    for (auto& row : rows) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
  };
  const auto shown = [&](std::size_t given_column) {
    return static_cast<std::size_t>(std::find(original.begin(), original.end(), given_column) - original.begin());
  };
  const auto is_name = [&](std::size_t c) { return std::find(names.begin(), names.end(), original[c]) != names.end(); };
  const auto one_value = [&](std::size_t c) {
    return std::all_of(rows.begin(), rows.end(), [&](const auto& row) { return row[c] == rows[0][c]; });
  };
  // Columns of "-" only say nothing; a column with one value says it once. The table keeps two columns at least.
  for (std::size_t c = columns.size(); c-- > 0 && !fits() && !rows.empty() && columns.size() > 2;)
    if (one_value(c) && rows[0][c] == "-") erase(c);
  std::vector<std::string> said;
  for (std::size_t c = 0; c < columns.size() && !fits() && rows.size() >= 2 && columns.size() > 2;) {
    if (!is_name(c) && one_value(c)) {
      said.push_back(fmt::format("{}: {}", columns[c].header, rows[0][c]));
      erase(c);
    } else {
      ++c;
    }
  }
  // A column that repeats a names column row for row (compare's baseline and candidate, of two runs) is said by it.
  for (std::size_t n = 0; n < columns.size() && !fits(); ++n) {
    if (!is_name(n)) continue;
    for (std::size_t c = 0; c < columns.size() && !fits(); ++c) {
      if (c == n || is_name(c) ||
          !std::all_of(rows.begin(), rows.end(), [&](const auto& row) { return row[c] == row[n]; }))
        continue;
      columns[n].header = headers.emplace_back(fmt::format("{}={}", columns[c].header, columns[n].header));
      erase(c);
      if (c < n) --n;
      --c;
    }
  }
  // A names column whose every label has one backend ("mpi/ring", "mpi/default (ran ring)") says it once, and
  // its labels go without it: "default (ran ring)" beside "ring", not beside "mpi/ring".
  for (std::size_t c = 0; c < columns.size() && !fits() && rows.size() >= 2; ++c) {
    if (!is_name(c)) continue;
    const std::string backend = rows[0][c].substr(0, rows[0][c].find('/'));
    const bool common = backend.size() < rows[0][c].size() && std::all_of(rows.begin(), rows.end(), [&](const auto& row) {
      return row[c].size() > backend.size() && row[c].compare(0, backend.size() + 1, backend + "/") == 0;
    });
    if (!common) continue;
    said.push_back(fmt::format("backend: {}", backend));
    for (auto& row : rows) row[c].erase(0, backend.size() + 1);
    const std::string_view header = columns[c].header;
    if (header.starts_with("backend/")) columns[c].header = headers.emplace_back(header.substr(8));
  }
  std::string above;
  if (!said.empty()) {
    std::string line;
    for (const std::string& s : said) line += (line.empty() ? "" : ", ") + s;
    above = wrapped(line, width == kUnlimitedWidth ? line.size() : width);
  }
  std::map<std::string, std::string> abbreviated;
  std::map<std::size_t, std::vector<std::string>> labels;  // a names column's whole labels, by given column: each
                                                           // is cut from its whole label, not from a cut one
  // The shown name columns cut to one length: the greatest that fits the table, and no shorter than `floor`.
  // Each label is cut from its whole self, and how long it comes out is measured, not assumed: what a default
  // ran stays whole (shortened).
  const auto shorten_names = [&](std::size_t floor) {
    if (fits()) return;
    std::vector<std::size_t> name_columns;
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (is_name(c)) {
        name_columns.push_back(c);
        std::vector<std::string>& whole = labels[original[c]];
        if (whole.empty())
          for (const auto& row : rows) whole.push_back(row[c]);
      }
    if (name_columns.empty()) return;
    std::size_t others = table_width(columns, rows);  // the table's width but for its name columns' own
    std::size_t keep = 0;
    for (const std::size_t c : name_columns) {
      std::size_t w = columns[c].header.size();
      for (const auto& row : rows) w = std::max(w, row[c].size());
      others -= w;
      for (const std::string& label : labels[original[c]]) keep = std::max(keep, label.size());
    }
    std::map<std::string, std::string> scratch;
    const auto width_at = [&](std::size_t n) {
      std::size_t total = others;
      for (const std::size_t c : name_columns) {
        std::size_t w = columns[c].header.size();
        for (const std::string& label : labels[original[c]]) w = std::max(w, shortened(label, n, scratch).size());
        total += w;
      }
      return total;
    };
    while (keep > floor && width_at(keep) > width) --keep;
    for (const std::size_t c : name_columns)
      for (std::size_t r = 0; r < rows.size(); ++r) rows[r][c] = shortened(labels[original[c]][r], keep, abbreviated);
  };
  shorten_names(kMinName);
  // Then the columns a reader needs least, in the order given, each named under the table; --wide shows them.
  std::vector<std::string> left_out;
  // Labels cut to kFloorName, where that alone fits the table, rather than one column more left out.
  const auto fits_cut = [&] {
    const auto kept_rows = rows;
    const auto kept_abbreviated = abbreviated;
    shorten_names(kFloorName);
    if (fits()) return true;
    rows = kept_rows;
    abbreviated = kept_abbreviated;
    return false;
  };
  for (const std::size_t given_column : optional) {
    const std::size_t c = shown(given_column);
    if (fits() || columns.size() <= 2 || fits_cut()) break;
    if (c == columns.size()) continue;  // said above already
    left_out.emplace_back(columns[c].header);
    erase(c);
  }
  shorten_names(kFloorName);
  const std::size_t prose = width == kUnlimitedWidth ? kDefaultTableWidth : width;
  const std::string left_out_line =
      left_out.empty() ? ""
                       : wrapped(fmt::format("not shown in {} columns (--wide shows them): {}", width,
                                             fmt::join(left_out, ", ")),
                                 prose);
  const CellColour shown_colour =
      colour ? CellColour([&](std::size_t row, std::size_t column) { return colour(row, original[column]); }) : CellColour();
  return above + aligned_table(columns, rows, shown_colour) + abbreviations_line(abbreviated, prose) + left_out_line;
}

}  // namespace pico
