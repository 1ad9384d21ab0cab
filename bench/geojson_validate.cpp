// Reads a file and validates it as a GeoJSON FeatureCollection with the
// checks' validator (src/geo/geojson): what GE-11 does with an items response.
// Built and run by bench/geojson_vs_python.sh; prints the seconds it took.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "geo/geojson.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: geojson_validate FILE\n"), 2;
  auto start = std::chrono::steady_clock::now();
  std::ifstream in(argv[1], std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto v = adrprobe::geo::validate_geojson(text, adrprobe::geo::Expect::feature_collection);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.3f %zu %s\n", s, v.features, v.fault ? v.fault->what.c_str() : "valid");
  return 0;
}
