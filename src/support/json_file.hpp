// SPDX-License-Identifier: BSD-3-Clause
// The one JSON reader for input: every JSON pico reads (a report, run.json,
// plan.json, a launch record, a profile, a model, a JSON line of cases.jsonl)
// is parsed here, with limits, and errors in pico's one format: a syntax
// error names its line and column, nesting deeper than kMaxJsonDepth is
// refused before it can exhaust the stack of whatever walks the document
// (printing a 100,000-deep array recursed until it crashed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/input_error.hpp"
#include "support/jsonl.hpp"

namespace pico {

// Deeper than any file pico writes (a report is under 10 levels, MPICH's
// selection trees under 20) and far below what recursion can take.
inline constexpr int kMaxJsonDepth = 128;

// text parsed; InputError at `where` (with line and column for a syntax
// error) when it is not JSON or nests deeper than kMaxJsonDepth.
nlohmann::json parse_json_text(std::string_view text, const std::string& where, const std::string& hint);
nlohmann::ordered_json parse_ordered_json_text(std::string_view text, const std::string& where,
                                               const std::string& hint);

// One JSON line, or nullopt when it is not valid JSON within the limits
// (a torn last line of a JSON-lines file).
std::optional<nlohmann::json> parse_json_line(std::string_view line);

// The largest JSON file pico reads: a report holds every case (with
// keep_samples every sample), so a large sweep's reaches hundreds of MiB.
inline constexpr std::uintmax_t kMaxJsonFileBytes = std::uintmax_t{1} << 30;
// Held in memory, a parsed JSON file takes about 9x its size (a 10 MB report:
// 95 MB peak), so verbs that must stay under 2 GB read at most this much.
inline constexpr std::uintmax_t kMaxJsonFileBytesWithin2GB = std::uintmax_t{160} << 20;
// What a profile or a model can be: a few KiB as pico writes them.
inline constexpr std::uintmax_t kMaxSmallJsonFileBytes = std::uintmax_t{16} << 20;

// A file the user named, parsed. Throws InputError naming the file when it
// cannot be read whole (a FIFO, a directory, more than max_bytes), opened or
// parsed; `hint` says what the caller expected.
nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& hint,
                              std::uintmax_t max_bytes = kMaxJsonFileBytes);

// The same, keeping the bytes read, for a caller that also fingerprints the
// file: one read, so the hash is of exactly what was parsed.
struct JsonFileText {
  std::string text;
  nlohmann::json json;
};
JsonFileText read_json_file_text(const std::filesystem::path& path, const std::string& hint,
                                 std::uintmax_t max_bytes = kMaxJsonFileBytes);

// A file pico wrote in a results directory (run.json, plan.json,
// launch-K.json, launch-K.info.json), opened as results files are
// (support/results_file.hpp: never through a link); nullopt when it does not
// exist. InputError naming the file when it cannot be read or parsed.
std::optional<nlohmann::json> read_results_json(const std::string& path, const std::string& hint);

// v as a whole number from lo to hi; std::out_of_range ("-5 is not a whole
// number from 1 to 2147483647") otherwise. nlohmann's get<int>() would cut
// 10^12 down to -727379968 without a word.
std::int64_t json_int(const nlohmann::json& v, std::int64_t lo, std::int64_t hi);

// A member of a record pico wrote, as T: std::runtime_error naming the key
// ("status: type must be string, but is number", "bytes: missing")
// where it is missing or of another type, so that a malformed file's error
// says which field instead of nlohmann's bare "type must be string".
[[noreturn]] void malformed_field(std::string_view key, const std::exception& e);
template <class T>
T json_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) throw std::runtime_error(std::string(key) + ": missing");
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception& e) {
    malformed_field(key, e);
  }
}
// The same with a fallback where the key is absent (nlohmann's value()).
template <class T>
T json_field_or(const nlohmann::json& j, const char* key, T fallback) {
  return j.contains(key) ? json_field<T>(j, key) : fallback;
}

// read() of a record's member object `section`: an error in it names the
// section before the field ("timing.median_s is null: ..."; "rank_timing: the key
// 'calls' is missing" where the section's reader met nlohmann's own error).
template <class Read>
auto json_section(const char* section, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {  // nlohmann's words are reworded (issue 66: "type must be" reached users)
    throw std::runtime_error(std::string(section) + ": " + json_error_text(e));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(section) + "." + e.what());
  }
}

// What a file pico wrote must hold, read by `read` (which walks its JSON with
// at(), get<>() and the like): a key missing or of the wrong type, in a file
// that was cut short or edited, is an InputError naming the file instead of
// nlohmann's or the standard library's text ("map::at").
[[noreturn]] void malformed_file(const std::string& path, const std::exception& e);
template <class Read>
auto reading_file(const std::string& path, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    malformed_file(path, e);
  }
}

}  // namespace pico
