#include "core/binary_cache.hpp"

#include <unistd.h>

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
  const char* dir = std::getenv("CLATOMICS_CACHE_DIR");
  return dir ? dir : "";
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
  } catch (const std::exception&) {
    // A binary that cannot be had or written only costs the next process a build.
  }
}

}  // namespace clatomics::detail

namespace clatomics::testing {
std::size_t binary_cache_loads() { return detail::loads.load(); }
}  // namespace clatomics::testing
