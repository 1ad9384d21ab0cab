#include "util/deflate.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace adrprobe {

std::string deflate_text(std::string_view text) {
  z_stream z{};
  if (deflateInit(&z, Z_BEST_SPEED) != Z_OK) return {};
  // Room for what JSON usually deflates to (a fifth at most), grown below
  // when that is not enough: deflateBound's room, the text's size again,
  // would be written full of zeros beside the text first.
  std::string out;
  out.resize(text.size() / 5 + 64);
  // zlib counts in uInt: a text over 4 GiB goes in and out in parts.
  constexpr std::size_t kPart = std::numeric_limits<uInt>::max();
  std::size_t in_at = 0, out_at = 0;
  int rc = Z_OK;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  while (rc == Z_OK) {
    if (z.avail_in == 0 && in_at < text.size()) {
      z.avail_in = static_cast<uInt>(std::min(kPart, text.size() - in_at));
      in_at += z.avail_in;
    }
    if (out_at == out.size()) out.resize(out.size() * 2 + 64);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + out_at);
    z.avail_out = static_cast<uInt>(std::min(kPart, out.size() - out_at));
    uInt before = z.avail_out;
    rc = deflate(&z, in_at == text.size() ? Z_FINISH : Z_NO_FLUSH);
    out_at += before - z.avail_out;
    if (rc == Z_BUF_ERROR) rc = Z_OK;  // no progress possible until there is room: made above
  }
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return {};
  out.resize(out_at);
  out.shrink_to_fit();
  return out;
}

class InflatedStream::Buffer : public std::streambuf {
 public:
  explicit Buffer(const std::string& deflated) : deflated_(deflated), out_(64 * 1024) {
    ok_ = inflateInit(&z_) == Z_OK;
    from_start();
  }
  ~Buffer() override {
    if (ok_) inflateEnd(&z_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  bool damaged() const { return damaged_; }

 protected:
  // Back to the start only (a reader that looked for JSON and reads YAML
  // instead begins again): the text is inflated again from its beginning.
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
    if (off == 0 && dir == std::ios_base::beg) return seekpos(0, which);
    return pos_type(off_type(-1));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    if (pos != pos_type(0) || !(which & std::ios_base::in) || !ok_ || inflateReset(&z_) != Z_OK)
      return pos_type(off_type(-1));
    from_start();
    return pos;
  }

  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    while (ok_ && !ended_) {
      if (z_.avail_in == 0 && left_ > 0) {
        z_.avail_in = static_cast<uInt>(std::min<std::size_t>(left_, std::numeric_limits<uInt>::max()));
        left_ -= z_.avail_in;
      }
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      int rc = inflate(&z_, Z_NO_FLUSH);
      std::size_t got = out_.size() - z_.avail_out;
      if (rc == Z_STREAM_END) ended_ = true;
      else if (rc != Z_OK && !(rc == Z_BUF_ERROR && got > 0)) ended_ = damaged_ = true;
      else if (got == 0 && z_.avail_in == 0 && left_ == 0) ended_ = damaged_ = true;  // cut short
      if (got > 0) {
        setg(out_.data(), out_.data(), out_.data() + got);
        return traits_type::to_int_type(*gptr());
      }
    }
    if (!ok_) damaged_ = true;
    return traits_type::eof();
  }

 private:
  void from_start() {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated_.data()));
    z_.avail_in = 0;
    left_ = deflated_.size();
    ended_ = damaged_ = false;
    setg(nullptr, nullptr, nullptr);
  }

  const std::string& deflated_;
  z_stream z_{};
  std::vector<char> out_;
  std::size_t left_ = 0;
  bool ok_ = false, ended_ = false, damaged_ = false;
};

InflatedStream::InflatedStream(const std::string& deflated)
    : std::istream(nullptr), buffer_(std::make_unique<Buffer>(deflated)) {
  rdbuf(buffer_.get());
}

InflatedStream::~InflatedStream() = default;

bool InflatedStream::damaged() const { return buffer_->damaged(); }

}  // namespace adrprobe
