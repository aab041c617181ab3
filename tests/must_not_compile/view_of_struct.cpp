// MUST NOT COMPILE: "T must be an OpenCL scalar type"
#include <clatomics/clatomics.hpp>
struct Point {
  float x, y;
};
void f(const cl::Buffer& b) { (void)clatomics::view<Point>(b, 0, 1); }
