// SPDX-License-Identifier: BSD-3-Clause
// Text tables fitted to a width (issue 65: pico run's table was 220 columns
// wide, pico compare's over 300): what the terminal view does to its own
// tables, shared with the run, report and compare tables. docs/report.md#width
// says it for users.
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reports/text_table.hpp"
#include "support/wrapped_text.hpp"  // wrapped: the fitted tables' prose wraps as all pico's does

namespace pico {

// The width the run, report and compare tables fit by default; --wide lifts it.
inline constexpr std::size_t kDefaultTableWidth = kProseWidth;
// A width no table reaches: --wide.
inline constexpr std::size_t kUnlimitedWidth = static_cast<std::size_t>(-1);


// At most n bytes: the end given up for "..".
std::string cut(const std::string& s, std::size_t n);

// An algorithm label in n columns: first its parameters' names by their
// initials ("mpi/chain[chain_fanout=4;segment_size=0]" as
// "mpi/chain[cf=4;ss=0]", tune's "chain chain_fanout=4" as "chain cf=4":
// variants differ there, so their values stay),
// recorded in `abbreviated` for the line under the table (a name whose
// initials another already has stays whole: min_ratio and max_ratio); then
// the algorithm's own name is cut before its parameters, and only a name with
// no room for them is cut at the end. What a default ran ("mpi/default (ran
// ring)"), and any closing words in parentheses ("unknown (no
// interposer)"), is never cut: the backend goes first ("default (ran
// ring)"), and such a label may stay longer than n.
std::string shortened(const std::string& label, std::size_t n, std::map<std::string, std::string>& abbreviated);

// "parameters: cf chain_fanout, ss segment_size", wrapped; "" when none was abbreviated.
std::string abbreviations_line(const std::map<std::string, std::string>& abbreviated, std::size_t width);

// Long texts said once under a table instead of in its cells, numbered, each
// with how many rows hold it (issue 65: 117 lines repeated 9 reasons, cut with
// "..."; pico tune repeated its undecided sizes' reasons on 170-column lines).
// The cell keeps a word and the number: "skipped [1]", "undecided [2]".
class TableNotes {
 public:
  // noun: what a row is ("case", "size"), counted in each note.
  explicit TableNotes(std::string noun) : noun_(std::move(noun)) {}
  // The text's number, from 1; a text noted already counts one row more.
  std::size_t add(const std::string& text);
  // "[1] 5 cases skipped: REASON", one a note, wrapped to width; "" when none.
  std::string lines(std::size_t width) const;

 private:
  std::string noun_;
  std::vector<std::pair<std::string, std::size_t>> notes_;  // text, rows
};

// The widest line a table of these cells would print (two spaces between columns).
std::size_t table_width(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows);

// aligned_table fitted to `width`, in steps, each only while the table is
// still wider: a column whose every cell is "-" is left out; a column with
// one value in all of two or more rows is said once above the table
// ("dtype: float32, op: sum"), and so is a `names` column's one backend
// ("backend: mpi", its labels then without "mpi/"); a column that repeats a
// `names` column row for row goes into it ("baseline=candidate"); the `names`
// columns' labels are shortened (above; the abbreviations said under the
// table) to 24 columns at least. With several `names` columns (tune's fastest
// and choice) the longest are shortened first, to one length, until the
// table fits. Then the `optional` columns are left out, in the order given,
// and named under the table ("not shown in 100 columns (--wide shows them):
// iterations"); then the labels are cut to 16 columns at least. A table that
// still does not fit is printed so: nothing else is cut. colour is by the
// given columns' indices.
std::string fitted_table(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows,
                         std::size_t width, const CellColour& colour = {}, std::vector<std::size_t> names = {},
                         std::vector<std::size_t> optional = {});

}  // namespace pico
