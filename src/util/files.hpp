// Files written safely, and file names read from files others wrote.
//
// Every report and summary file adrprobe writes goes through write_file: an
// exclusive temporary file beside the final name, written, synced and renamed
// over it. A reader (a browser on summary.html, a Prometheus collector on
// summary.prom, tonight's batch on last night's baseline) never sees half a
// file, and nothing is ever written through a symbolic link: a final name
// that is one is refused, whoever gave it. --out-dir may be a volume that
// others write too (the Kubernetes template keeps one night after night), so
// a link planted there must not turn a report into an overwrite elsewhere.
//
// Decision: this holds for `check -o FORMAT=PATH` as well, although the user
// typed PATH. One rule is easier to trust than two, a link planted in a shared
// directory (/tmp, a CI workspace) looks the same as one made on purpose, and
// the message names where the link points, so giving that path instead is one
// edit. `-o FORMAT=-` is stdout. The only files written in place are the
// character devices and FIFOs a user names (/dev/null, a named pipe), which
// renaming would replace; names adrprobe chooses itself never are.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace adrprobe {

// The most bytes of one file name, and of a whole path (with its NUL), that
// every file system and system call adrprobe writes through accepts.
inline constexpr std::size_t max_file_name_bytes = 255;
inline constexpr std::size_t max_path_bytes = 4096;

// What to do when the final name exists and is a character device or a FIFO.
enum class NonRegular {
  refuse,      // names adrprobe chose (--out-dir): only regular files are replaced
  write_into,  // a path the user gave (-o): /dev/null, a named pipe; written, never replaced
};

// Why write_file(path) would fail, or "" when it would not: a file name over
// 255 bytes or a path over 4096, a directory that is missing or not writable,
// a final name that is a symbolic link ("is a symbolic link to T: adrprobe
// never writes through one"), a directory or another file that is not a
// regular one, a regular file that is not writable. Sends nothing and creates nothing: commands ask before their
// first request, so a run never probes for an hour and then cannot write.
std::string write_problem(const std::string& path, NonRegular non_regular = NonRegular::refuse);

// Writes `content` to `path`: a new file .adrprobe-XXXXXXXXXXXX.tmp in the
// same directory (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644 less the umask),
// written, fsync'd, then renamed over `path`. Throws std::runtime_error with
// write_problem's reason, or the system's, and leaves no temporary file behind.
void write_file(const std::string& path, std::string_view content, NonRegular non_regular = NonRegular::refuse);
// The same, with the content handed over piece by piece (a report written as
// it is rendered): `produce` calls the sink with each piece, in order.
using Sink = std::function<void(std::string_view)>;
void write_file_from(const std::string& path, const std::function<void(const Sink&)>& produce,
                     NonRegular non_regular = NonRegular::refuse);

// Whether `relative`, a file name read from a file someone else wrote (the
// report of a shard's summary.json), names a regular file inside `dir`: ""
// when it does, else why not. It must be relative (no leading '/', no scheme
// or drive, no backslash), have no empty, "." or ".." segment, and resolve,
// symbolic links followed, to an existing regular file under `dir`.
std::string file_inside_problem(const std::string& dir, const std::string& relative);

}  // namespace adrprobe
