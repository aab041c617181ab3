// clatomics/view.hpp — a typed range of a device buffer.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <CL/opencl.hpp>

namespace clatomics {

struct half_t;      // IEEE binary16 on ushort storage (scatter.hpp)
struct bfloat16_t;  // bfloat16 on ushort storage (scatter.hpp)

namespace detail {
template <class T>
constexpr bool is_view_element_v =
    std::is_same_v<T, cl_char> || std::is_same_v<T, cl_uchar> || std::is_same_v<T, cl_short> || std::is_same_v<T, cl_ushort> ||
    std::is_same_v<T, cl_int> || std::is_same_v<T, cl_uint> || std::is_same_v<T, cl_long> || std::is_same_v<T, cl_ulong> ||
    std::is_same_v<T, cl_float> || std::is_same_v<T, cl_double> || std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
}  // namespace detail

// Elements [offset, offset + count) of a buffer, as elements of T. A cl::Buffer carries no element
// type: the algorithms that take views deduce their types from them, so a buffer of one type is
// never read as another by mistake, and their arguments are a handful instead of a dozen. Made
// from any buffer the library accepts (the caller's, a sub-buffer, CL_MEM_USE_HOST_PTR memory);
// the range is checked against the buffer when an algorithm runs, before anything is enqueued.
template <class T>
class View {
  static_assert(detail::is_view_element_v<T>,
                "clatomics::View<T>: T must be an OpenCL scalar type (cl_char .. cl_ulong, cl_float, cl_double) or "
                "clatomics::half_t / bfloat16_t");

 public:
  using value_type = T;
  View() = default;
  View(cl::Buffer buffer, std::size_t offset, std::size_t count) : buffer_(std::move(buffer)), offset_(offset), count_(count) {}

  const cl::Buffer& buffer() const noexcept { return buffer_; }
  cl_mem handle() const noexcept { return buffer_(); }
  std::size_t offset() const noexcept { return offset_; }  // in elements
  std::size_t count() const noexcept { return count_; }
  std::size_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }

  // Elements [first, first + n) of this view; std::out_of_range past its end.
  View sub(std::size_t first, std::size_t n) const {
    if (first > count_ || n > count_ - first)
      throw std::out_of_range("clatomics::View::sub(" + std::to_string(first) + ", " + std::to_string(n) + ") of a view of " +
                              std::to_string(count_) + " elements");
    return View(buffer_, offset_ + first, n);
  }

 private:
  cl::Buffer buffer_;
  std::size_t offset_ = 0, count_ = 0;
};

// view<float>(buffer, offset, count): elements [offset, offset + count) of buffer as floats.
template <class T>
View<T> view(const cl::Buffer& buffer, std::size_t offset, std::size_t count) {
  return View<T>(buffer, offset, count);
}

// view<float>(buffer): the whole buffer as floats. std::invalid_argument for a null buffer, or
// one whose size is not a whole number of elements (a buffer of another type, most likely).
template <class T>
View<T> view(const cl::Buffer& buffer) {
  std::size_t bytes = 0;
  if (!buffer() || clGetMemObjectInfo(buffer(), CL_MEM_SIZE, sizeof bytes, &bytes, nullptr) != CL_SUCCESS)
    throw std::invalid_argument("clatomics::view: a null or invalid buffer");
  if (bytes % sizeof(T) != 0)
    throw std::invalid_argument("clatomics::view: the buffer's " + std::to_string(bytes) + " bytes are not a whole number of " +
                                std::to_string(sizeof(T)) + "-byte elements");
  return View<T>(buffer, 0, bytes / sizeof(T));
}

namespace detail {
// std::invalid_argument when elements [offset, offset + count) overflow size_t or lie beyond the
// buffer (a null buffer is left to the call's own checks, which name it).
void require_range_in_buffer(const char* what, cl_mem buffer, std::size_t offset, std::size_t count, std::size_t element_size);
// The view's whole range: a call that uses fewer of its elements still checks the view it was given.
template <class T>
void require_view_in_buffer(const char* what, const View<T>& v) {
  require_range_in_buffer(what, v.handle(), v.offset(), v.count(), sizeof(T));
}
// std::invalid_argument unless the view holds at least n elements.
template <class T>
void require_view_holds(const char* what, const View<T>& v, std::size_t n) {
  if (v.count() < n)
    throw std::invalid_argument(std::string("clatomics: ") + what + ": the view holds " + std::to_string(v.count()) +
                                " elements, and " + std::to_string(n) + " are needed");
}
// std::invalid_argument unless the views are of the same length.
template <class A, class B>
void require_same_count(const char* what, const View<A>& a, const View<B>& b) {
  if (a.count() != b.count())
    throw std::invalid_argument(std::string("clatomics: ") + what + ": views of " + std::to_string(a.count()) + " and " +
                                std::to_string(b.count()) + " elements; they must be of the same length");
}
}  // namespace detail

}  // namespace clatomics
