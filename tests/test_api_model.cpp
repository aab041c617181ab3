// Generated calls of the host API against a host model: random algorithms of the registry
// (algorithm_cases.hpp) with their own random arguments (ops, bins, ranges, options; valid and
// not), sizes, and for every operand a buffer made one of the ways a user makes them (device
// memory, host memory at any 4-byte alignment, sub-buffers, read-only, write-only, null, another
// context's) with a range in it or beyond it, on queues in order and out of order. Each call must
// either give the model's exact result (the entry's host reference) or throw
// std::invalid_argument before anything is enqueued; either way every buffer outside what the call
// may write keeps its bytes.
// CLATOMICS_MODEL_CALLS sets how many calls (default 200); CLATOMICS_MODEL_SEED the first seed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include "algorithm_cases.hpp"
#include "support.hpp"

namespace {

namespace alg = test::algorithms;

std::size_t env_number(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::size_t(std::strtoull(v, nullptr, 10)) : fallback;
}

// One operand's buffer as the generator made it, with what the model needs to know about it.
struct Made {
  alg::Range range;
  bool valid = true;           // the library must accept it in this operand's role
  bool readable_back = true;   // the test can read it back (not null, this context)
  std::vector<unsigned char> host;  // backing memory of CL_MEM_USE_HOST_PTR buffers
  alg::Bytes held;             // the whole buffer before the call
};

class Generator {
 public:
  Generator(clatomics::Runtime& rt, unsigned seed) : rt_(rt), gen_(seed) {}

  std::size_t pick(std::size_t n) { return std::size_t(gen_() % n); }
  bool chance(unsigned percent) { return pick(100) < percent; }
  std::mt19937_64& engine() { return gen_; }

  // A buffer for operand o holding bytes after some elements of filler, made one of the ways a
  // user makes buffers; the range is the bytes' own most of the time, else beyond the buffer.
  Made buffer(const alg::Operand& o, const alg::Bytes& bytes) {
    const std::size_t e = o.element_bytes, count = bytes.size() / e, lead = pick(41);
    Made m;
    m.held.assign(lead * e, 0x5A);
    m.held.insert(m.held.end(), bytes.begin(), bytes.end());
    m.held.resize(std::max(m.held.size() + e * pick(3), e), 0x5A);
    const std::size_t size = m.held.size();
    switch (pick(20)) {
      case 0:
      case 1:
      case 2: {  // the user's host memory at a random 4-byte alignment
        m.host.resize(size + 128);
        const std::size_t at = (64 - reinterpret_cast<std::uintptr_t>(m.host.data()) % 64) % 64 + 4 * pick(16);
        std::memcpy(m.host.data() + at, m.held.data(), size);
        m.range.buffer = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, m.host.data() + at);
        m.valid = (reinterpret_cast<std::uintptr_t>(m.host.data()) + at) % e == 0;
        break;
      }
      case 3:
      case 4: {  // a sub-buffer at the device's base alignment
        const std::size_t align = rt_.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
        alg::Bytes padded(align, 0x5A);
        padded.insert(padded.end(), m.held.begin(), m.held.end());
        cl::Buffer parent = test::to_device(rt_, padded);
        const cl_buffer_region region{align, size};
        m.range.buffer = parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
        break;
      }
      case 5:
      case 6: {  // flags that forbid one role
        const bool read_only = chance(50);
        m.range.buffer = cl::Buffer(rt_.context(), (read_only ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY) | CL_MEM_COPY_HOST_PTR, size, m.held.data());
        m.valid = read_only ? !o.written() : !o.read();
        break;
      }
      case 7:  // null
        m.valid = m.readable_back = false;
        break;
      case 8: {  // another context's
        static const cl::Context other(rt_.device());
        m.range.buffer = cl::Buffer(other, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, m.held.data());
        m.valid = m.readable_back = false;
        break;
      }
      default:
        m.range.buffer = test::to_device(rt_, m.held);
    }
    m.range.offset = lead, m.range.count = count;
    switch (pick(20)) {  // an offset beyond the buffer by one element, or one that wraps size_t
      case 0:
        m.range.offset = size / e - count + 1, m.valid = false;
        break;
      case 1:
        m.range.offset = std::numeric_limits<std::size_t>::max() - 1, m.valid = false;
        break;
      default:
        break;
    }
    return m;
  }

