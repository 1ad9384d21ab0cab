// A private temporary file that is removed when it goes out of scope: the
// demo's CA certificate for the probing side (--ca-file reads a path).
#pragma once
#include <string>
#include <string_view>

namespace adrprobe {

// $TMPDIR when set and not empty, else /tmp: never the working directory, so
// `adrprobe demo` runs in an image whose root file system is read-only.
std::string temp_dir();

class TempFile {
 public:
  // Creates <temp_dir()>/<prefix>XXXXXX (mode 0600) holding `content`; throws
  // std::runtime_error naming the path and the reason when it cannot.
  TempFile(std::string_view prefix, std::string_view content);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace adrprobe
