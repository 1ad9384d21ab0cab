#!/usr/bin/env bash
# A geospatial API of 50 collections (the OGC fixture of tests/integration/
# geo_fixture.py) judged with the Geospatial module at --rate 0 on loopback:
# the issue's target is 2 s. Figures, not a timed test.
#   bench/geo_collections.sh [RUNS]      (default 5; ADRPROBE=path to another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
bin="${ADRPROBE:-build/adrprobe}"
out="$(mktemp)"
/usr/bin/python3 tests/integration/geo_fixture.py ogc fifty-collections > "$out" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
url="$(head -1 "$out")"
best=""
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$bin" check "$url" --edition 2.2.0 --rate 0 -q -o json=/dev/null >/dev/null || true
  s=$(echo "$(date +%s.%N) - $start" | bc)
  printf 'run %d: %.2f s\n' "$i" "$s"
  if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
done
printf '50 collections, --rate 0: best %.2f s (target <= 2 s: %s)\n' "$best" "$([ "$(echo "$best <= 2" | bc)" = 1 ] && echo met || echo missed)"
