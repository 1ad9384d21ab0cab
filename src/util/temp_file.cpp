#include "util/temp_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace adrprobe {

std::string temp_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

TempFile::TempFile(std::string_view prefix, std::string_view content) {
  std::string dir = temp_dir();
  std::string name = dir;
  if (name.back() != '/') name += '/';
  name.append(prefix).append("XXXXXX");
  int fd = mkstemp(name.data());
  if (fd < 0) {
    throw std::runtime_error("cannot create a temporary file in " + dir + ": " + std::strerror(errno) +
                             " (TMPDIR names a writable directory)");
  }
  path_ = name;
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = errno;
      ::close(fd);
      std::remove(path_.c_str());
      throw std::runtime_error("cannot write the temporary file " + path_ + ": " + std::strerror(n < 0 ? error : EIO));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    int error = errno;
    std::remove(path_.c_str());
    throw std::runtime_error("cannot write the temporary file " + path_ + ": " + std::strerror(error));
  }
}

TempFile::~TempFile() { std::remove(path_.c_str()); }

}  // namespace adrprobe
