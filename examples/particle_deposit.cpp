// particle_deposit: the charge deposit of a particle-in-cell code with clatomics::scatter_reduce.
//
// A million particles in a 2-D periodic grid of 256 x 256 cells (a dense blob plus a uniform
// background: some cells get hundreds of particles, some none) deposit their charge on the grid
// points with cloud-in-cell weights: a particle at (x, y), with i = floor(x), fx = x - i (and the
// same for y), gives q (1-fx)(1-fy) to point (i, j), q fx (1-fy) to (i+1, j), q (1-fx) fy to
// (i, j+1) and q fx fy to (i+1, j+1), indices wrapping around the grid.
//
//  1. A kernel of our own (built by Runtime::build) writes each particle's 4 (point, weight)
//     pairs to two device buffers: the indices and the values of a scatter.
//  2. clatomics::scatter_reduce(sum) adds those 4 million weights into the grid's charge
//     density, rho[point] += weight, straight from the device buffers.
//  3. The same in the deterministic mode, twice: bit-identical results on every run.
//
// Both are checked against a deposit on the host in double precision, from the same float
// positions. The stated bound for each grid point, the classic one for a float sum whose every
// term goes through at most d roundings: |rho - exact| <= d*u/(1 - d*u) * sum|weights|, with
// u = 2^-24 and d = 3 (a weight: 1 - fx, which may round below x = 1, and two products; x -
// floor(x) is exact) + n - 1 (the n weights of the point, summed in any order). The total charge
// is checked against the sum of the charges with d = 3 + (the most weights at one point) - 1.
// The deterministic mode sums exactly and rounds once: its error is far below the same bound.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

#include "clatomics/clatomics.hpp"
#include "clatomics/scatter.hpp"

#include "example_main.hpp"

namespace {

const char* const kernels = R"CLC(
#pragma OPENCL FP_CONTRACT OFF /* no fused multiply-adds: the roundings the bound counts */
kernel void cic_weights(global const float2 *pos, global const float *charge, uint n, uint nx, uint ny,
                        global uint *point, global float *weight) {
  const uint p = get_global_id(0);
  if (p >= n) return;
  const float2 r = pos[p];
  const float x0 = floor(r.x), y0 = floor(r.y);
  const float fx = r.x - x0, fy = r.y - y0, gx = 1.0f - fx, gy = 1.0f - fy, q = charge[p];
  const uint i0 = (uint)x0, j0 = (uint)y0;
  const uint i1 = i0 + 1 == nx ? 0 : i0 + 1, j1 = j0 + 1 == ny ? 0 : j0 + 1;
  point[4 * p + 0] = j0 * nx + i0;
  weight[4 * p + 0] = q * (gx * gy);
  point[4 * p + 1] = j0 * nx + i1;
  weight[4 * p + 1] = q * (fx * gy);
  point[4 * p + 2] = j1 * nx + i0;
  weight[4 * p + 2] = q * (gx * fy);
  point[4 * p + 3] = j1 * nx + i1;
  weight[4 * p + 3] = q * (fx * fy);
}
)CLC";

// A position wrapped into [0, n) (a float that rounds up to n becomes 0).
float wrap(double v, std::uint32_t n) {
  v = std::fmod(v, double(n));
  if (v < 0) v += n;
  const float f = float(v);
  return f >= float(n) ? 0.0f : f;
}

}  // namespace

