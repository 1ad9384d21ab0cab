#!/usr/bin/env bash
# Every figure of issue 16 in one run, side by side with the peer tools, on
# loopback only:
#   - live: adrprobe check vs wrk (bench/nginx_wide.sh), 100/1,000/10,000
#     paths at concurrency 1, 4, 8 (the issue's) and 16 (CONCS), requests/s and
#     peak RSS, on the bare document and on one shaped like the real ones
#     (bench/real_oas.py), a row each;
#   - large document: adrprobe lint of the real-shaped 10,000-path document vs
#     python3's json.load of it (bench/lint_large.sh);
#   - batch: a 1,000-target register, two nights (bench/batch_memory.sh);
#   - lint: adrprobe lint vs Spectral with the official ruleset
#     (bench/lint_vs_spectral.sh, its default document);
#   - TLS: accepted suites and time vs sslscan and testssl
#     (bench/tls_suites_compare.sh).
#   bench/table.sh [build-dir] [runs]        (defaults: build 3)
# Prints the machine first (cores, CPU, load average): run it on a quiet
# machine, and paste its output into bench/results.md. Never a timed test.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
RUNS="${2:-3}"
echo "# adrprobe bench, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release; echo "$PRETTY_NAME"), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "adrprobe: $("$BUILD/adrprobe" --version | head -1), malloc $("$BUILD/adrprobe" --version | sed -n 's/^malloc: //p') ($(meson introspect "$BUILD" --buildoptions 2>/dev/null | /usr/bin/python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"))' 2>/dev/null || echo "?") build)"
status=0
section() {  # TITLE COMMAND...
  echo
  echo "## $1"
  echo
  shift
  "$@" || status=1
}
section "live: adrprobe check vs wrk (nginx, one worker)" env CONCS="${CONCS:-1 4 8 16}" bash bench/nginx_wide.sh "$BUILD" "$RUNS"
section "large document: adrprobe lint vs python3 json.load" env RUNS="$RUNS" ADRPROBE="$BUILD/adrprobe" bash bench/lint_large.sh 10000
section "batch: 1,000 targets, two nights" bash bench/batch_memory.sh "$BUILD" 1000 16
section "lint: adrprobe vs Spectral" env RUNS="$RUNS" ADRPROBE="$BUILD/adrprobe" bash bench/lint_vs_spectral.sh
section "geospatial: GeoJSON validation vs python3 json.load" bash bench/geojson_vs_python.sh 50 "$RUNS"
section "geospatial: a 50-collection OGC API" env ADRPROBE="$BUILD/adrprobe" bash bench/geo_collections.sh "$RUNS"
section "TLS: adrprobe vs sslscan and testssl" env ADRPROBE="$BUILD/adrprobe" bash bench/tls_suites_compare.sh
exit $status
