// CUB's figures for the rows of `clatomics bench --suite algorithms`: for each row that CUB
// covers, the CUB call a CUDA user would pick instead, on data of the same size and distribution
// (the suite's own generator and seeds, so the same bits), timed with CUDA events.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/cub_yardsticks.cu -o cub_yardsticks
//   ./cub_yardsticks --size 1G --json cub.json
//   CLATOMICS_BENCH_ALGORITHMS_PEERS=cub.json clatomics bench --suite algorithms --size 1G
//
// The JSON's rows carry the suite's own fields (op, type, form, distribution, bins, bytes), so the
// suite adds each as a yardstick named "CUB" beside the read-only pass and plain C++. The same
// --size gives the same bytes; rows CUB cannot serve (weighted histograms: CUB's histograms count
// samples and take no weights) are listed under "skipped" with why.
#include "cub_harness.cuh"

namespace {

// ---- Results.

// One row of the suite that a CUB call serves: the suite's fields, and the call.
struct Row {
  std::string op, type, form, distribution;
  std::size_t bins, bytes;
  std::string call;
  double gbps;
};

struct Skip {
  std::string op, type, form, why;
};

struct Args {
  std::size_t size = std::size_t(256) << 20;  // the suite's default --size
  int repeats = 20, warmup = 3;
  std::string json;
};

// 4096, 64K, 256M, 1G, 1GiB: powers of 1024, as the suite's --size.
bool parse_size(const std::string& text, std::size_t& out) {
  std::size_t pos = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  if (pos == 0 || pos > 15) return false;
  std::size_t value = std::stoull(text.substr(0, pos));
  std::string unit = text.substr(pos);
  if (unit == "B" || unit == "iB") unit.clear();
  if (unit.size() > 1 && (unit.substr(1) == "iB" || unit.substr(1) == "B")) unit = unit.substr(0, 1);
  const std::string units = "KMGT";
  if (!unit.empty()) {
    const auto u = units.find(char(std::toupper(unit[0])));
    if (unit.size() != 1 || u == std::string::npos) return false;
    for (std::size_t k = 0; k <= u; ++k) value *= 1024;
  }
  out = value;
  return value > 0;
}

const char* usage =
    "usage: cub_yardsticks [--size BYTES] [--repeats N] [--warmup N] [--json FILE]\n"
    "  CUB's figures for the rows of `clatomics bench --suite algorithms` (give both the same --size):\n"
    "  --size BYTES  data size of each benchmark, as the suite's (default 256M; at most 2G less 64:\n"
    "                the item counts are CUB's int)\n"
    "  --repeats N   timed runs, the median is reported (default 20)\n"
    "  --warmup N    untimed runs first (default 3)\n"
    "  --json FILE   also write the rows as JSON, for CLATOMICS_BENCH_ALGORITHMS_PEERS\n";

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cub_yardsticks: %s needs a value\n%s", arg.c_str(), usage);
        std::exit(2);
      }
      return argv[++i];
    };
    const auto count = [&](int lo) {
      const std::string v = value();
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < lo || n > 1000) {
        std::fprintf(stderr, "cub_yardsticks: %s %s: not a count from %d to 1000\n", arg.c_str(), v.c_str(), lo);
        std::exit(2);
      }
      return int(n);
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (arg == "--size") {
      const std::string v = value();
      if (!parse_size(v, a.size)) {
        std::fprintf(stderr, "cub_yardsticks: --size %s: not a size in bytes (e.g. 4096, 64K, 256M, 1G)\n", v.c_str());
        std::exit(2);
      }
    } else if (arg == "--repeats") {
      a.repeats = count(1);
    } else if (arg == "--warmup") {
      a.warmup = count(0);
    } else if (arg == "--json") {
      a.json = value();
    } else {
      std::fprintf(stderr, "cub_yardsticks: unknown argument '%s'\n%s", arg.c_str(), usage);
      std::exit(2);
    }
  }
  return a;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

std::string text_or_null(const std::string& s) { return s.empty() ? "null" : json_string(s); }

