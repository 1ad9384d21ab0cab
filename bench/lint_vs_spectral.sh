#!/usr/bin/env bash
# adrprobe lint against Spectral with the official ADR ruleset, side by side.
#   bench/lint_vs_spectral.sh [N_PATHS]        (default 1000)
# bench/large_oas.py writes an ADR-conformant OpenAPI 3.0.3 JSON document with
# N_PATHS paths into a temporary directory (1000, the default and the most it
# writes: 2,500 operations, 4,240,175 bytes = 4,140 KiB, the "4.1 MiB document"
# of the targets); then, RUNS times each (default 3, at least 3),
#   spectral lint -r ../shared/anchors/adr-spectral-ruleset.yaml DOC
#   adrprobe lint --edition $EDITION DOC -f json
# run under /usr/bin/time -f '%e %M %U %S' (peak RSS and CPU time, user +
# system; wall time is taken with nanosecond clock readings around it, since
# %e has only 10 ms resolution).
# Printed side by side: the median wall time with the fastest and slowest run
# and the highest peak RSS of each tool, the speed ratio (Spectral's median /
# adrprobe's median), whether the targets are met (adrprobe at least 50x
# faster, peak RSS <= 64 MB, read as 64 MiB), and the machine's load average
# before and after: other work on the machine slows both tools, Spectral more,
# so the median CPU time of each (user + system) and its ratio are printed too.
# The Spectral CLI is @stoplight/spectral-cli 6.16.3, pinned by
# bench/spectral/package-lock.json and installed with `npm ci` (scripts off)
# into bench/spectral/node_modules when that is missing.
# Exit: 0 targets met; 1 a target missed; 2 something missing or a tool failed;
# 3 adrprobe has no `lint` yet (Spectral's figures are still printed).
# Environment: ADRPROBE (default build/adrprobe), RULESET (default
# ../shared/anchors/adr-spectral-ruleset.yaml), RUNS (default 3), EDITION (default 2.2.0).
# Nothing but the npm registry (for `npm ci`, once) is contacted.
set -euo pipefail
cd "$(dirname "$0")/.."
N_PATHS="${1:-1000}"
RUNS="${RUNS:-3}"
[ "$RUNS" -ge 3 ] 2>/dev/null || { echo "lint_vs_spectral: RUNS must be a number >= 3 (a median of at least three runs)" >&2; exit 2; }
BIN="${ADRPROBE:-build/adrprobe}"
EDITION="${EDITION:-2.2.0}"  # the edition the official ruleset is written for
RULESET="${RULESET:-../shared/anchors/adr-spectral-ruleset.yaml}"
SPECTRAL_DIR=bench/spectral
SPECTRAL="$SPECTRAL_DIR/node_modules/.bin/spectral"
TIME=/usr/bin/time
PY=/usr/bin/python3
TARGET_RATIO=50
TARGET_RSS_MB=64

