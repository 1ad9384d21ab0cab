#!/usr/bin/env bash
# Reading plus validating a 50 MB GeoJSON FeatureCollection with the
# Geospatial checks' validator (src/geo/geojson.cpp, one pass, no tree) beside
# Python's json.load alone on the same file (issue: "no slower than
# python3 -c 'json.load'"). Figures, not a timed test.
#   bench/geojson_vs_python.sh [MB] [RUNS]      (defaults 50 and 3)
# Prints per run both times, each measured inside its process with the file's
# reading included (not the start-up), then the best of each and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
mb="${1:-50}"
runs="${2:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The validator alone, built from its sources (no meson target needed).
c++ -std=c++20 -O2 -DNDEBUG -Isrc -o "$work/validate" bench/geojson_validate.cpp src/geo/geojson.cpp src/geo/bbox.cpp \
  src/util/strings.cpp -lfmt

# Buildings as polygons of 41 positions, in the Netherlands, CRS84.
/usr/bin/python3 - "$work/fc.json" "$mb" <<'PY'
import json, random, sys
random.seed(1)
target = int(sys.argv[2]) * 1024 * 1024
with open(sys.argv[1], "w") as out:
    out.write('{"type":"FeatureCollection","features":[')
    n = size = 0
    while size < target:
        lon, lat = 4 + random.random() * 3, 51 + random.random() * 2
        ring = [[round(lon + 0.001 * i * (i % 3), 7), round(lat + 0.001 * (i % 5), 7)] for i in range(40)]
        ring.append(ring[0])
        f = {"type": "Feature", "id": "pand.%d" % n, "geometry": {"type": "Polygon", "coordinates": [ring]},
             "properties": {"naam": "Gebouw %d" % n, "bouwjaar": 1900 + n % 120}}
        s = ("," if n else "") + json.dumps(f, separators=(",", ":"))
        out.write(s)
        size += len(s)
        n += 1
    out.write("]}")
PY
printf 'file: %s MB\n' "$(( $(stat -c %s "$work/fc.json") / 1048576 ))"

python_time() {
  /usr/bin/python3 - "$1" <<'PY'
import json, sys, time
start = time.perf_counter()
with open(sys.argv[1]) as f:
    json.load(f)
print("%.3f" % (time.perf_counter() - start))
PY
}

best_v=999 best_p=999
printf '%-6s %-22s %-22s\n' run "validator (s)" "python json.load (s)"
for i in $(seq 1 "$runs"); do
  read -r v features verdict < <("$work/validate" "$work/fc.json")
  p="$(python_time "$work/fc.json")"
  printf '%-6s %-22s %-22s\n' "$i" "$v ($features features, $verdict)" "$p"
  best_v="$(echo "$v $best_v" | awk '{print ($1 < $2) ? $1 : $2}')"
  best_p="$(echo "$p $best_p" | awk '{print ($1 < $2) ? $1 : $2}')"
done
printf 'best: validator %s s, python json.load %s s, ratio %s\n' "$best_v" "$best_p" \
  "$(echo "$best_v $best_p" | awk '{printf "%.2f", $1 / $2}')"