// The rows in the fields of `clatomics bench --json` (a peer's figure is the row's "value",
// "yardstick" says whose), plus the call that ran.
void write_json(const std::string& path, const Args& a, const std::string& device, double read_only, const std::vector<Row>& rows,
                const std::vector<Skip>& skipped) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) fail("cannot write " + path);
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  std::fprintf(f, "{\n  \"tool\": \"cub_yardsticks\",\n  \"cub_version\": %d,\n  \"cuda_runtime\": %d,\n  \"device\": %s,\n", CUB_VERSION,
               runtime, json_string(device).c_str());
  std::fprintf(f, "  \"size\": %zu,\n  \"repeats\": %d,\n  \"warmup\": %d,\n  \"read_only_gbps\": %.6g,\n  \"rows\": [", a.size, a.repeats,
               a.warmup, read_only);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(f,
                 "%s\n    {\"suite\": \"algorithms\", \"op\": %s, \"type\": %s, \"form\": %s, \"distribution\": %s, \"bins\": %s, "
                 "\"bytes\": %zu, \"yardstick\": \"CUB\", \"call\": %s, \"value\": %.6g, \"unit\": \"GB/s\"}",
                 i ? "," : "", json_string(r.op).c_str(), json_string(r.type).c_str(), text_or_null(r.form).c_str(),
                 json_string(r.distribution).c_str(), r.bins ? std::to_string(r.bins).c_str() : "null", r.bytes,
                 json_string(r.call).c_str(), r.gbps);
  }
  std::fprintf(f, "\n  ],\n  \"skipped\": [");
  for (std::size_t i = 0; i < skipped.size(); ++i)
    std::fprintf(f, "%s\n    {\"op\": %s, \"type\": %s, \"form\": %s, \"why\": %s}", i ? "," : "", json_string(skipped[i].op).c_str(),
                 json_string(skipped[i].type).c_str(), text_or_null(skipped[i].form).c_str(), json_string(skipped[i].why).c_str());
  std::fprintf(f, "\n  ]\n}\n");
  if (std::fclose(f) != 0) fail("cannot write " + path);
}

// ---- The rows, each family a function: its data made on the device, CUB's call timed, the
// result checked against the host's.

// The sum over [0, n) of the counts, for the checks.
std::uint64_t total(const std::vector<int>& counts) {
  return host_sum<std::uint64_t>(counts.size(), [&](std::size_t b) { return std::uint64_t(counts[b]); });
}

// CUB's top edge is exclusive and it computes a float's bin without clamping it, so a value a
// rounding below the top may fall past the last bin: a millionth of `inside` may go missing.
bool counted(std::uint64_t got, std::uint64_t inside) { return got <= inside && got + inside / 1000000 + 16 >= inside; }

// reduce sum float (seed 1, [-1, 1)) and int (seed 2, random bits); dot of the two halves of one
// buffer (seed 3, [-1, 1)) as the sum of a[i] * b[i]. Returns the read-only pass over the floats.
double bench_sums(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 4, half = bytes / 8;
  double read_only = 0;
  {
    DeviceArray<float> x(n), sum(1);
    dev.uniform(x, 1, -1.0f, 1.0f);
    read_only = dev.read_only_gbps(x.get(), n * 4);
    Temp temp([&](std::size_t& b) { return cub::DeviceReduce::Sum(nullptr, b, x.get(), sum.get(), int(n)); });
    note("reduce sum float");
    const double gbps = dev.call_gbps(n * 4, x.get(), [&] {
      CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), temp.bytes(), x.get(), sum.get(), int(n)));
    });
    rows.push_back({"reduce sum", "float", "", "uniform", 0, n * 4, "DeviceReduce::Sum", gbps});
    const auto value = [](std::size_t i) { return double(uniform_float(1, i, -1.0f, 1.0f)); };
    const double ref = host_sum<double>(n, value), magnitude = host_sum<double>(n, [&](std::size_t i) { return std::fabs(value(i)); });
    require(std::fabs(double(sum.to_host()[0]) - ref) <= 1e-5 * magnitude + 1e-3, "reduce sum float");
  }
  {
    DeviceArray<std::uint32_t> bits(n);
    dev.bits(bits, 2);
    const int* x = reinterpret_cast<const int*>(bits.get());
    DeviceArray<int> sum(1);
    Temp temp([&](std::size_t& b) { return cub::DeviceReduce::Sum(nullptr, b, x, sum.get(), int(n)); });
    note("reduce sum int");
    const double gbps = dev.call_gbps(n * 4, x, [&] { CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), temp.bytes(), x, sum.get(), int(n))); });
    rows.push_back({"reduce sum", "int", "", "uniform", 0, n * 4, "DeviceReduce::Sum", gbps});
    const std::uint32_t ref = host_sum<std::uint32_t>(n, [](std::size_t i) { return random_u32(2, i); });  // wraps, as the device's
    require(std::uint32_t(sum.to_host()[0]) == ref, "reduce sum int");
  }
  {
    DeviceArray<float> ab(2 * half), dot(1);
    dev.uniform(ab, 3, -1.0f, 1.0f);
    const auto products = thrust::make_transform_iterator(thrust::make_counting_iterator<int>(0), Product{ab.get(), ab.get() + half});
    Temp temp([&](std::size_t& b) { return cub::DeviceReduce::Sum(nullptr, b, products, dot.get(), int(half)); });
    note("dot float");
    const double gbps = dev.call_gbps(2 * half * 4, ab.get(), [&] {
      CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), temp.bytes(), products, dot.get(), int(half)));
    });
    rows.push_back({"dot", "float", "", "uniform", 0, 2 * half * 4, "DeviceReduce::Sum of a[i] * b[i]", gbps});
    const auto product = [half](std::size_t i) {
      return double(uniform_float(3, i, -1.0f, 1.0f)) * double(uniform_float(3, half + i, -1.0f, 1.0f));
    };
    const double ref = host_sum<double>(half, product), magnitude = host_sum<double>(half, [&](std::size_t i) { return std::fabs(product(i)); });
    require(std::fabs(double(dot.to_host()[0]) - ref) <= 1e-5 * magnitude + 1e-3, "dot float");
  }
  return read_only;
}

