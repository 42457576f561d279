#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/file_io.hpp"
#include "core/jsonl.hpp"
#include "scratch_dir.hpp"

using pico::JsonLinesFile;
using pico::WriteError;
using pico::test::ScratchDir;

namespace {

// Files of this process may grow to `bytes` at most, as if the disk were full
// there (writes past it fail with EFBIG instead of killing the process).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    saved_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, saved_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  sighandler_t saved_handler_ = SIG_DFL;
};

}  // namespace

TEST_CASE("a JSON-lines append to a full device names the file and the reason", "[jsonl][io]") {
  JsonLinesFile full("/dev/full");
  REQUIRE_THROWS_WITH(full.append({{"case_id", "c1"}}), "cannot write /dev/full: No space left on device");
}

TEST_CASE("a JSON-lines append that fills the disk mid-line leaves the file as it was", "[jsonl][io]") {
  const ScratchDir dir("jsonl-full");
  const std::string path = dir.file("cases.jsonl");
  JsonLinesFile cases(path);
  cases.append({{"case_id", "c1"}});
  const std::string before = pico::read_text_file(path);
  {
    const FileSizeLimit limit(before.size() + 10);  // room for part of the next line only
    REQUIRE_THROWS_AS(cases.append({{"case_id", "c2"}, {"padding", std::string(100, 'x')}}), WriteError);
  }
  CHECK(pico::read_text_file(path) == before);
  cases.append({{"case_id", "c3"}});
  const auto records = pico::read_json_lines(path);
  REQUIRE(records.size() == 2);
  CHECK(records[1].at("case_id") == "c3");
}

TEST_CASE("a JSON-lines file ends a torn last line before appending", "[jsonl]") {
  const ScratchDir dir("jsonl-torn");
  const std::string path = dir.file("cases.jsonl");
  std::ofstream(path) << "{\"case_id\":\"c1\"}\n{\"case_id\":";
  JsonLinesFile(path).append({{"case_id", "c2"}});
  const auto records = pico::read_json_lines(path);
  REQUIRE(records.size() == 2);
  CHECK(records[1].at("case_id") == "c2");
}

TEST_CASE("write_text_file names the file and the reason when it cannot write", "[io]") {
  REQUIRE_THROWS_WITH(pico::write_text_file("/dev/full", "text"), "cannot write /dev/full: No space left on device");
  const ScratchDir dir("text-file");
  pico::write_text_file(dir.file("a.txt"), "first, longer text");
  pico::write_text_file(dir.file("a.txt"), "second");
  CHECK(pico::read_text_file(dir.file("a.txt")) == "second");
}
