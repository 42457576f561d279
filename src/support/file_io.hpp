// SPDX-License-Identifier: BSD-3-Clause
// Writing results files. A failed write is a WriteError that names the file
// and the system's reason (ENOSPC: "No space left on device"); pico exits
// with its own code for it (3, "could not write results"), apart from bad
// input (2), and still prints what it measured.
#pragma once

#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pico {

// pico's exit code when results could not be written (0 ok, 1 a case failed, 2 bad input).
inline constexpr int kWriteErrorExitCode = 3;

struct WriteError : std::runtime_error {
  WriteError(const std::string& path, int errno_value);  // "cannot write PATH: strerror"
};

// An open file descriptor, closed when it goes.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Writes text at fd's offset (the end, for O_APPEND) with one write(), so that
// concurrent appenders never interleave inside it; a short write (the disk
// filled up mid-text) is followed by one for the rest, to learn why. False,
// with errno set, when the text could not be written whole.
bool write_whole(int fd, std::string_view text);

// PATH holds exactly TEXT (created or truncated). Throws WriteError.
void write_text_file(const std::string& path, std::string_view text);

// A file written as a stream, for output too large to hold in memory (a
// schedule of 4,096 ranks is GBs of GOAL): created or truncated at
// construction (WriteError when it cannot be), written through a 64 KiB
// buffer by write_whole; finish() flushes and throws WriteError with the
// reason of the first write that failed.
class StreamedFile {
 public:
  explicit StreamedFile(const std::string& path);
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  std::ostream& stream() { return out_; }
  void finish();

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(int fd);
    int error() const { return error_; }

   protected:
    int_type overflow(int_type c) override;
    int sync() override;

   private:
    bool drain();
    int fd_;
    std::vector<char> data_;
    int error_ = 0;
  };
  std::string path_;
  FileDescriptor file_;
  Buffer buffer_;
  std::ostream out_;
};

// The whole of a small text file pico wrote (a launch log); "" when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace pico
