#!/usr/bin/env bash
# adrprobe against a wide API served by nginx on loopback, side by side with
# wrk at the same concurrency against the same nginx (issue 16).
#   bench/nginx_wide.sh [build-dir] [runs]
# For 100, 1,000 and 10,000 documented paths and --concurrency 1, 4 and 16
# (and 8, the issue's figure): `check --rate 0 --max-paths 0` requests/s
# (requests in the report / wall time, document and report included) and
# peak RSS; wrk's requests/s over 5 s on one documented path. Each figure is
# the median of `runs` runs (default 3) with min and max. Never a timed test.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
RUNS="${2:-3}"
BIN="$BUILD/adrprobe"
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "bench: build first" >&2; exit 2; }
command -v nginx >/dev/null || { echo "bench: needs nginx" >&2; exit 2; }
command -v wrk >/dev/null || { echo "bench: needs wrk (apt-get install wrk)" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"  # nginx's worker reads the documents as another user
nginx_pid=""
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/www/v1" "$work/logs"
for n in 100 1000 10000; do
  mkdir -p "$work/www/n$n/v1"
  $PY - "$n" "$work/www/n$n/v1/openapi.json" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
doc = {"openapi": "3.0.3", "info": {"title": "Brede API", "version": "1.0.0"}, "servers": [{"url": "/v1"}],
       "paths": {f"/collectie{i}": {"get": {"responses": {"200": {"description": "OK"}}}} for i in range(n)}}
open(out, "w").write(json.dumps(doc))
PY
done
cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log crit;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    root $work/www;
    add_header API-Version 1.0.0 always;
    location ~ ^/n[0-9]+/v1/openapi.json\$ { default_type application/json; add_header Access-Control-Allow-Origin * always; }
    location ~ ^/n[0-9]+/v1(/collectie[0-9]+)?\$ { default_type application/json; return 200 '{}'; }
    location / { return 404 '{"status": 404, "title": "Not Found"}'; }
  }
}
NGINX
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 50); do $PY -c "import socket; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null && break; sleep 0.1; done

stats() {  # values... -> "median (min-max)"
  $PY -c 'import statistics,sys; v=sorted(float(x) for x in sys.argv[1:]); print(f"{statistics.median(v):.0f} ({v[0]:.0f}-{v[-1]:.0f})")' "$@"
}

echo "adrprobe $("$BIN" --version | head -1); $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(nginx -v 2>&1); $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
echo "medians of $RUNS runs (min-max); nginx 1 worker on 127.0.0.1"
printf '| %-6s | %-3s | %-22s | %-22s | %-20s | %-6s |\n' paths c "adrprobe req/s" "wrk req/s" "adrprobe peak RSS MiB" ratio
printf '|%s|\n' "--------|-----|------------------------|------------------------|----------------------|--------"
for n in 100 1000 10000; do
  base="http://127.0.0.1:$port/n$n/v1"
  for c in 1 4 8 16; do
    rates=() rss=() wrks=()
    for _ in $(seq "$RUNS"); do
      start=$(date +%s.%N)
      /usr/bin/time -f "%M" -o "$work/rss" "$BIN" check "$base" --rate 0 --max-paths 0 --concurrency "$c" \
        --deadline 3600 -f json >"$work/report.json" 2>/dev/null || true
      end=$(date +%s.%N)
      count=$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["exchanges"]))' "$work/report.json")
      rates+=("$($PY -c "print($count / ($end - $start))")")
      rss+=("$($PY -c "print($(tail -1 "$work/rss") / 1024)")")
      w=$(wrk -t1 -c"$c" -d5s "$base/collectie1" | sed -n 's/^Requests\/sec: *//p')
      wrks+=("$w")
    done
    a=$(stats "${rates[@]}")
    b=$(stats "${wrks[@]}")
    ratio=$($PY -c 'import statistics,sys; a=[float(x) for x in sys.argv[1].split()]; b=[float(x) for x in sys.argv[2].split()]; print(f"{statistics.median(a)/statistics.median(b):.2f}")' "${rates[*]}" "${wrks[*]}")
    printf '| %-6s | %-3s | %-22s | %-22s | %-20s | %-6s |\n' "$n" "$c" "$a" "$b" "$($PY -c 'import statistics,sys; v=sorted(float(x) for x in sys.argv[1:]); print(f"{statistics.median(v):.1f} ({v[0]:.1f}-{v[-1]:.1f})")' "${rss[@]}")" "$ratio"
  done
done