die() { echo "lint_vs_spectral: $*" >&2; exit 2; }
[ -x "$TIME" ] || die "$TIME not installed (Debian package time)"
[ -x "$PY" ] || die "$PY not installed"
[ -f "$RULESET" ] || die "no ruleset at $RULESET (the specification folder ../shared must sit beside the repository)"
[ -x "$BIN" ] || die "no adrprobe at $BIN (build first: ninja -C build)"
if [ ! -x "$SPECTRAL" ]; then
  command -v npm >/dev/null || die "npm not installed (Debian packages nodejs and npm)"
  echo "lint_vs_spectral: installing the Spectral CLI from $SPECTRAL_DIR/package-lock.json (npm ci)" >&2
  (cd "$SPECTRAL_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) \
    || die "npm ci failed in $SPECTRAL_DIR"
fi
command -v node >/dev/null || die "node not installed (Debian package nodejs)"

TMP=$(mktemp -d /tmp/lint-vs-spectral.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
DOC="$TMP/openapi.json"
"$PY" bench/large_oas.py "$N_PATHS" >"$DOC"
read -r n_paths n_ops size_bytes < <("$PY" -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
ops = sum(1 for item in d["paths"].values() for k in item if k in ("get", "put", "post", "delete", "patch", "head", "options", "trace"))
print(len(d["paths"]), ops, os.path.getsize(sys.argv[1]))' "$DOC")

# measure NAME CMD...: one run under /usr/bin/time; appends "wall_s rss_kib cpu_s" to $TMP/NAME.runs and
# returns the command's exit status (the caller decides what is acceptable)
measure() {
  local name=$1
  shift
  local rc=0 t0 t1
  t0=$(date +%s%N)
  "$TIME" -f '%e %M %U %S' -o "$TMP/$name.time" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" || rc=$?
  t1=$(date +%s%N)
  # /usr/bin/time may print "Command exited with non-zero status N" before the figures
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}') $(tail -n 1 "$TMP/$name.time" | awk '{printf "%s %.2f", $2, $3 + $4}')" \
    >>"$TMP/$name.runs"
  return "$rc"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) exit 1; if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
min() { sort -n | head -n 1; }
max() { sort -n | tail -n 1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

spectral_version=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
  "$SPECTRAL_DIR/node_modules/@stoplight/spectral-cli/package.json")

size=$(awk -v b="$size_bytes" 'BEGIN {printf "%d bytes = %d KiB = %.2f MiB", b, b / 1024, b / 1048576}')
echo "document: $n_paths paths, $n_ops operations, $size (OpenAPI 3.0.3 JSON, bench/large_oas.py $N_PATHS)"
echo "runs: $RUNS each; wall time: the median (fastest - slowest), peak RSS: the highest of the runs"
echo "adrprobe: $BIN ($("$BIN" --version 2>/dev/null | head -n 1))"
echo "machine: $(nproc) cores, load average before: $(load)"
echo

: >"$TMP/spectral.runs"
for _ in $(seq "$RUNS"); do
  rc=0
  measure spectral "$SPECTRAL" lint -r "$RULESET" "$DOC" || rc=$?
  # Spectral exits 1 when it reports errors; anything else is a failure of the run
  if [ "$rc" -gt 1 ]; then
    cat "$TMP/spectral.err" "$TMP/spectral.out" | tail -n 20 >&2
    die "spectral exited with status $rc"
  fi
done
spectral_findings=$(grep -Eo '[0-9]+ problems? \([0-9]+ errors?, [0-9]+ warnings?' "$TMP/spectral.out" | head -n 1 || true)
[ -n "$spectral_findings" ] || spectral_findings=$(grep -m1 -E 'No results' "$TMP/spectral.out" || echo "see its output")

lint_available=1
lint_note=""
: >"$TMP/adrprobe.runs"
for _ in $(seq "$RUNS"); do
  rc=0
  measure adrprobe "$BIN" lint --edition $EDITION "$DOC" -f json || rc=$?
  if [ "$rc" -eq 2 ] && grep -qi "not available" "$TMP/adrprobe.err"; then
    lint_available=0
    lint_note=$(head -n 1 "$TMP/adrprobe.err")
    break
  fi
  # exit 1 = a rule fails, 3 = a rule could not be completed; both still produce a report
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
    tail -n 20 "$TMP/adrprobe.err" >&2
    die "adrprobe lint exited with status $rc"
  fi
done

s_wall=$(cut -d' ' -f1 "$TMP/spectral.runs" | median)
s_rss=$(cut -d' ' -f2 "$TMP/spectral.runs" | max)
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
fmt_runs() { cut -d' ' -f1 "$1" | paste -sd' ' -; }

spread() { echo "$(cut -d' ' -f1 "$1" | min) - $(cut -d' ' -f1 "$1" | max)"; }

s_cpu=$(cut -d' ' -f3 "$TMP/spectral.runs" | median)

printf '%-30s %15s %17s %15s %14s   %s\n' "tool" "median wall (s)" "min - max (s)" "peak RSS (MiB)" "median CPU (s)" "wall of each run (s)"
printf '%-30s %15s %17s %15s %14s   %s\n' "spectral-cli $spectral_version" "$s_wall" "$(spread "$TMP/spectral.runs")" "$(mib "$s_rss")" "$s_cpu" "$(fmt_runs "$TMP/spectral.runs")"
if [ "$lint_available" -eq 1 ]; then
  a_wall=$(cut -d' ' -f1 "$TMP/adrprobe.runs" | median)
  a_rss=$(cut -d' ' -f2 "$TMP/adrprobe.runs" | max)
  a_cpu=$(cut -d' ' -f3 "$TMP/adrprobe.runs" | median)
  printf '%-30s %15s %17s %15s %14s   %s\n' "adrprobe lint --edition $EDITION" "$a_wall" "$(spread "$TMP/adrprobe.runs")" "$(mib "$a_rss")" "$a_cpu" "$(fmt_runs "$TMP/adrprobe.runs")"
else
  printf '%-30s %15s %17s %15s %14s   %s\n' "adrprobe lint --edition $EDITION" "-" "-" "-" "-" "adrprobe lint not available"
fi
echo
echo "load average after: $(load)"
echo "spectral findings: $spectral_findings"
if [ "$lint_available" -eq 0 ]; then
  echo "adrprobe lint not available: $BIN says \"$lint_note\" (exit 2); no ratio"
  echo "targets (>= ${TARGET_RATIO}x faster, <= ${TARGET_RSS_MB} MB peak RSS): not measured"
  exit 3
fi
lint_summary=$("$PY" -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    print("output is not a JSON report"); sys.exit()
bad = ["%s %s" % (x["id"], x["verdict"]) for x in r.get("rules", []) if x.get("verdict") in ("fail", "warn", "error")]
print(", ".join(bad) if bad else "no rule fails or warns")' "$TMP/adrprobe.out")
echo "adrprobe lint findings: $lint_summary"

# /usr/bin/time's %M is in KiB; the target "64 MB" is read as 64 MiB (65,536 KiB)
read -r ratio ratio_ok rss_ok < <(awk -v s="$s_wall" -v a="$a_wall" -v rss="$a_rss" -v t="$TARGET_RATIO" -v m="$TARGET_RSS_MB" 'BEGIN {
  if (a <= 0) a = 0.001
  r = s / a
  printf "%.1f %s %s\n", r, (r >= t ? "met" : "NOT-met"), (rss <= m * 1024 ? "met" : "NOT-met") }')
echo "speed ratio (Spectral / adrprobe, median wall): ${ratio}x"
echo "CPU time ratio (Spectral / adrprobe, median user + system): $(awk -v s="$s_cpu" -v a="$a_cpu" 'BEGIN {if (a <= 0) a = 0.01; printf "%.1f", s / a}')x"
echo "target >= ${TARGET_RATIO}x faster: ${ratio_ok/-/ }"
echo "target peak RSS <= ${TARGET_RSS_MB} MB: ${rss_ok/-/ } ($(mib "$a_rss") MiB)"
[ "$ratio_ok" = met ] && [ "$rss_ok" = met ] && exit 0
exit 1