// 256 bins of bytes: random (seed 4), or every byte 200.
void bench_byte_histograms(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  for (const bool one_bin : {false, true}) {
    const std::string distribution = one_bin ? "one bin" : "uniform";
    DeviceArray<unsigned char> x(bytes);
    if (one_bin)
      CUDA_CHECK(cudaMemset(x.get(), 200, bytes));
    else
      dev.bytes(x, 4);
    DeviceArray<int> counts(256);
    const auto histogram = [&](void* temp, std::size_t& temp_bytes) {
      return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, x.get(), counts.get(), 257, 0, 256, int(bytes));
    };
    Temp temp([&](std::size_t& b) { return histogram(nullptr, b); });
    note("histogram 256 bins, " + distribution);
    const double gbps = dev.call_gbps(bytes, x.get(), [&] { CUDA_CHECK(histogram(temp.get(), temp.bytes())); });
    rows.push_back({"histogram", "uchar", "", distribution, 256, bytes, "DeviceHistogram::HistogramEven", gbps});
    std::vector<std::uint64_t> ref(256);
    if (one_bin)
      ref[200] = bytes;
    else
      for (std::size_t k = 0; k < bytes / 8; ++k) {  // a word at a time: bytes is a multiple of 64
        const std::uint64_t w = random_word(4, k);
        for (int j = 0; j < 8; ++j) ++ref[(w >> (8 * j)) & 255];
      }
    const auto got = counts.to_host();
    for (int b = 0; b < 256; ++b) require(std::uint64_t(got[b]) == ref[b], "histogram 256 bins, " + distribution);
  }
}

