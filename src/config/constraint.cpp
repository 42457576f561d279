// SPDX-License-Identifier: BSD-3-Clause
#include "config/constraint.hpp"

#include <cctype>
#include <set>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace pico {

// A parsed expression: a number, a variable, a function call, or an operator over children.
struct Constraint::Node {
  enum class Kind { number, variable, call, unary, binary } kind;
  std::int64_t number = 0;
  std::string name;  // variable, function or operator
  std::vector<std::shared_ptr<const Node>> children;
};

namespace {

using NodePtr = std::shared_ptr<const Constraint::Node>;
using Kind = Constraint::Node::Kind;

const std::set<std::string> kVariables{"np", "count", "dtype_size", "bytes", "in_place", "commutative",
                                       "segment_size", "np_pow2", "floating", "op_sum", "bits",
                                       "nodes",       "ppn",           "ppn_balanced", "node_consecutive"};
const std::set<std::string> kFunctions{"power_of_two", "even"};

// Recursive descent, lowest precedence first.
class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr parse() {
    NodePtr n = parse_or();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("constraint '{}': {} at column {}", text_, what, pos_ + 1));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }
  static NodePtr binary(std::string op, NodePtr a, NodePtr b) {
    return std::make_shared<Constraint::Node>(Constraint::Node{Kind::binary, 0, std::move(op), {a, b}});
  }

  NodePtr parse_or() {
    NodePtr n = parse_and();
    while (accept("||")) n = binary("||", n, parse_and());
    return n;
  }
  NodePtr parse_and() {
    NodePtr n = parse_comparison();
    while (accept("&&")) n = binary("&&", n, parse_comparison());
    return n;
  }
  NodePtr parse_comparison() {
    NodePtr n = parse_sum();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"})
      if (accept(op)) return binary(op, n, parse_sum());
    return n;
  }
  NodePtr parse_sum() {
    NodePtr n = parse_product();
    for (;;) {
      if (accept("+")) n = binary("+", n, parse_product());
      else if (accept("-")) n = binary("-", n, parse_product());
      else return n;
    }
  }
  NodePtr parse_product() {
    NodePtr n = parse_unary();
    for (;;) {
      if (accept("*")) n = binary("*", n, parse_unary());
      else if (accept("/")) n = binary("/", n, parse_unary());
      else if (accept("%")) n = binary("%", n, parse_unary());
      else return n;
    }
  }
  NodePtr parse_unary() {
    if (accept("!")) return std::make_shared<Constraint::Node>(Constraint::Node{Kind::unary, 0, "!", {parse_unary()}});
    return parse_primary();
  }
  NodePtr parse_primary() {
    skip_space();
    if (accept("(")) {
      NodePtr n = parse_or();
      if (!accept(")")) fail("expected ')'");
      return n;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      std::int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) v = v * 10 + (text_[pos_++] - '0');
      return std::make_shared<Constraint::Node>(Constraint::Node{Kind::number, v, "", {}});
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    std::string word = text_.substr(start, pos_ - start);
    if (word.empty()) fail("expected a number, a variable or '('");
    if (accept("(")) {
      if (!kFunctions.contains(word)) fail(fmt::format("unknown function '{}'", word));
      NodePtr arg = parse_or();
      if (!accept(")")) fail("expected ')'");
      return std::make_shared<Constraint::Node>(Constraint::Node{Kind::call, 0, word, {arg}});
    }
    if (!kVariables.contains(word)) fail(fmt::format("unknown variable '{}'", word));
    return std::make_shared<Constraint::Node>(Constraint::Node{Kind::variable, 0, word, {}});
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

std::int64_t evaluate(const Constraint::Node& n, const ConstraintVariables& vars) {
  switch (n.kind) {
    case Kind::number: return n.number;
    case Kind::variable: {
      auto it = vars.find(n.name);
      if (it == vars.end()) throw std::invalid_argument("constraint variable '" + n.name + "' has no value");
      return it->second;
    }
    case Kind::call: {
      const std::int64_t x = evaluate(*n.children[0], vars);
      if (n.name == "power_of_two") return x > 0 && (x & (x - 1)) == 0;
      return x % 2 == 0;  // even
    }
    case Kind::unary: return !evaluate(*n.children[0], vars);
    case Kind::binary: break;
  }
  const std::int64_t a = evaluate(*n.children[0], vars);
  if (n.name == "&&") return a && evaluate(*n.children[1], vars);
  if (n.name == "||") return a || evaluate(*n.children[1], vars);
  const std::int64_t b = evaluate(*n.children[1], vars);
  if (n.name == "==") return a == b;
  if (n.name == "!=") return a != b;
  if (n.name == "<") return a < b;
  if (n.name == "<=") return a <= b;
  if (n.name == ">") return a > b;
  if (n.name == ">=") return a >= b;
  if (n.name == "+") return a + b;
  if (n.name == "-") return a - b;
  if (n.name == "*") return a * b;
  if (n.name == "%") return b == 0 ? 0 : a % b;
  return b == 0 ? 0 : a / b;  // "/"
}

}  // namespace

Constraint::Constraint(const std::string& expression) : expression_(expression), root_(Parser(expression).parse()) {}
Constraint::~Constraint() = default;
Constraint::Constraint(Constraint&&) noexcept = default;
Constraint& Constraint::operator=(Constraint&&) noexcept = default;
Constraint::Constraint(const Constraint&) = default;
Constraint& Constraint::operator=(const Constraint&) = default;

bool Constraint::holds(const ConstraintVariables& vars) const { return evaluate(*root_, vars) != 0; }

ConstraintVariables constraint_variables(int np, std::uint64_t count, std::size_t dtype_size, bool in_place,
                                         std::int64_t segment_size, bool floating, bool op_sum, std::int64_t bits) {
  std::int64_t pow2 = 1;
  while (pow2 * 2 <= np) pow2 *= 2;
  const auto n = static_cast<std::int64_t>(count);
  return {{"np", np},
          {"count", n},
          {"dtype_size", static_cast<std::int64_t>(dtype_size)},
          {"bytes", n * static_cast<std::int64_t>(dtype_size)},
          {"in_place", in_place ? 1 : 0},
          {"commutative", 1},
          {"segment_size", segment_size},
          {"np_pow2", pow2},
          {"floating", floating ? 1 : 0},
          {"op_sum", op_sum ? 1 : 0},
          {"bits", bits}};
}

}  // namespace pico
