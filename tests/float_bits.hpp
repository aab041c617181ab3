// A float's or double's bits as an unsigned integer of its size, and back: exact comparisons
// (NaN payloads and -0 included) and JSON that carries every value.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace test {

template <class T>
auto bits(T value) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  U u;
  std::memcpy(&u, &value, sizeof u);
  return u;
}

template <class T>
T from_bits(std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t> u) {
  T value;
  std::memcpy(&value, &u, sizeof value);
  return value;
}

}  // namespace test