// Even bins over [0, 1] of values in [-0.05, 1.05), about 9% outside: 100, 1,000 and 10,000 float
// bins (seed 5), 100 bins of doubles (the floats of seed 7 widened).
void bench_even_histograms(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  {
    const std::size_t n = bytes / 4;
    DeviceArray<float> x(n);
    dev.uniform(x, 5, -0.05f, 1.05f);
    const std::uint64_t inside = host_sum<std::uint64_t>(n, [](std::size_t i) {
      const float v = uniform_float(5, i, -0.05f, 1.05f);
      return std::uint64_t(v >= 0.0f && v < 1.0f);
    });
    for (const int nbins : {100, 1000, 10000}) {
      DeviceArray<int> counts(nbins);
      const auto histogram = [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, x.get(), counts.get(), nbins + 1, 0.0f, 1.0f, int(n));
      };
      Temp temp([&](std::size_t& b) { return histogram(nullptr, b); });
      note("histogram_even " + std::to_string(nbins) + " bins");
      const double gbps = dev.call_gbps(n * 4, x.get(), [&] { CUDA_CHECK(histogram(temp.get(), temp.bytes())); });
      rows.push_back({"histogram_even", "float", "", "uniform", std::size_t(nbins), n * 4, "DeviceHistogram::HistogramEven", gbps});
      require(counted(total(counts.to_host()), inside), "histogram_even " + std::to_string(nbins) + " bins");
    }
  }
  {
    const std::size_t n = bytes / 8;
    DeviceArray<double> x(n);
    dev.uniform(x, 7, -0.05f, 1.05f);
    DeviceArray<int> counts(100);
    const auto histogram = [&](void* temp, std::size_t& temp_bytes) {
      return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, x.get(), counts.get(), 101, 0.0, 1.0, int(n));
    };
    Temp temp([&](std::size_t& b) { return histogram(nullptr, b); });
    note("histogram_even double 100 bins");
    const double gbps = dev.call_gbps(n * 8, x.get(), [&] { CUDA_CHECK(histogram(temp.get(), temp.bytes())); });
    rows.push_back({"histogram_even", "double", "", "uniform", 100, n * 8, "DeviceHistogram::HistogramEven", gbps});
    const std::uint64_t inside = host_sum<std::uint64_t>(n, [](std::size_t i) {
      const double v = uniform_float(7, i, -0.05f, 1.05f);
      return std::uint64_t(v >= 0.0 && v < 1.0);
    });
    require(counted(total(counts.to_host()), inside), "histogram_even double 100 bins");
  }
}

// 100 x 100 bins of (x, y), the two halves of one buffer (seed 9): one HistogramEven over the
// bin indices a transform iterator makes of them.
void bench_2d_histogram(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 8;
  DeviceArray<float> xy(2 * n);
  dev.uniform(xy, 9, -0.05f, 1.05f);
  const auto bins = thrust::make_transform_iterator(thrust::make_counting_iterator<int>(0), Bin2D{xy.get(), xy.get() + n});
  DeviceArray<int> counts(100 * 100);
  const auto histogram = [&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, bins, counts.get(), 10001, 0, 10000, int(n));
  };
  Temp temp([&](std::size_t& b) { return histogram(nullptr, b); });
  note("histogram2d_even 100x100");
  const double gbps = dev.call_gbps(2 * n * 4, xy.get(), [&] { CUDA_CHECK(histogram(temp.get(), temp.bytes())); });
  rows.push_back({"histogram2d_even", "float", "", "uniform", 100 * 100, 2 * n * 4, "DeviceHistogram::HistogramEven of x, y bin indices", gbps});
  const std::uint64_t inside = host_sum<std::uint64_t>(n, [n](std::size_t i) {
    const float u = uniform_float(9, i, -0.05f, 1.05f), v = uniform_float(9, n + i, -0.05f, 1.05f);
    return std::uint64_t(u >= 0.0f && u <= 1.0f && v >= 0.0f && v <= 1.0f);
  });
  require(total(counts.to_host()) == inside, "histogram2d_even");  // integer bins: exact
}

// 100 bins over the data's own range (seed 10, [-3, 5)): one min/max reduction, its two floats to
// the host (HistogramEven takes its levels there), then the histogram. The time is the two
// calls' device time, as the suite sums its commands', not the round trip between them.
void bench_range_histogram(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 4;
  DeviceArray<float> x(n);
  dev.uniform(x, 10, -3.0f, 5.0f);
  const auto pairs = thrust::make_transform_iterator(x.get(), ToMinMax{});
  const MinMax none{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  DeviceArray<MinMax> range(1);
  DeviceArray<int> counts(100);
  const auto reduce = [&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceReduce::Reduce(temp, temp_bytes, pairs, range.get(), int(n), MergeMinMax{}, none);
  };
  const auto histogram = [&](void* temp, std::size_t& temp_bytes, float lo, float top) {
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, x.get(), counts.get(), 101, lo, top, int(n));
  };
  Temp reduce_temp([&](std::size_t& b) { return reduce(nullptr, b); });
  Temp histogram_temp([&](std::size_t& b) { return histogram(nullptr, b, 0.0f, 1.0f); });  // any range sizes it
  note("histogram_even 100 bins, range from the data");
  const double gbps = dev.gbps(n * 4, x.get(), n * 4, [&] {
    const double reduce_ms = dev.ms([&] { CUDA_CHECK(reduce(reduce_temp.get(), reduce_temp.bytes())); });
    const MinMax r = range.to_host()[0];
    // The top edge is exclusive: the next float above the maximum keeps the maximum inside.
    const float top = std::nextafter(r.hi, std::numeric_limits<float>::infinity());
    return reduce_ms + dev.ms([&] { CUDA_CHECK(histogram(histogram_temp.get(), histogram_temp.bytes(), r.lo, top)); });
  });
  rows.push_back({"histogram_even", "float", "range from the data", "uniform", 100, n * 4,
                  "DeviceReduce::Reduce (min, max), then HistogramEven", gbps});
  require(counted(total(counts.to_host()), n), "histogram_even, range from the data");
}

