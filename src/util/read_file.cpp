#include "util/read_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace adrprobe {

namespace {

// Closes the descriptor when the read is done or throws.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

const char* file_type(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a plain file";
}

}  // namespace

std::string byte_size(std::size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

std::string read_file(const std::string& path, std::size_t max_bytes) {
  using Kind = ReadFileError::Kind;
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever,
  // before fstat could tell what it is. It changes nothing for a regular file.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) {
    int err = errno;
    throw ReadFileError(err == ENOENT ? Kind::missing : Kind::unreadable,
                        fmt::format("cannot read the file ({})", std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    throw ReadFileError(Kind::unreadable, fmt::format("cannot read the file ({})", std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    throw ReadFileError(Kind::not_regular, fmt::format("not a regular file ({})", file_type(st.st_mode)));
  if (static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw ReadFileError(Kind::too_large, "larger than " + byte_size(max_bytes));
  // The size may change while it is read (a file being written): the cap
  // holds on what is read, not on what fstat said.
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char chunk[64 * 1024];
  while (text.size() <= max_bytes) {
    std::size_t want = std::min(sizeof chunk, max_bytes + 1 - text.size());
    ssize_t got = ::read(f.fd, chunk, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw ReadFileError(Kind::unreadable, fmt::format("cannot read the file ({})", std::strerror(errno)));
    }
    if (got == 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
  }
  if (text.size() > max_bytes) throw ReadFileError(Kind::too_large, "larger than " + byte_size(max_bytes));
  return text;
}

}  // namespace adrprobe
