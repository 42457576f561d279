// SPDX-License-Identifier: BSD-3-Clause
#include "launch/progress.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "config/units.hpp"
#include "reports/render.hpp"
#include "support/elapsed.hpp"
#include "support/json_file.hpp"
#include "support/results_file.hpp"
#include "support/terminal.hpp"
#include "support/wrapped_text.hpp"

namespace pico {

JsonLinesTail::JsonLinesTail(std::string path, bool from_start) : path_(std::move(path)) {
  if (from_start) return;
  const FileDescriptor file = open_results_file(path_, O_RDONLY);
  struct stat st {};
  if (file.get() >= 0 && ::fstat(file.get(), &st) == 0) offset_ = st.st_size;
}

std::vector<nlohmann::json> JsonLinesTail::read_new() {
  std::vector<nlohmann::json> out;
  const FileDescriptor file = open_results_file(path_, O_RDONLY);
  if (file.get() < 0) return out;
  std::string text;
  char buffer[1 << 16];
  for (ssize_t n; (n = ::pread(file.get(), buffer, sizeof buffer, offset_ + static_cast<off_t>(text.size()))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  // Only complete lines: past the last newline the writer is mid-line.
  std::string_view rest = text;
  for (std::size_t end; (end = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(end + 1)) {
    offset_ += static_cast<off_t>(end + 1);
    if (auto j = parse_json_line(rest.substr(0, end))) out.push_back(std::move(*j));
  }
  return out;
}

// The algorithm as the tables name it, parameters included: variants of one algorithm differ only there.
std::string describe_case(const Case& c) {
  if (!spec_for(c.collective).has_payload)
    return fmt::format("{} np={} {}", name(c.collective), c.np, algorithm_label(c));
  return fmt::format("{} {}{} {} np={} {}{}", name(c.collective), name(c.dtype),
                     c.op == Op::none ? "" : fmt::format(" {}", name(c.op)), format_size(c.bytes), c.np,
                     algorithm_label(c), c.in_place ? " in-place" : "");
}

namespace {

// Progress is a courtesy: once its reader is gone (SIGPIPE, handled as an
// interruption) a failed write must not end the run before its report is written.
void print_to_stderr(const std::string& text) { std::fputs(text.c_str(), stderr); }
}  // namespace

Progress::Progress(std::size_t total, double time_budget_s, bool enabled)
    : total_(total), time_budget_s_(time_budget_s), enabled_(enabled), tty_(::isatty(STDERR_FILENO) != 0) {}

std::string progress_counts(std::size_t done, std::size_t total, double elapsed_s, double time_budget_s) {
  const std::size_t left = total > done ? total - done : 0;
  // Before any case is done only the budget bounds the rest (a quick case takes far less: "~33s left" then
  // done in 1 s read as a broken clock), so it is said as a bound.
  const double per_case = done > 0 ? elapsed_s / static_cast<double>(done) : time_budget_s;
  return fmt::format("[{:>{}}/{}] {} elapsed, {}{} left", done, std::to_string(total).size(), total,
                     format_duration(elapsed_s), done > 0 ? "~" : "at most ",
                     format_duration(per_case * static_cast<double>(left)));
}

std::string Progress::counts_and_times() const {
  return progress_counts(done_, total_, seconds_since(start_), time_budget_s_);
}

void Progress::show(const std::string& current) {
  if (!enabled_) return;
  // One line, or a terminal's redraw (\r) leaves its wrapped rest behind: what runs is cut to the width.
  std::string line = fmt::format("{}  {}", counts_and_times(), current);
  if (const std::size_t width = tty_ ? terminal_width(stderr, kProseWidth) : kProseWidth; line.size() > width)
    line = line.substr(0, width > 2 ? width - 2 : 0) + "..";
  if (tty_) {
    print_to_stderr(fmt::format("\r\033[K{}", line));
  } else if (seconds_since(last_) >= 5.0) {
    print_to_stderr(line + "\n");
    last_ = Clock::now();
  }
}

void Progress::finish() {
  if (enabled_ && tty_) print_to_stderr("\r\033[K");
  if (enabled_)
    print_to_stderr(fmt::format("[{}/{}] done in {}\n", done_, total_, format_duration(seconds_since(start_))));
}

}  // namespace pico
