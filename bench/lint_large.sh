#!/usr/bin/env bash
# `adrprobe lint` on a large document shaped like the real ones, side by side
# with Python reading the same file (`json.load`, the floor of any tool that
# parses it):
#   bench/lint_large.sh [N_PATHS]        (default 10000)
# bench/real_oas.py writes the document (15 MB at 10,000 paths); then, RUNS
# times each (default 3) and interleaved, so a loaded machine slows both alike:
#   python3 -c 'import json,sys; json.load(open(sys.argv[1]))' DOC
#   adrprobe lint --edition $EDITION DOC -f json
# under /usr/bin/time (wall time, peak RSS, CPU time user + system).
# Printed: the median of each, adrprobe's ratio to Python (wall and CPU) and
# whether the targets hold (at most Python's time, peak RSS <= 64 MiB). With
# CALLGRIND=1 also the instructions each executes (valgrind --tool=callgrind,
# slow, but the same on a loaded machine).
# Environment: ADRPROBE (default build/adrprobe), RUNS (default 3), EDITION
# (default 2.2.0). Never a timed test.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-10000}"
RUNS="${RUNS:-3}"
BIN="${ADRPROBE:-build/adrprobe}"
EDITION="${EDITION:-2.2.0}"
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "bench: no $BIN (ninja -C build adrprobe)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DOC="$tmp/openapi.json"
$PY bench/real_oas.py "$N" >"$DOC"

measure() {  # NAME CMD...: appends "wall rss_kib cpu" to $tmp/NAME
  local name=$1 t0 t1
  shift
  t0=$(date +%s%N)
  /usr/bin/time -f '%M %U %S' -o "$tmp/$name.time" "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000000 )) $(tail -1 "$tmp/$name.time" | awk '{printf "%s %.2f", $1, $2 + $3}')" >>"$tmp/$name"
}
for _ in $(seq "$RUNS"); do
  measure python $PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$DOC"
  measure lint "$BIN" lint --edition "$EDITION" "$DOC" -f json
done
instructions() {  # CMD...: instructions executed (callgrind's Ir)
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>"$tmp/cg.err" || true
  sed -n 's/^summary: *//p' "$tmp/cg.out" | head -1
}
echo "adrprobe $("$BIN" --version | head -1); lint --edition $EDITION; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "document: $N paths, $(stat -c %s "$DOC") bytes (bench/real_oas.py); medians of $RUNS runs, interleaved"
$PY - "$tmp/python" "$tmp/lint" <<'PY'
import statistics, sys
def load(path):
    rows = [line.split() for line in open(path)]
    return [statistics.median(float(r[i]) for r in rows) for i in range(3)], max(int(r[1]) for r in rows)
(pw, _, pc), prss = load(sys.argv[1])
(lw, _, lc), lrss = load(sys.argv[2])
print(f"| {'run':<22} | {'wall s':>7} | {'cpu s':>6} | {'peak RSS MiB':>12} |")
print(f"|{'-' * 24}|{'-' * 9}|{'-' * 8}|{'-' * 14}|")
print(f"| {'python3 json.load':<22} | {pw / 1000:7.2f} | {pc:6.2f} | {prss / 1024:12.1f} |")
print(f"| {'adrprobe lint':<22} | {lw / 1000:7.2f} | {lc:6.2f} | {lrss / 1024:12.1f} |")
ok = lw <= pw and lrss / 1024 <= 64
print(f"adrprobe / python: wall {lw / pw:.2f}, cpu {lc / pc:.2f}; "
      f"target (<= 1 x python's time, <= 64 MiB): {'met' if ok else 'NOT met'}")
PY
if [ "${CALLGRIND:-0}" = 1 ]; then
  echo "instructions: python json.load $(instructions $PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$DOC"), adrprobe lint $(instructions "$BIN" lint --edition "$EDITION" "$DOC" -f json)"
fi
