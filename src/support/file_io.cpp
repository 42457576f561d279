// SPDX-License-Identifier: BSD-3-Clause
#include "support/file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pico {

WriteError::WriteError(const std::string& path, int errno_value)
    : std::runtime_error("cannot write " + path + ": " + std::strerror(errno_value)) {}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

bool write_whole(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;  // write() promises progress or an error; never spin
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void write_text_file(const std::string& path, std::string_view text) {
  const FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (file.get() < 0 || !write_whole(file.get(), text)) throw WriteError(path, errno);
}

StreamedFile::Buffer::Buffer(int fd) : fd_(fd), data_(std::size_t{1} << 16) {
  setp(data_.data(), data_.data() + data_.size());
}

bool StreamedFile::Buffer::drain() {
  const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  if (!pending.empty() && error_ == 0 && !write_whole(fd_, pending)) error_ = errno;
  setp(data_.data(), data_.data() + data_.size());
  return error_ == 0;
}

StreamedFile::Buffer::int_type StreamedFile::Buffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int StreamedFile::Buffer::sync() { return drain() ? 0 : -1; }

StreamedFile::StreamedFile(const std::string& path)
    : path_(path),
      file_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)),
      buffer_(file_.get()),
      out_(&buffer_) {
  if (file_.get() < 0) throw WriteError(path, errno);
}

void StreamedFile::finish() {
  out_.flush();
  if (buffer_.error() != 0) throw WriteError(path_, buffer_.error());
  if (!out_) throw WriteError(path_, EIO);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace pico
