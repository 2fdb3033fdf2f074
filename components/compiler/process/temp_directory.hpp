// TempDirectory: a private directory (mkdtemp, mode 0700) under $TMPDIR (else /tmp) for one
// compilation, removed with everything in it when the object goes away, failures included.
//
// Ownership/thread-safety: one per compile() call, used by one thread; owns the directory.
#pragma once

#include <string>
#include <string_view>

namespace plexus::process_compiler {

class TempDirectory {
 public:
  TempDirectory();  // throws plexus::error(io) when no directory can be made
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::string& path() const { return path_; }
  // The absolute path of `relative` inside the directory.
  std::string file(std::string_view relative) const;
  // Writes `content` to `relative` (parent folders made as needed); false on failure.
  bool write(std::string_view relative, std::string_view content) const;
  // The bytes of `relative`; false when it cannot be read.
  bool read(std::string_view relative, std::string& content) const;

 private:
  std::string path_;
};

}  // namespace plexus::process_compiler
