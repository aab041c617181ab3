// The library's algorithms as the cross-cutting suites see them (user buffers, bad input, the
// API model, kernel arguments): one entry per algorithm, so that a new algorithm is covered by
// every such suite once it has its entry: one file, tests/algorithms/<name>.cpp, that makes the
// entry and registers it (CLATOMICS_REGISTER_ALGORITHM); tests/CMakeLists.txt picks the file up.
//
// An entry describes its device operands (every view it takes, in the order the library checks
// them, with the name its refusals give), makes their contents for a call of a given shape, and
// calls the algorithm over ranges the suite chose (host memory at any alignment, sub-buffers,
// out-of-order queues, poisoned buffers...): with the contents given, it checks the exact result
// against the host's and that what the call must not write kept its bits; without, it only calls
// (the suite expects a refusal).
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"

namespace test::algorithms {

// What the device does with an operand: reads it, writes it, or both (out's own values take part,
// or atomics update it).
enum class Role { input, output, inout };

// How an operand's element count follows the call's shape (bins_plus_one: segment offsets, none
// when there are no segments).
enum class Extent { length, bins, bins_plus_one };

struct Operand {
  std::string name;  // as the library's refusals name it: "dot: b"
  Role role = Role::input;
  std::size_t element_bytes = 4;
  Extent extent = Extent::length;
  bool read() const { return role != Role::output; }
  bool written() const { return role != Role::input; }
};

// The sizes of one call: length elements of data (values, keys, positions, bytes) and bins (the
// rows of scatter_reduce's and segment_reduce's outputs).
struct Shape {
  std::size_t length = 0, bins = 0;
};

// An operand's element count for a shape; none where it overflows size_t.
std::optional<std::size_t> count_of(const Operand& operand, const Shape& shape);

// Where an operand lies: elements [offset, offset + count) of buffer, in its own element size.
struct Range {
  cl::Buffer buffer;
  std::size_t offset = 0, count = 0;
};
using Ranges = std::vector<Range>;
using Bytes = std::vector<unsigned char>;
// One per operand: an input's data, an output's contents before the call.
using Contents = std::vector<Bytes>;

// One way of calling an algorithm: its arguments beside the operands (op, options, bins).
struct Call {
  std::string what;
  bool valid = true;        // false: these arguments are refused whatever the operands
  unsigned leaves_out = 0;  // bit k: operand k is not passed (a histogram without weights)
  std::string says;         // a refused call: what its message must contain (the offending value)
  // The call over ranges (one per operand, in Algorithm::operands' order). With contents (what the
  // ranges held before it): checks the result and the outputs exactly. Without: only calls.
  std::function<void(clatomics::Runtime&, const Ranges&, const Contents*)> run;
  bool passes(std::size_t k) const { return !((leaves_out >> k) & 1u); }
};

struct Algorithm {
  std::string name;
  // In the order the library checks them: a refusal names the first bad one, so the bad-input
  // suite may leave operands after the one it makes bad invalid too.
  std::vector<Operand> operands;
  // Whether the algorithm runs on this device at all (null: everywhere).
  std::function<bool(const clatomics::Runtime&)> available;
  // The operands' contents for a call of this shape, varied by seed.
  std::function<Contents(const Shape&, unsigned seed)> contents;
  // The calls every suite makes: each valid, each checked exactly.
  std::vector<Call> calls;
  // Calls whose own arguments the library refuses whatever the operands (an op outside its enum,
  // bins it cannot make, views whose lengths do not fit together): std::invalid_argument naming
  // the entry point, before anything is enqueued.
  std::vector<Call> refusals;
  // A call as the API model draws it: other arguments, valid or not. The registry makes it draw
  // one of refusals now and then, and one of calls where an entry leaves it null.
  std::function<Call(std::mt19937_64&)> random_call;
  // Its double form over views of n elements of pools[k] for operand k (each pool holds at least
  // 8 n bytes), which a Runtime without fp64 refuses naming fp64_name (empty: no double form).
  std::string fp64_name;
  std::function<void(clatomics::Runtime&, const std::vector<cl::Buffer>& pools, std::size_t n)> fp64_call;
  // Calls that make every kernel of every program the algorithm builds on this device (every
  // strategy and path it can take), for test_kernel_args.
  std::function<void(clatomics::Runtime&)> reach_kernels;

  bool runs_on(const clatomics::Runtime& rt) const { return !available || available(rt); }
  // The call's shape where operand k holds count elements and the others take their defaults.
  Shape shape_with(std::size_t k, std::size_t count, Shape defaults) const;
};

// The entry of this name, its operands named as the refusals name them ("dot: b" from "b").
Algorithm algorithm_of(const std::string& name, std::vector<Operand> operands);

// Every algorithm of the library, one entry each, in the order of their names: the suites go over
// them (and the API model draws from them) in the same order whatever order the files' static
// initialisers ran in. Two entries of one name: std::logic_error, naming it.
const std::vector<Algorithm>& registry();

// Adds an entry to registry(), which makes it at its first call; the value is only there so that
// CLATOMICS_REGISTER_ALGORITHM can call it from a static initialiser.
bool register_algorithm(Algorithm (*make)());
// In an entry's file, at namespace scope: make (a function of that file) gives its entry. The
// file must be linked as an object file (a static library's member that nothing refers to is
// dropped, its registrar with it): tests/CMakeLists.txt does that for the suites that ask.
#define CLATOMICS_REGISTER_ALGORITHM(make) \
  [[maybe_unused]] static const bool clatomics_registered_##make = ::test::algorithms::register_algorithm(make)

// The length of a call that reads about n 4-byte words of data: more elements where the data
// are narrower (bytes: 4 n).
std::size_t length_for(const Algorithm& algorithm, std::size_t words);

// Every operand in device memory of its own holding its contents, the whole buffer its range.
Ranges on_device(const clatomics::Runtime& rt, const Algorithm& algorithm, const Contents& contents);

// Helpers for the entries and the suites.
template <class T>
clatomics::View<T> view(const Range& r) {
  return clatomics::view<T>(r.buffer, r.offset, r.count);
}
template <class T>
std::vector<T> as(const Bytes& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}
template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
// The count elements of element_bytes at r, read on rt's queue.
Bytes read(const clatomics::Runtime& rt, const Range& r, std::size_t element_bytes);
template <class T>
std::vector<T> read(const clatomics::Runtime& rt, const Range& r) {
  return as<T>(read(rt, r, sizeof(T)));
}

}  // namespace test::algorithms
