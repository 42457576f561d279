// SPDX-License-Identifier: BSD-3-Clause
// The schedule writers' text helpers: integers written as whole words, the
// memo that repeats them, and ranks formatted on threads but written in order.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectives/schedule_ordered.hpp"
#include "collectives/schedule_text.hpp"

using namespace pico::schedule_text;

namespace {

// Every power of ten and its neighbours, plus the extremes.
std::vector<std::uint64_t> edge_values() {
  std::vector<std::uint64_t> v{0, std::numeric_limits<std::uint64_t>::max()};
  for (std::uint64_t p = 1; p <= std::numeric_limits<std::uint64_t>::max() / 10; p *= 10) {
    for (std::uint64_t x : {p - 1, p, p + 1, 2 * p, 9 * p + (p - 1)}) v.push_back(x);
  }
  v.push_back(10000000000000000000u);
  return v;
}

std::string text_of(std::uint64_t v) {
  TextBuffer text;
  text.commit(put(text.room(kMaxDecimal), v));
  return std::string(text.view());
}

}  // namespace

TEST_CASE("integers are written as their decimal digits", "[schedule]") {
  for (std::uint64_t v : edge_values()) {
    INFO(v);
    CHECK(decimal_digits(v) == static_cast<int>(fmt::format("{}", v).size()));
    CHECK(text_of(v) == fmt::format("{}", v));
  }
  for (std::uint32_t x = 0; x < 100000000; x += 9973) {
    const std::uint64_t word = ascii8(x);
    CHECK(std::string(reinterpret_cast<const char*>(&word), 8) == fmt::format("{:08}", x));
  }
  TextBuffer text;
  char* p = put(text.room(kMaxDecimal), std::int64_t{-42});
  p = put(p, std::numeric_limits<std::int64_t>::min());
  text.commit(p);
  CHECK(text.view() == fmt::format("-42{}", std::numeric_limits<std::int64_t>::min()));
}

TEST_CASE("a decimal memo writes what put writes", "[schedule]") {
  DecimalMemo memo;
  TextBuffer text;
  std::string expected;
  for (std::uint64_t v : {7u, 7u, 12345u, 12345u, 99999999u, 100000000u, 100000000u, 7u, 0u}) {
    text.commit(memo.put(text.room(kMaxDecimal), v));
    expected += fmt::format("{}", v);
  }
  CHECK(text.view() == expected);
}

TEST_CASE("a text buffer grows and keeps what it holds", "[schedule]") {
  TextBuffer text;
  std::string expected;
  for (int i = 0; i < 100000; ++i) {
    char* p = put(text.room(kMaxDecimal + 1), static_cast<std::uint64_t>(i));
    *p++ = ' ';
    text.commit(p);
    expected += fmt::format("{} ", i);
  }
  CHECK(text.view() == expected);
  text.clear();
  CHECK(text.size() == 0);
}

TEST_CASE("ranks formatted on threads are written in rank order", "[schedule]") {
  for (int threads : {1, 2, 3, 8}) {
    for (int np : {1, 2, 5, 100}) {
      std::string out;
      format_ranks_in_order(
          np, threads,
          [](int, int rank, TextBuffer& text) {
            // Uneven sizes, so that workers finish out of order.
            for (int i = 0; i < (rank % 7) * 1000 + 1; ++i) {
              char* p = put(text.room(kMaxDecimal + 1), static_cast<std::uint64_t>(rank));
              *p++ = i == 0 ? ':' : '.';
              text.commit(p);
            }
            text.commit(put(text.room(1), "\n"));
          },
          [&](std::string_view text) { out.append(text); });
      std::string expected;
      for (int r = 0; r < np; ++r) {
        expected += fmt::format("{}:", r);
        for (int i = 1; i < (r % 7) * 1000 + 1; ++i) expected += fmt::format("{}.", r);
        expected += "\n";
      }
      INFO(fmt::format("threads={} np={}", threads, np));
      CHECK(out == expected);
    }
  }
}

TEST_CASE("an exception while formatting stops the run and is rethrown", "[schedule]") {
  for (int threads : {1, 2, 4}) {
    std::vector<int> written;
    auto run = [&] {
      format_ranks_in_order(
          1000, threads,
          [](int, int rank, TextBuffer& text) {
            if (rank == 37) throw std::logic_error("rank 37 is broken");
            text.commit(put(text.room(kMaxDecimal), static_cast<std::uint64_t>(rank)));
          },
          [&](std::string_view text) { written.push_back(std::stoi(std::string(text))); });
    };
    CHECK_THROWS_WITH(run(), "rank 37 is broken");
    REQUIRE(written.size() <= 37);
    for (std::size_t i = 0; i < written.size(); ++i) CHECK(written[i] == static_cast<int>(i));
  }
  CHECK_THROWS_AS(format_ranks_in_order(
                      10, 2, [](int, int, TextBuffer&) {},
                      [](std::string_view) { throw std::runtime_error("disk full"); }),
                  std::runtime_error);
}

TEST_CASE("labels read l<N> and next() counts up across every carry", "[schedule]") {
  auto text = [](const Label& l) {
    TextBuffer t;
    t.commit(l.write(t.room(16)));
    return std::string(t.view());
  };
  for (std::uint64_t v : edge_values()) {
    if (v >= 100000000000000u) continue;  // labels stay below 10^14
    INFO(v);
    CHECK(text(Label(v)) == fmt::format("l{}", v));
  }
  for (std::uint64_t start : {0ull, 95ull, 99990ull, 99999990ull, 999999999990ull, 9999999999990ull}) {
    Label l(start);
    for (std::uint64_t n = start + 1; n < start + 20; ++n) {
      l = l.next(n);
      INFO(n);
      CHECK(text(l) == fmt::format("l{}", n));
    }
  }
}

// Issue 53, finding 7: a replay's size estimate held a rank's whole text (2.6
// GB for one 1 TiB bcast), and one-thread writing held each rank whole.
TEST_CASE("a counting buffer weighs without holding, a draining one hands its text on in pieces", "[schedule]") {
  TextBuffer counting = TextBuffer::counting();
  for (int i = 0; i < 100000; ++i) counting.commit(put(counting.room(32), "0123456789\n"));
  CHECK(counting.size() == 1'100'000);
  CHECK(counting.view().empty());
  std::string sink;
  int pieces = 0;
  TextBuffer draining = TextBuffer::draining([&](std::string_view t) { sink += t, ++pieces; }, 1000);
  for (int i = 0; i < 500; ++i) draining.commit(put(draining.room(32), "0123456789\n"));
  draining.drain();
  CHECK(sink.size() == 5500);
  CHECK(draining.size() == 5500);
  CHECK(pieces == 6);  // every 1,000 bytes (91 lines), then the rest
  // One thread streams ranks in pieces; the text is the same as several threads write.
  const auto streamed = [](int threads) {
    std::string out;
    format_ranks_in_order(
        3, threads,
        [](int, int rank, TextBuffer& t) {
          for (int i = 0; i < 400000; ++i) t.commit(put(t.room(32), rank == 1 ? "rank one line\n" : "x\n"));
        },
        [&](std::string_view t) { out += t; });
    return out;
  };
  CHECK(streamed(1) == streamed(2));
  CHECK(streamed(1).size() == 400000u * (2 + 14 + 2));
}