// Compact x > 0.5 of [0, 1) (seed 6). CUB's select is stable; the suite's plain compact need not
// be, but a CUDA user has this one call for both, so its figure serves both rows.
void bench_compact(Device& dev, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 4;
  DeviceArray<float> x(n), out(n);
  dev.uniform(x, 6, 0.0f, 1.0f);
  DeviceArray<int> kept(1);
  const auto select = [&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceSelect::If(temp, temp_bytes, x.get(), out.get(), kept.get(), int(n), AboveHalf{});
  };
  Temp temp([&](std::size_t& b) { return select(nullptr, b); });
  note("compact float, half kept");
  const double gbps = dev.call_gbps(n * 4, x.get(), [&] { CUDA_CHECK(select(temp.get(), temp.bytes())); });
  rows.push_back({"compact", "float", "", "half kept", 0, n * 4, "DeviceSelect::If", gbps});
  rows.push_back({"compact", "float", "stable", "half kept", 0, n * 4, "DeviceSelect::If", gbps});
  const std::uint64_t ref = host_sum<std::uint64_t>(n, [](std::size_t i) { return std::uint64_t(uniform_float(6, i, 0.0f, 1.0f) > 0.5f); });
  require(std::uint64_t(kept.to_host()[0]) == ref, "compact float");
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) fail("no CUDA device");
  // Whole 64-byte multiples, as the suite's; int item counts (what CUB's calls took before
  // 64-bit offsets, and what a user passes), so at most INT_MAX bytes.
  const std::size_t bytes = args.size / 64 * 64;
  if (bytes < 64) fail("--size must be at least 64 bytes");
  if (bytes > std::size_t(INT_MAX)) fail("--size must be less than 2 GiB (CUB's int item counts)");

  Device dev(args.warmup, args.repeats);
  note(dev.name() + ", CUB " + std::to_string(CUB_VERSION) + ", " + std::to_string(bytes) + " bytes, median of " +
       std::to_string(args.repeats) + " after " + std::to_string(args.warmup));
  std::vector<Row> rows;
  const double read_only = bench_sums(dev, bytes, rows);
  bench_byte_histograms(dev, bytes, rows);
  bench_even_histograms(dev, bytes, rows);
  bench_2d_histogram(dev, bytes, rows);
  bench_range_histogram(dev, bytes, rows);
  bench_compact(dev, bytes, rows);
  const std::string no_weights = "CUB's histograms count samples: none takes a weight per sample";
  std::vector<Skip> skipped;
  for (const char* form : {"weighted", "4 weights", "4 weights, compensated", "4 weights, double sums"})
    skipped.push_back({"histogram_even", "float", form, no_weights});

  std::printf("CUB %d on %s, %zu bytes; read-only pass %.0f GB/s\n", CUB_VERSION, dev.name().c_str(), bytes, read_only);
  std::printf("%-52s %-10s %-52s %8s\n", "row of --suite algorithms", "data", "CUB call", "GB/s");
  for (const auto& r : rows) {
    const std::string name = r.op + " " + r.type + (r.form.empty() ? "" : ", " + r.form) + (r.bins ? ", " + std::to_string(r.bins) + " bins" : "");
    std::printf("%-52s %-10s %-52s %8.1f\n", name.c_str(), r.distribution.c_str(), r.call.c_str(), r.gbps);
  }
  for (const auto& s : skipped) std::printf("%-52s skipped: %s\n", (s.op + " " + s.type + ", " + s.form).c_str(), s.why.c_str());
  if (!args.json.empty()) {
    write_json(args.json, args, dev.name(), read_only, rows, skipped);
    note("wrote " + args.json);
  }
  return 0;
}