 private:
  clatomics::Runtime& rt_;
  std::mt19937_64 gen_;
};

}  // namespace

// Each file of tests/algorithms registers its entry from a static initialiser, which a link that
// drops the file (a static library's member nothing refers to) drops silently: every suite would
// then pass over fewer algorithms. CLATOMICS_TEST_ALGORITHM_NAMES: the files' names, sorted.
TEST_CASE("the registry holds the entry of every file of tests/algorithms") {
  std::string names;
  for (const alg::Algorithm& a : alg::registry()) names += (names.empty() ? "" : " ") + a.name;
  CHECK(names == CLATOMICS_TEST_ALGORITHM_NAMES);
}

TEST_CASE("generated calls: the model's exact result, or refused before anything runs") {
  auto& rt = test::runtime();
  std::optional<clatomics::Runtime> ooo;
  if (rt.device().getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    ooo.emplace(rt.context(), rt.device(), cl::CommandQueue(rt.context(), rt.device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  const std::size_t calls = env_number("CLATOMICS_MODEL_CALLS", 200);
  const unsigned seed0 = unsigned(env_number("CLATOMICS_MODEL_SEED", 1));
  std::vector<const alg::Algorithm*> algorithms;
  for (const alg::Algorithm& a : alg::registry())
    if (a.runs_on(rt)) algorithms.push_back(&a);
  std::size_t refused = 0, exact = 0;
  for (unsigned seed = seed0; seed < seed0 + calls; ++seed) {
    Generator g(rt, seed);
    clatomics::Runtime& on = ooo && g.chance(50) ? *ooo : rt;
    const alg::Algorithm& a = *algorithms[g.pick(algorithms.size())];
    const alg::Shape shape{g.pick(4) == 0 ? g.pick(9) : 1 + g.pick(6000), g.pick(6) == 0 ? 0 : 1 + g.pick(300)};
    const alg::Call call = a.random_call(g.engine());
    const alg::Contents contents = a.contents(shape, seed);
    std::vector<Made> made;
    made.reserve(a.operands.size());  // the host memory of CL_MEM_USE_HOST_PTR buffers stays where it is
    bool valid = call.valid;
    alg::Ranges ranges;
    for (std::size_t k = 0; k < a.operands.size(); ++k) {
      made.push_back(g.buffer(a.operands[k], contents[k]));
      ranges.push_back(made.back().range);
      valid = valid && (made.back().valid || !call.passes(k));
    }
    std::string where;
    for (std::size_t k = 0; k < made.size(); ++k)
      where += "; " + a.operands[k].name + ": offset " + std::to_string(made[k].range.offset) + ", count " +
               std::to_string(made[k].range.count) + (made[k].valid ? "" : " (refused)");
    INFO("seed " << seed << ": " << a.name << ": " << call.what << ", length " << shape.length << ", bins " << shape.bins << where);
    clatomics::ProfileScope enqueued;
    if (!valid) {
      CHECK_THROWS_AS(call.run(on, ranges, nullptr), std::invalid_argument);
      CHECK(enqueued.commands() == 0);
      ++refused;
    } else {
      call.run(on, ranges, &contents);
      ++exact;
    }
    // Nothing outside the ranges the call may write changed (nothing at all where it was refused):
    // inputs whole, what the device may write element by element.
    for (std::size_t k = 0; k < made.size(); ++k) {
      if (!made[k].readable_back) continue;
      INFO(a.operands[k].name << " afterwards");
      const alg::Bytes now = alg::read(rt, {made[k].range.buffer, 0, made[k].held.size()}, 1);
      const alg::Bytes& held = made[k].held;
      if (!a.operands[k].written()) {
        CHECK(now == held);
        continue;
      }
      const std::size_t e = a.operands[k].element_bytes, first = made[k].range.offset * e, end = first + made[k].range.count * e;
      for (std::size_t at = 0; at + e <= held.size(); at += e)
        if (!valid || at < first || at >= end) CHECK_MESSAGE(std::memcmp(now.data() + at, held.data() + at, e) == 0, "element " << at / e);
    }
  }
  MESSAGE(exact << " exact results, " << refused << " refusals");
  CHECK(refused > calls / 10);
  CHECK(exact > calls / 4);
}
