// SPDX-License-Identifier: BSD-3-Clause
// Constraints of algorithms, written as data in the catalogues:
//   "count >= np", "power_of_two(np)", "np == 2", "!in_place", "count >= np_pow2 && commutative"
// Variables: np, count (elements per rank block), dtype_size, bytes (count x
// dtype_size), in_place (0/1), commutative (1 for every built-in op),
// segment_size (bytes; 0 when not set), np_pow2 (largest power of two <= np),
// bits (the compressed algorithms' `bits` parameter; 0 when not set), nodes
// (the nodes the ranks span), ppn (the most ranks one node holds),
// ppn_balanced (1 when every node holds as many ranks) and node_consecutive
// (1 unless ranks are dealt to several nodes in turn; the four from the
// platform's RankPlacement, set by the plan).
// Functions: power_of_two(x), even(x). Operators: || && ! == != < <= > >= + - * / % ( ).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace pico {

using ConstraintVariables = std::map<std::string, std::int64_t>;

class Constraint {
 public:
  // Throws std::invalid_argument with the position on a malformed expression
  // or an unknown variable/function.
  explicit Constraint(const std::string& expression);
  ~Constraint();
  Constraint(Constraint&&) noexcept;
  Constraint& operator=(Constraint&&) noexcept;
  Constraint(const Constraint& other);
  Constraint& operator=(const Constraint& other);

  bool holds(const ConstraintVariables& vars) const;
  const std::string& expression() const { return expression_; }

  struct Node;

 private:
  std::string expression_;
  std::shared_ptr<const Node> root_;
};

// The variables for one case. `floating` and `op_sum` are 1 for a
// floating-point datatype and for the sum operation (compressed allreduce
// needs both).
ConstraintVariables constraint_variables(int np, std::uint64_t count, std::size_t dtype_size, bool in_place,
                                         std::int64_t segment_size, bool floating = false, bool op_sum = false,
                                         std::int64_t bits = 0);

}  // namespace pico
