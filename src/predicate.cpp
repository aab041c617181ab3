// Predicates: building the tree (clatomics/predicate.hpp).
#include "clatomics/predicate.hpp"

#include <stdexcept>
#include <string>

namespace clatomics {

// ---- Building ---------------------------------------------------------------------------------

namespace {

bool is_comparison(Predicate::Op op) {
  switch (op) {
    case Predicate::Op::less:
    case Predicate::Op::less_equal:
    case Predicate::Op::greater:
    case Predicate::Op::greater_equal:
    case Predicate::Op::equal:
    case Predicate::Op::not_equal:
      return true;
    default:
      return false;
  }
}

bool is_test(Predicate::Op op) {
  return op == Predicate::Op::is_nan || op == Predicate::Op::is_finite || op == Predicate::Op::is_inf;
}

}  // namespace

Predicate Predicate::compare(Op op, Value value) {
  if (!is_comparison(op)) throw std::invalid_argument("clatomics: predicate: compare takes one of the comparison ops");
  auto node = std::make_shared<Node>();
  node->op = op;
  node->a = value;
  return Predicate(std::move(node));
}

Predicate Predicate::test(Op op) {
  if (!is_test(op)) throw std::invalid_argument("clatomics: predicate: test takes is_nan, is_finite or is_inf");
  auto node = std::make_shared<Node>();
  node->op = op;
  return Predicate(std::move(node));
}

Predicate Predicate::range(Value lo, Value hi) {
  auto node = std::make_shared<Node>();
  node->op = Op::in_range;
  node->a = lo;
  node->b = hi;
  return Predicate(std::move(node));
}

Predicate Predicate::combine(Op op, const Predicate& l, const Predicate& r) {
  // Both sides hold at most max_leaves, so the sum cannot overflow. Repeats count: the shape's
  // text grows with every occurrence, shared or not.
  const std::size_t leaves = l.leaves() + r.leaves();
  if (leaves > max_leaves)
    throw std::invalid_argument("clatomics: predicate: " + std::to_string(leaves) + " comparisons and tests, more than the " +
                                std::to_string(max_leaves) + " allowed in one predicate");
  auto node = std::make_shared<Node>();
  node->op = op;
  node->left = l.root_;
  node->right = r.root_;
  node->leaves = leaves;
  return Predicate(std::move(node));
}

Predicate operator&&(const Predicate& l, const Predicate& r) { return Predicate::combine(Predicate::Op::all, l, r); }
Predicate operator||(const Predicate& l, const Predicate& r) { return Predicate::combine(Predicate::Op::any, l, r); }

Predicate operator!(const Predicate& p) {
  // !!p is p: negations never stack, so the tree's depth stays bounded by its leaves.
  if (p.root_->op == Predicate::Op::negation) return Predicate(p.root_->left);
  auto node = std::make_shared<Predicate::Node>();
  node->op = Predicate::Op::negation;
  node->left = p.root_;
  node->leaves = p.leaves();
  return Predicate(std::move(node));
}

}  // namespace clatomics
