// Reading a file someone else may have written (an earlier report, a shard's
// summary.json, a register): regular files only, within a size cap, so a
// planted FIFO, /dev/zero or a huge file costs a message, not the machine.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace adrprobe {

class ReadFileError : public std::runtime_error {
 public:
  enum class Kind {
    missing,      // no such file (or a dangling symlink)
    not_regular,  // a directory, FIFO, socket or device
    too_large,    // more than the cap
    unreadable,   // any other failure (permissions, I/O)
  };
  ReadFileError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// The content of the regular file at `path` (a symlink is followed to the
// file it names), at most `max_bytes` of it: no more than max_bytes + 1 bytes
// are ever read, and a FIFO is never waited on. Throws ReadFileError with a
// reason that does not name the path ("cannot read the file (No such file or
// directory)", "not a regular file (a FIFO)", "larger than 256 MiB"): the
// caller says which file it is.
std::string read_file(const std::string& path, std::size_t max_bytes);

// A byte count for a message: "256 MiB", "4 KiB", "100 bytes".
std::string byte_size(std::size_t bytes);

}  // namespace adrprobe
