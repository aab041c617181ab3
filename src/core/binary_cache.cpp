#include "core/binary_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/testing.hpp"

namespace clatomics::detail {
namespace {

constexpr char magic[8] = {'C', 'L', 'A', 'T', 'B', 'I', 'N', '1'};
std::atomic<std::size_t> loads{0};
std::atomic<std::uint64_t> limit{std::uint64_t(1) << 30};  // bytes of entries a directory keeps

// Keeps the directory's entries within the limit: the least recently used go first (a load
// touches its entry), down to three quarters of it, the newest always kept. Entries another
// process reads at that moment stay readable (it holds them open) or are built again.
void trim(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  struct Entry {
    fs::file_time_type used;
    fs::path path;
    std::uintmax_t bytes;
  };
  std::error_code error;
  std::vector<Entry> entries;
  std::uintmax_t total = 0;
  for (const auto& e : fs::directory_iterator(dir, error)) {
    if (e.path().extension() != ".bin") continue;
    const std::uintmax_t bytes = e.file_size(error);
    const fs::file_time_type used = error ? fs::file_time_type{} : e.last_write_time(error);
    if (error) continue;
    entries.push_back({used, e.path(), bytes});
    total += bytes;
  }
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (std::size_t k = 0; k + 1 < entries.size() && total > limit / 4 * 3; ++k)
    if (fs::remove(entries[k].path, error)) total -= entries[k].bytes;
}

// The entry's file name: a hash of the key (FNV-1a). Two keys of one name only share a file, as
// the key inside it decides whether it is used.
std::filesystem::path entry_path(const std::string& dir, const std::string& key) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : key) hash = (hash ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(hash));
  return std::filesystem::path(dir) / name;
}

void put_size(std::string& out, std::uint64_t size) { out.append(reinterpret_cast<const char*>(&size), sizeof size); }

bool take_size(const std::string& in, std::size_t& at, std::uint64_t& size) {
  if (in.size() - at < sizeof size) return false;
  std::memcpy(&size, in.data() + at, sizeof size);
  at += sizeof size;
  return true;
}

// The binary stored under key in file, or empty when the file is missing, short or of another key.
std::string read_entry(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t at = sizeof magic;
  std::uint64_t key_size = 0, binary_size = 0;
  if (bytes.size() < at || std::memcmp(bytes.data(), magic, sizeof magic) != 0) return {};
  if (!take_size(bytes, at, key_size) || bytes.size() - at < key_size || bytes.compare(at, key_size, key) != 0) return {};
  at += key_size;
  if (!take_size(bytes, at, binary_size) || bytes.size() - at != binary_size) return {};
  return bytes.substr(at);
}

}  // namespace

std::string binary_key(cl_device_id device, const std::string& source, const std::string& options) {
  const auto platform = info<cl_platform_id>(clGetDeviceInfo, device, CL_DEVICE_PLATFORM, "clGetDeviceInfo");
  std::ostringstream key;
  key << platform_text(platform, CL_PLATFORM_NAME) << '\n'
      << platform_text(platform, CL_PLATFORM_VERSION) << '\n'
      << device_text(device, CL_DEVICE_NAME) << '\n'
      << device_text(device, CL_DEVICE_VERSION) << '\n'
      << device_text(device, CL_DRIVER_VERSION) << '\n'
      << options << '\n'
      << source;
  return key.str();
}

std::string binary_cache_dir() {
  if (const char* dir = std::getenv("CLATOMICS_CACHE_DIR")) return dir;  // empty: no disk cache
  // Unset: the user's cache directory, where PoCL's and PyOpenCL's caches go too.
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/clatomics";
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.cache/clatomics" : "";
}

Program load_binary(const std::string& dir, const std::string& key, cl_context context, cl_device_id device, const std::string& options) {
  const std::string binary = read_entry(entry_path(dir, key), key);
  if (binary.empty()) return {};
  const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
  const std::size_t size = binary.size();
  cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
  Program program = Program::adopt(clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &binary_status, &status));
  if (status != CL_SUCCESS || binary_status != CL_SUCCESS) return {};
  if (clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) return {};
  std::error_code error;
  std::filesystem::last_write_time(entry_path(dir, key), std::filesystem::file_time_type::clock::now(), error);  // used now
  ++loads;
  return program;
}

void store_binary(const std::string& dir, const std::string& key, cl_program program) {
  try {
    const auto sizes = info_array<std::size_t>(clGetProgramInfo, program, CL_PROGRAM_BINARY_SIZES, "clGetProgramInfo");
    if (sizes.size() != 1 || sizes[0] == 0) return;  // built for this one device only
    std::string binary(sizes[0], '\0');
    unsigned char* bytes = reinterpret_cast<unsigned char*>(binary.data());
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bytes, &bytes, nullptr), "clGetProgramInfo");
    std::string entry(magic, sizeof magic);
    put_size(entry, key.size());
    entry += key;
    put_size(entry, binary.size());
    entry += binary;

    std::error_code error;
    std::filesystem::create_directories(dir, error);
    const std::filesystem::path file = entry_path(dir, key);
    static std::atomic<unsigned> serial{0};
    std::filesystem::path temporary = file;
    temporary += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
    {
      std::ofstream out(temporary, std::ios::binary);
      out.write(entry.data(), std::streamsize(entry.size()));
      if (!out.flush()) {
        out.close();
        std::filesystem::remove(temporary, error);
        return;
      }
    }
    std::filesystem::rename(temporary, file, error);
    if (error) std::filesystem::remove(temporary, error);
    trim(dir);
  } catch (const std::exception&) {
    // A binary that cannot be had or written only costs the next process a build.
  }
}

}  // namespace clatomics::detail

namespace clatomics::testing {
std::size_t binary_cache_loads() { return detail::loads.load(); }
void set_binary_cache_limit(std::uint64_t bytes) { detail::limit = bytes ? bytes : std::uint64_t(1) << 30; }
}  // namespace clatomics::testing
