// Text kept deflated (zlib) while a run does not read it, and read back as a stream.
#pragma once
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

namespace adrprobe {

// text deflated at zlib's fastest level (a 15 MB description document of
// repeated shapes is 0.7 MB, in 26 ms), or "" when zlib fails.
std::string deflate_text(std::string_view text);

// An istream over what deflate_text() made, inflated 64 KiB at a time: the
// text is never whole in memory again. It seeks back to its start only. What does not inflate (a damaged
// input) ends the stream there, and damaged() says so.
class InflatedStream : public std::istream {
 public:
  // deflated is read as the stream is: it must outlive the stream.
  explicit InflatedStream(const std::string& deflated);
  explicit InflatedStream(std::string&&) = delete;
  ~InflatedStream() override;
  bool damaged() const;
  InflatedStream(const InflatedStream&) = delete;
  InflatedStream& operator=(const InflatedStream&) = delete;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
};

}  // namespace adrprobe
