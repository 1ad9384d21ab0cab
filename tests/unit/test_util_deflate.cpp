// util/deflate: text kept deflated, read back as a stream a chunk at a time.
#include <doctest/doctest.h>

#include <iterator>
#include <string>

#include "util/deflate.hpp"

using namespace adrprobe;

namespace {
std::string read_all(std::istream& in) { return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}; }

// 2 MB that does not compress to nothing: numbers and words in changing order.
std::string varied_text() {
  std::string s;
  unsigned x = 12345;
  while (s.size() < 2'000'000) {
    x = x * 1103515245u + 12345u;
    s += "{\"k" + std::to_string(x % 977) + "\": \"w\\u00e9" + std::to_string(x >> 7) + "\"},\n";
  }
  return s;
}
}  // namespace

TEST_CASE("deflate_text: read back whole, over many chunks of the stream") {
  std::string text = varied_text();
  std::string z = deflate_text(text);
  REQUIRE_FALSE(z.empty());
  CHECK(z.size() < text.size() / 2);
  InflatedStream in(z);
  CHECK(read_all(in) == text);  // 2 MB through 64 KiB chunks
  CHECK_FALSE(in.damaged());
}

TEST_CASE("deflate_text: an empty text, and a text of one byte") {
  for (std::string text : {std::string(), std::string("x")}) {
    std::string z = deflate_text(text);
    REQUIRE_FALSE(z.empty());  // zlib's header and end, even for nothing
    InflatedStream in(z);
    CHECK(read_all(in) == text);
    CHECK_FALSE(in.damaged());
  }
}

TEST_CASE("InflatedStream: damaged input ends the stream and says so") {
  std::string text = varied_text();
  std::string z = deflate_text(text);
  SUBCASE("cut short") {
    std::string cut = z.substr(0, z.size() / 2);
    InflatedStream in(cut);
    std::string got = read_all(in);
    CHECK(got.size() < text.size());
    CHECK(text.compare(0, got.size(), got) == 0);  // what came is the text's start
    CHECK(in.damaged());
  }
  SUBCASE("not deflated at all") {
    std::string plain = "{\"openapi\": \"3.0.3\"}";
    InflatedStream in(plain);
    CHECK(read_all(in).empty());
    CHECK(in.damaged());
  }
  SUBCASE("nothing") {
    std::string nothing;
    InflatedStream in(nothing);
    CHECK(read_all(in).empty());
    CHECK(in.damaged());
  }
}

TEST_CASE("InflatedStream: back to the start, and only there") {
  std::string text = varied_text();
  std::string z = deflate_text(text);
  InflatedStream in(z);
  std::string start(100000, '\0');
  in.read(start.data(), static_cast<std::streamsize>(start.size()));
  CHECK(start == text.substr(0, start.size()));
  in.clear();
  in.seekg(0);  // a reader that looked for JSON reads YAML instead from the start
  REQUIRE(in);
  CHECK(read_all(in) == text);
  CHECK_FALSE(in.damaged());
  in.clear();
  in.seekg(10);
  CHECK_FALSE(in);  // anywhere else: no
}