int main() {
  return run_example("particle_deposit", [&]() -> Verdict {
    constexpr std::uint32_t nx = 256, ny = 256, particles = 1u << 20;
    constexpr std::size_t points = std::size_t(nx) * ny, pairs = 4 * std::size_t(particles);
    clatomics::Runtime rt;

    // Three quarters of the particles in a Gaussian blob (sigma 6 cells), a quarter uniform;
    // charges in [0.5, 1.5).
    std::vector<cl_float2> pos(particles);
    std::vector<float> charge(particles);
    std::mt19937 random(2024);
    std::normal_distribution<double> blob(0.0, 6.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (std::uint32_t p = 0; p < particles; ++p) {
      const bool background = p % 4 == 0;
      pos[p].s[0] = wrap(background ? unit(random) * nx : 100.3 + blob(random), nx);
      pos[p].s[1] = wrap(background ? unit(random) * ny : 60.7 + blob(random), ny);
      charge[p] = float(0.5 + unit(random));
    }

    // The host deposit, in double from the same float positions (exact weights, but for a
    // rounding of 2^-53); the sum of their magnitudes and their count for the bound.
    std::vector<double> exact(points), magnitude(points);
    std::vector<std::uint32_t> count(points);
    double total_charge = 0, total_magnitude = 0;
    for (std::uint32_t p = 0; p < particles; ++p) {
      const double x = pos[p].s[0], y = pos[p].s[1], x0 = std::floor(x), y0 = std::floor(y);
      const double fx = x - x0, fy = y - y0, gx = 1.0 - fx, gy = 1.0 - fy, q = charge[p];
      const std::uint32_t i0 = std::uint32_t(x0), j0 = std::uint32_t(y0);
      const std::uint32_t i1 = i0 + 1 == nx ? 0 : i0 + 1, j1 = j0 + 1 == ny ? 0 : j0 + 1;
      const std::size_t at[4] = {j0 * nx + i0, j0 * nx + i1, j1 * nx + i0, j1 * nx + i1};
      const double w[4] = {q * (gx * gy), q * (fx * gy), q * (gx * fy), q * (fx * fy)};
      for (int k = 0; k < 4; ++k) {
        exact[at[k]] += w[k];
        magnitude[at[k]] += std::fabs(w[k]);
        ++count[at[k]];
      }
      total_charge += q;
      total_magnitude += std::fabs(q);
    }
    std::uint32_t busiest = 0;
    for (std::size_t b = 0; b < points; ++b) busiest = std::max(busiest, count[b]);
    const double u = std::ldexp(1.0, -24);
    const auto bound = [&](double d, double sum_abs) { return d * u / (1 - d * u) * sum_abs; };
    const auto point_bound = [&](std::size_t b) { return bound(3.0 + std::max(1u, count[b]) - 1, magnitude[b]); };

    // 1. The weights, on the device.
    const cl::Program program = rt.build(kernels);
    cl::Kernel cic(program, "cic_weights");
    const cl::Buffer d_pos(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, particles * sizeof(cl_float2), pos.data());
    const cl::Buffer d_charge(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, particles * sizeof(float), charge.data());
    const cl::Buffer d_point(rt.context(), CL_MEM_READ_WRITE, pairs * sizeof(cl_uint));
    const cl::Buffer d_weight(rt.context(), CL_MEM_READ_WRITE, pairs * sizeof(float));
    const cl::Buffer d_rho(rt.context(), CL_MEM_READ_WRITE, points * sizeof(float));
    cic.setArg(0, d_pos);
    cic.setArg(1, d_charge);
    cic.setArg(2, particles);
    cic.setArg(3, nx);
    cic.setArg(4, ny);
    cic.setArg(5, d_point);
    cic.setArg(6, d_weight);
    rt.queue().enqueueNDRangeKernel(cic, cl::NullRange, cl::NDRange(particles));

    // 2. and 3. The deposit: rho starts at 0 (include_self = true adds onto it).
    const auto deposit = [&](bool deterministic, clatomics::ScatterResult& result) {
      rt.queue().enqueueFillBuffer(d_rho, 0.0f, 0, points * sizeof(float));
      clatomics::ScatterOptions options;
      options.deterministic = deterministic;
      result = clatomics::scatter_reduce(rt, clatomics::view<float>(d_rho, 0, points), clatomics::view<cl_uint>(d_point, 0, pairs),
                                         clatomics::view<float>(d_weight, 0, pairs), clatomics::ScatterOp::sum, options);
      std::vector<float> rho(points);
      rt.queue().enqueueReadBuffer(d_rho, CL_TRUE, 0, points * sizeof(float), rho.data());
      return rho;
    };
    // The largest error, and whether every point and the total are within their bounds.
    const auto judge = [&](const std::vector<float>& rho, double& max_error, double& total) {
      bool ok = true;
      max_error = 0;
      total = 0;
      for (std::size_t b = 0; b < points; ++b) {
        const double error = std::fabs(double(rho[b]) - exact[b]);
        max_error = std::max(max_error, error);
        ok = ok && error <= point_bound(b);
        total += rho[b];
      }
      // The total: the points' errors added up (their sums of magnitudes add up to the charges').
      return ok && std::fabs(total - total_charge) <= bound(3.0 + busiest - 1, total_magnitude);
    };

    std::cout << "particle_deposit: " << particles << " particles, " << nx << " x " << ny << " periodic grid, cloud-in-cell (4 points each)"
              << " on " << rt.device_info().caps.device_name << "\n"
              << "  " << pairs << " weights; the busiest grid point gets " << busiest << " of them\n";
    std::cout.precision(3);

    clatomics::ScatterResult fast_result;
    const std::vector<float> fast = deposit(false, fast_result);
    double fast_error = 0, fast_total = 0;
    const bool fast_ok = judge(fast, fast_error, fast_total);
    std::cout << "  fast:          max |error| " << fast_error << " (strategy " << clatomics::strategy_name(fast_result.strategy) << ")"
              << (fast_ok ? "" : "  OUTSIDE THE BOUND") << "\n";
    std::cout.precision(10);
    std::cout << "  total charge   " << fast_total << " (exact " << total_charge << ")\n";
    std::cout.precision(3);

    bool deterministic_ok = true;
    try {
      clatomics::ScatterResult first_result, second_result;
      const std::vector<float> first = deposit(true, first_result), second = deposit(true, second_result);
      double error = 0, total = 0;
      deterministic_ok = judge(first, error, total);
      const bool same = std::memcmp(first.data(), second.data(), points * sizeof(float)) == 0;
      std::cout << "  deterministic: max |error| " << error << " (strategy " << clatomics::strategy_name(first_result.strategy) << "), "
                << (same ? "bit-identical in 2 runs" : "DIFFERENT in 2 runs") << (deterministic_ok ? "" : "  OUTSIDE THE BOUND") << "\n";
      deterministic_ok = deterministic_ok && same;
    } catch (const std::invalid_argument& e) {  // no fp64 or 64-bit atomics on this device
      std::cout << "  deterministic: not available here (" << e.what() << ")\n";
    }

    // The largest bound of a point, as a figure to compare the errors with.
    double largest = 0;
    for (std::size_t b = 0; b < points; ++b) largest = std::max(largest, point_bound(b));
    std::cout << "  bound:         per point d*u/(1 - d*u) * sum|w|, d = n + 2 for its n weights, u = 2^-24 (largest: "
              << largest << ")\n";
    const bool pass = !(!fast_ok || !deterministic_ok);
    return Verdict{pass, pass ? "every point within its bound" : ""};
  });
}
