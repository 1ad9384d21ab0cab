#!/usr/bin/env bash
# A nightly register: `adrprobe batch` against what a team scripts without it,
# a shell loop of `adrprobe check` one API after the other, side by side.
#   bench/batch_vs_loop.sh [N_TARGETS]        (default 12)
# N_TARGETS fixture APIs (tests/integration/fixture_server.py, each with a
# 50 ms delay per response, as a real API over a network has) listen on
# 127.0.0.1; both ways probe all of them with --rate 0 and edition 2.0.0.
# Printed: wall time and peak RSS of each way, and the speed-up.
# Environment: ADRPROBE (default build/adrprobe), CONCURRENCY (default 4).
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-12}"
BIN="${ADRPROBE:-build/adrprobe}"
CONCURRENCY="${CONCURRENCY:-4}"
[ -x "$BIN" ] || { echo "bench: no $BIN (./dev build)" >&2; exit 2; }
tmp=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
echo '{"delay": 0.05}' > "$tmp/profile.json"
echo "targets:" > "$tmp/targets.yaml"
urls=()
for i in $(seq 1 "$N"); do
  /usr/bin/python3 tests/integration/fixture_server.py "$tmp/profile.json" --max-seconds 600 > "$tmp/port.$i" &
  pids+=($!)
done
for i in $(seq 1 "$N"); do
  while [ ! -s "$tmp/port.$i" ]; do sleep 0.1; done
  url="http://127.0.0.1:$(head -1 "$tmp/port.$i")/v1"
  urls+=("$url")
  printf '  - {name: api%s, base_url: "%s"}\n' "$i" "$url" >> "$tmp/targets.yaml"
done
now() { date +%s.%N; }
t0=$(now)
/usr/bin/time -f '%M' -o "$tmp/loop.rss" bash -c '
  max=0; for u in "$@"; do /usr/bin/time -a -f "%M" -o "'"$tmp"'/each.rss" "'"$BIN"'" check "$u" --rate 0 --concurrency '"$CONCURRENCY"' -o json=/dev/null -q >/dev/null || true; done' _ "${urls[@]}"
t1=$(now)
"$BIN" batch "$tmp/targets.yaml" --out-dir "$tmp/out" --rate 0 --concurrency "$CONCURRENCY" -q > /dev/null 2>&1 \
  < /dev/null || true
t2=$(now)
/usr/bin/time -f '%M' -o "$tmp/batch.rss" "$BIN" batch "$tmp/targets.yaml" --out-dir "$tmp/out2" --rate 0 \
  --concurrency "$CONCURRENCY" -q > /dev/null 2>&1 || true
loop_s=$(echo "$t1 - $t0" | bc -l); batch_s=$(echo "$t2 - $t1" | bc -l)
loop_rss=$(sort -n "$tmp/each.rss" | tail -1); batch_rss=$(tail -1 "$tmp/batch.rss")
reports=$(ls "$tmp/out"/*.json | grep -vc summary.json || true)
printf '%-34s %10s %14s\n' "way ($N targets, 50 ms a response)" "wall s" "peak RSS MiB"
printf '%-34s %10.2f %14.1f\n' "check in a shell loop" "$loop_s" "$(echo "$loop_rss/1024" | bc -l)"
printf '%-34s %10.2f %14.1f\n' "batch --concurrency $CONCURRENCY" "$batch_s" "$(echo "$batch_rss/1024" | bc -l)"
printf 'speed-up %.1fx; batch wrote %s reports and summary.json/.html/.prom\n' "$(echo "$loop_s/$batch_s" | bc -l)" "$reports"
