#!/usr/bin/env bash
# A 1,000-target nightly register in one `adrprobe batch` (issue 16): peak RSS
# and wall time, beside the same targets run one `adrprobe check` at a time
# (the peak of the largest single run), so the batch's memory can be read
# against one target's.
#   bench/batch_memory.sh [build-dir] [N_TARGETS] [CONCURRENCY]   (defaults: build 1000 16)
# nginx on 127.0.0.1 serves N_TARGETS APIs, one base path each
# (/t<i>/v1, a 10-path OpenAPI document, API-Version on every response);
# the register lists them all; `batch --rate 0 --concurrency C -o junit`
# writes every report (json + junit) and the summary files; a second night
# runs with --baseline-dir pointing at the first, as the nightly templates do.
# Never a timed test: figures for bench/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
N="${2:-1000}"
C="${3:-16}"
BIN="$BUILD/adrprobe"
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "bench: build first" >&2; exit 2; }
command -v nginx >/dev/null || { echo "bench: needs nginx" >&2; exit 2; }

. bench/nginx_api.sh
nginx_api_setup
mkdir -p "$work/out"
$PY - "$N" "$work/www" "$port" "$work/targets.yaml" <<'PY'
import json, os, sys
n, www, port, register = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
with open(register, "w") as reg:
    reg.write("defaults: {edition: 2.0.0}\ntargets:\n")
    for t in range(n):
        d = os.path.join(www, f"t{t}", "v1")
        os.makedirs(d)
        doc = {"openapi": "3.0.3", "info": {"title": f"API {t}", "version": "1.0.0"}, "servers": [{"url": f"/t{t}/v1"}],
               "paths": {f"/collectie{i}": {"get": {"responses": {"200": {"description": "OK"}}}} for i in range(10)}}
        with open(os.path.join(d, "openapi.json"), "w") as f:
            json.dump(doc, f)
        reg.write(f"  - {{name: api{t}, owner: team{t % 7}, base_url: \"http://127.0.0.1:{port}/t{t}/v1\"}}\n")
PY
nginx_api_start t

echo "adrprobe $("$BIN" --version | head -1); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $(nginx -v 2>&1)"
/usr/bin/time -f "%M %e" -o "$work/one.time" "$BIN" check "http://127.0.0.1:$port/t0/v1" --rate 0 --concurrency "$C" -f json >/dev/null || true
read -r one_rss one_s < <(tail -1 "$work/one.time")
night() {  # night NAME [batch args...]: runs the batch into $work/NAME, prints "rss_kib seconds"
  local name=$1; shift
  /usr/bin/time -f "%M %e" -o "$work/$name.time" "$BIN" batch "$work/targets.yaml" --out-dir "$work/$name" --rate 0 \
    --concurrency "$C" -o junit -q "$@" >/dev/null 2>"$work/$name.err" || true
  tail -1 "$work/$name.time"
}
read -r rss1 s1 < <(night out)
# The second night compares every target with the first (--baseline-dir), as the nightly templates do.
read -r rss2 s2 < <(night out2 --baseline-dir "$work/out")
reports=$(ls "$work/out2" | grep -c '^api.*\.json$' || true)
requests=$($PY -c 'import glob,json,sys; print(sum(len(json.load(open(f))["exchanges"]) for f in glob.glob(sys.argv[1] + "/api*.json")))' "$work/out2")
mib() { $PY -c "print(f'{$1/1024:.1f}')"; }
printf '| %-40s | %-8s | %-14s |\n' "run" "wall s" "peak RSS MiB"
printf '|%s|\n' "------------------------------------------|----------|----------------"
printf '| %-40s | %-8s | %-14s |\n' "check, one target" "$one_s" "$(mib "$one_rss")"
printf '| %-40s | %-8s | %-14s |\n' "batch, $N targets, c$C" "$s1" "$(mib "$rss1")"
printf '| %-40s | %-8s | %-14s |\n' "batch, $N targets, c$C, --baseline-dir" "$s2" "$(mib "$rss2")"
echo "reports: $reports of $N; requests over all reports: $requests"
[ "$reports" -eq "$N" ] || { echo "bench: $reports of $N reports written" >&2; tail -5 "$work/out2.err" >&2; exit 1; }
worst=$(( rss1 > rss2 ? rss1 : rss2 ))
if $PY -c "import sys; sys.exit(0 if $worst/1024 <= 96 else 1)"; then echo "target met: batch peak RSS <= 96 MiB"
else echo "target missed: batch peak RSS > 96 MiB"; exit 1; fi
