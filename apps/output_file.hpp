// Output files that are either whole or untouched: checked before any work starts, written to a
// temporary file in the target's directory, and renamed over the target only once complete (a
// rename within one directory is atomic: a reader sees the old file or the new one, never a part).
#pragma once

#include <string>

namespace clatomics::cli {

// An output file a command will write, checked now: `option` ("--json") names it in messages.
// The path is resolved (symbolic links, "./x" and "x") so that two outputs naming one file can
// be told apart, and the link's target is what gets replaced. A missing or unwritable directory,
// a directory as the target, or an existing file that may not be written is a UsageError.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const std::string& command, const std::string& option, const std::string& path);

  bool wanted() const { return !path_.empty(); }
  const std::string& path() const { return path_; }      // as given
  const std::string& target() const { return target_; }  // resolved
  const std::string& option() const { return option_; }

  // Refuses (UsageError) when both name the same file.
  void refuse_same_as(const OutputFile& other) const;

 private:
  std::string command_, option_, path_, target_;
};

// A temporary file beside a target, removed when destroyed unless moved over the target.
class TempFile {
 public:
  explicit TempFile(const OutputFile& output);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  void write(const std::string& content);  // the whole content; throws on failure
  // Renames the temporary file over the target: the target is now whole and new.
  void commit();

 private:
  std::string path_, target_;
  bool committed_ = false;
};

// Writes content to output through a TempFile.
void write_output(const OutputFile& output, const std::string& content);

}  // namespace clatomics::cli
