// geo/crs: CRS names compared as module-geo.md says, and the CRS list read
// within bounds.
#include <doctest/doctest.h>

#include "geo/crs.hpp"

using namespace adrprobe::geo;
using json = nlohmann::ordered_json;

TEST_CASE("two names of one CRS: angle brackets, http or https, the version segment; nothing else") {
  CHECK(same_crs("<http://www.opengis.net/def/crs/OGC/1.3/CRS84>", kCrs84));
  CHECK(same_crs("https://www.opengis.net/def/crs/EPSG/0/28992", "http://www.opengis.net/def/crs/EPSG/0/28992"));
  CHECK(same_crs("http://www.opengis.net/def/crs/EPSG/9.6.2/28992", "http://www.opengis.net/def/crs/EPSG/0/28992"));
  CHECK(same_crs(" < http://WWW.opengis.net/def/crs/EPSG/0/28992 > ", "http://www.opengis.net/def/crs/EPSG/0/28992"));
  CHECK_FALSE(same_crs("http://www.opengis.net/def/crs/EPSG/0/28992", "http://www.opengis.net/def/crs/EPSG/0/4258"));
  CHECK_FALSE(same_crs("EPSG:28992", "http://www.opengis.net/def/crs/EPSG/0/28992"));
  CHECK_FALSE(same_crs("http://www.opengis.net/def/crs/epsg/0/28992", "http://www.opengis.net/def/crs/EPSG/0/28992"));
  CHECK(is_crs84(kCrs84h));
  CHECK(is_crs84("http://www.opengis.net/def/crs/OGC/0/CRS84"));
  CHECK_FALSE(is_crs84("http://www.opengis.net/def/crs/EPSG/0/4326"));
  CHECK(epsg_code("https://www.opengis.net/def/crs/EPSG/0/4258") == 4258);
  CHECK(epsg_code("http://www.opengis.net/def/crs/EPSG/0/x") == 0);
  CHECK(epsg_code(kCrs84) == 0);
  CHECK(content_crs_name("<http://www.opengis.net/def/crs/OGC/1.3/CRS84>") == kCrs84);
}

TEST_CASE("a crs list: URIs, the first entry that is none, and 10^6 entries kept within bounds") {
  CrsList good = read_crs_list(json::array({std::string(kCrs84), "http://www.opengis.net/def/crs/EPSG/0/28992", "#/crs"}));
  CHECK(good.total == 3);
  CHECK_FALSE(good.has_bad());
  CHECK(good.contains("https://www.opengis.net/def/crs/EPSG/9.6.2/28992"));
  CrsList bad = read_crs_list(json::array({std::string(kCrs84), "EPSG:28992", 5}));
  CHECK(bad.first_bad == 1);
  CHECK(bad.bad_text == "EPSG:28992");
  CHECK(read_crs_list(json::array({json::object()})).bad_text == "{}");
  CHECK(read_crs_list(json::array({std::string(5000, 'x')})).bad_text.size() <= 203);
  CHECK(read_crs_list(json("no array")).total == 0);
  json many = json::array();
  for (int i = 0; i < 1000000; ++i) many.push_back("http://www.opengis.net/def/crs/EPSG/0/" + std::to_string(i + 1));
  CrsList big = read_crs_list(many);
  CHECK(big.total == 1000000);
  CHECK(big.entries.size() == CrsList::kKeptEntries);
  CHECK(is_http_uri("https://x.example/a"));
  CHECK_FALSE(is_http_uri("http://"));
  CHECK_FALSE(is_http_uri("http:///a"));
  CHECK_FALSE(is_http_uri("http://a b"));
  CHECK_FALSE(is_http_uri("urn:ogc:def:crs:EPSG::28992"));
}
