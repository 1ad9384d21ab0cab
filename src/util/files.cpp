#include "util/files.hpp"

#include <functional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <vector>

namespace adrprobe {
namespace {

struct Parts {
  std::string dir, name;
};

Parts parts_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

std::string shown(std::string_view name) {
  return name.size() <= 48 ? std::string(name) : std::string(name.substr(0, 40)) + "…";
}

std::string symlink_problem(const std::string& path) {
  std::error_code ec;
  auto target = std::filesystem::read_symlink(path, ec);
  return "is a symbolic link" + (ec ? std::string() : " to " + target.string()) +
         ": adrprobe never writes through one (remove it, or give the path of a regular file)";
}

// Writes all of content to fd; false with errno set when it cannot.
bool write_all(int fd, std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// .adrprobe-<12 random letters and digits>.tmp: short, whatever the final
// name's length, and hidden, so no report stem (never starting with '.') has it.
std::string temporary_name() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  static constexpr char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out = ".adrprobe-";
  for (int i = 0; i < 12; ++i) out += chars[random() % (sizeof chars - 1)];
  return out + ".tmp";
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + ": " + why);
}

}  // namespace

std::string write_problem(const std::string& path, NonRegular non_regular) {
  if (path.empty()) return "no file name";
  if (path.size() + 1 > max_path_bytes)
    return "the path is " + std::to_string(path.size()) + " bytes, more than the " + std::to_string(max_path_bytes - 1) +
           " a system call takes";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (end - start > max_file_name_bytes)
      return "the file name " + shown(std::string_view(path).substr(start, end - start)) + " is " +
             std::to_string(end - start) + " bytes, more than the " + std::to_string(max_file_name_bytes) +
             " a file system allows";
    start = end + 1;
  }
  auto [dir, name] = parts_of(path);
  if (name.empty() || name == "." || name == "..") return "names a directory, not a file";
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) return symlink_problem(path);
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (!S_ISREG(st.st_mode)) {
      if (non_regular == NonRegular::write_into && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return access(path.c_str(), W_OK) == 0 ? "" : "not writable";
      return "is not a regular file (a device, pipe or socket): adrprobe writes only regular files there";
    }
    // Replacing needs only the directory's permission; a file made read-only is kept as its owner wants.
    if (access(path.c_str(), W_OK) != 0) return "not writable";
  } else if (errno != ENOENT) {
    return std::strerror(errno);
  }
  // A regular file is replaced, a new one created: both by a file made in the directory.
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "the directory " + dir + " does not exist";
  if (access(dir.c_str(), W_OK | X_OK) != 0) return "cannot create a file in " + dir;
  return "";
}

void write_file(const std::string& path, std::string_view content, NonRegular non_regular) {
  write_file_from(path, [&](const Sink& sink) { sink(content); }, non_regular);
}

void write_file_from(const std::string& path, const std::function<void(const Sink&)>& produce, NonRegular non_regular) {
  // The pieces are gathered into writes of 64 KiB (a JSON report comes one
  // exchange at a time: a write each was 40,000 writes for 10,000 paths); the
  // first failure stops the writing.
  // The errno of a failed write is kept for the message: rendering the rest
  // of the report may change errno.
  int write_errno = 0;
  auto write_pieces = [&](int fd) {
    constexpr std::size_t chunk = 64 * 1024;
    std::string gathered;
    gathered.reserve(chunk);
    bool ok = true;
    auto write = [&](std::string_view text) {
      ok = write_all(fd, text);
      if (!ok) write_errno = errno;
    };
    produce([&](std::string_view piece) {
      if (!ok) return;
      if (gathered.size() + piece.size() > chunk) {
        write(gathered);
        gathered.clear();
      }
      if (!ok) return;
      if (piece.size() >= chunk) write(piece);
      else gathered += piece;
    });
    if (ok) write(gathered);
    if (!ok) errno = write_errno;
    return ok;
  };
  if (std::string problem = write_problem(path, non_regular); !problem.empty()) fail(path, problem);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    // write_problem let it through: a device or FIFO the user named. Opened
    // without following a link, without creating anything, and without
    // waiting for a reader a FIFO may never get.
    int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail(path, errno == ENXIO ? "a pipe nobody reads" : std::strerror(errno));
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    bool ok = write_pieces(fd);
    int error = errno;
    if (::close(fd) != 0 && ok) ok = false, error = errno;
    if (!ok) fail(path, std::strerror(error));
    return;
  }
  // mkstemp would do the naming, but makes the file 0600 whatever the umask
  // (and the umask cannot be read without changing it, which races with the
  // other threads of a batch): open(O_EXCL) with 0644 lets the kernel apply it.
  std::string dir = parts_of(path).dir;
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temporary = (dir == "/" ? "" : dir) + "/" + temporary_name();
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) fail(path, "cannot create a file in " + dir + ": " + std::strerror(errno));
  }
  if (fd < 0) fail(path, "cannot create a file in " + dir + ": " + std::strerror(EEXIST));
  bool ok = write_pieces(fd) && ::fsync(fd) == 0;
  int error = errno;
  if (::close(fd) != 0 && ok) ok = false, error = errno;
  // rename() replaces the name itself: a link planted since the check above
  // is replaced, never followed.
  if (ok && ::rename(temporary.c_str(), path.c_str()) != 0) ok = false, error = errno;
  if (!ok) {
    ::unlink(temporary.c_str());
    fail(path, std::strerror(error));
  }
}

std::string file_inside_problem(const std::string& dir, const std::string& relative) {
  if (relative.empty()) return "no file name";
  if (relative.front() == '/') return "an absolute path";
  if (relative.find(':') != std::string::npos) return "a URL or a drive, not a file name";
  if (relative.find('\\') != std::string::npos) return "a backslash, not a file name";
  std::size_t start = 0;
  while (start <= relative.size()) {
    std::size_t end = relative.find('/', start);
    if (end == std::string::npos) end = relative.size();
    std::string_view segment = std::string_view(relative).substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return "a path that leaves or restates its directory";
    if (segment.size() > max_file_name_bytes) return "a file name longer than a file system allows";
    start = end + 1;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path base = fs::canonical(dir, ec);
  if (ec) return "the directory cannot be read";
  fs::path file = fs::canonical(base / relative, ec);
  if (ec) return "no such file";
  // Links followed: the file itself must be under the directory.
  auto [mismatch, _] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (mismatch != base.end() || file == base) return "a link that leads out of the directory";
  if (!fs::is_regular_file(file, ec)) return "not a regular file";
  return "";
}

}  // namespace adrprobe
