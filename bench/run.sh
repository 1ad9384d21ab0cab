#!/usr/bin/env bash
# Prints adrprobe's speed and memory figures on loopback fixture APIs.
#   bench/run.sh [build-dir]
# Figures: wall time, requests sent, requests/s and peak RSS for
#   - the built-in demo API (2 paths),
#   - a wide API with 250 documented paths, unlimited rate, concurrency 4 and 16,
#   - the same wide API at the default --rate 20 (the polite production setting),
#   - a 10 ms-per-response API (latency hides behind concurrency).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
BIN="$BUILD/adrprobe"
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "bench: build first (./dev build)" >&2; exit 2; }

servers=()
cleanup() { for p in "${servers[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

start_server() {  # N_PATHS DELAY_MS -> prints port
  local fifo
  fifo=$(mktemp -u)
  mkfifo "$fifo"
  $PY bench/wide_api.py "$1" "$2" >"$fifo" &
  servers+=($!)
  read -r port <"$fifo"
  rm -f "$fifo"
  echo "$port"
}

measure() {  # LABEL ARGS...
  local label=$1
  shift
  local out
  out=$(mktemp)
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$out.rss" "$BIN" "$@" -f json >"$out" 2>/dev/null || true
  end=$(date +%s.%N)
  $PY - "$label" "$start" "$end" "$out" "$out.rss" <<'PY'
import json, sys
label, start, end, report, rss = sys.argv[1:]
wall = float(end) - float(start)
r = json.load(open(report))
n = len(r["exchanges"])
print(f"{label:<44} {wall:7.2f} s  {n:5d} requests  {n / wall:8.1f} req/s  {int(open(rss).read().strip().splitlines()[-1]) / 1024:6.1f} MiB peak RSS")
PY
  rm -f "$out" "$out.rss"
}

[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
echo "adrprobe $("$BIN" --version) on $(nproc) cores, loopback"
measure "demo (2 paths, --rate 20)" demo
wide=$(start_server 250 0)
measure "250 paths, --rate 0 --concurrency 4" check "http://127.0.0.1:$wide/v1" --rate 0 --concurrency 4
measure "250 paths, --rate 0 --concurrency 16" check "http://127.0.0.1:$wide/v1" --rate 0 --concurrency 16
measure "250 paths, default --rate 20" check "http://127.0.0.1:$wide/v1" --max-paths 50
slow=$(start_server 100 10)
measure "100 paths, 10 ms/response, --concurrency 4" check "http://127.0.0.1:$slow/v1" --rate 0 --concurrency 4
measure "100 paths, 10 ms/response, --concurrency 16" check "http://127.0.0.1:$slow/v1" --rate 0 --concurrency 16
