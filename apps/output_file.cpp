// Checking output paths up front and replacing files only with complete content.
#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "cli.hpp"

namespace clatomics::cli {

namespace fs = std::filesystem;

OutputFile::OutputFile(const std::string& command, const std::string& option, const std::string& path)
    : command_(command), option_(option), path_(path) {
  const auto refuse = [&](const std::string& why) {
    return UsageError(command, "cannot write " + option + " file '" + path + "': " + why);
  };
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec || target.filename().empty()) throw refuse("not a file name");
  target_ = target.string();
  const std::string dir = target.parent_path().string();
  if (!fs::is_directory(dir, ec)) throw refuse("no directory " + dir);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throw refuse(std::strerror(errno));
  const auto status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) throw refuse("not a regular file");
  if (fs::exists(status) && ::access(target_.c_str(), W_OK) != 0) throw refuse(std::strerror(errno));
}

void OutputFile::refuse_same_as(const OutputFile& other) const {
  if (wanted() && other.wanted() && target_ == other.target_)
    throw UsageError(command_, option_ + " '" + path_ + "' and " + other.option_ + " '" + other.path_ +
                                   "' name the same file; give each its own");
}

TempFile::TempFile(const OutputFile& output) : target_(output.target()) {
  const fs::path target(target_);
  std::string name = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  const int fd = ::mkstemp(buffer.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary file beside " + target_ + ": " + std::strerror(errno));
  path_ = buffer.data();
  // mkstemp makes it private (0600): give it the mode a new file would get, or the old file's.
  struct stat old {};
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, ::stat(target_.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~mask));
  ::close(fd);
}

TempFile::~TempFile() {
  if (!committed_) std::remove(path_.c_str());
}

void TempFile::write(const std::string& content) {
  FILE* f = std::fopen(path_.c_str(), "wb");
  const bool ok = f && std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0 &&
                  ::fsync(::fileno(f)) == 0;
  if (f && std::fclose(f) != 0) throw std::runtime_error("writing " + path_ + " failed");
  if (!ok) throw std::runtime_error("writing " + path_ + " failed: " + std::strerror(errno));
}

void TempFile::commit() {
  if (std::rename(path_.c_str(), target_.c_str()) != 0)
    throw std::runtime_error("cannot replace " + target_ + ": " + std::strerror(errno));
  committed_ = true;
}

void write_output(const OutputFile& output, const std::string& content) {
  TempFile temp(output);
  temp.write(content);
  temp.commit();
}

}  // namespace clatomics::cli
