#!/usr/bin/env bash
# `adrprobe diff` of two large reports: rules are matched through one index of
# ids and aliases (report::RuleIndex), so the time grows with the rules, not
# with their square (20,000 rules took 54 s with a search per rule).
#   bench/diff_large.sh [N_RULES]        (default 20000)
# Writes two adrprobe-report/1 JSON reports of N_RULES technical rules each
# (2 MB for 20,000; the issue's were 1.9 MB) into a temporary directory: OLD has every rule
# under an old id with the new id as its alias, in reverse order, so most
# rules are found only through an alias; a third of NEW's verdicts differ.
# Printed: wall time and peak RSS of `adrprobe diff OLD NEW` (text and -f json).
# Environment: ADRPROBE (default build/adrprobe).
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-20000}"
BIN="${ADRPROBE:-build/adrprobe}"
PY=/usr/bin/python3
[ -x "$BIN" ] || { echo "bench: no $BIN (./dev build)" >&2; exit 2; }
case "$N" in '' | *[!0-9]*) echo "usage: bench/diff_large.sh [N_RULES]" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$PY - "$N" "$tmp" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
def report(rules, when):
    return {"schema": "adrprobe-report/1", "tool": {"name": "adrprobe", "version": "bench"},
            "target": {"base_url": "https://api.example.nl/v1", "openapi_url": None},
            "edition": "2.0.0", "generated_at": when, "duration_ms": 1,
            "score": {"pass": 0, "warn": 0, "fail": 0, "error": 0, "applicable": 0, "percent": None},
            "rules": rules, "exchanges": [], "notes": []}
def rule(rid, aliases, verdict):
    return {"id": rid, "aliases": aliases, "kind": "technical", "verdict": verdict, "summary": ""}
old = [rule("API-%d" % i, ["/core/r%d" % i], "pass" if i % 3 else "fail") for i in reversed(range(n))]
new = [rule("/core/r%d" % i, ["API-%d" % i], "fail" if i % 3 == 1 else "pass") for i in range(n)]
for name, rules, when in (("old.json", old, "2026-11-21T02:00:00Z"), ("new.json", new, "2026-11-22T02:00:00Z")):
    with open("%s/%s" % (out, name), "w") as f:
        json.dump(report(rules, when), f)
PY

measure() {  # LABEL ARGS...
  local label=$1
  shift
  local start end rc=0
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$tmp/rss" "$BIN" diff "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  end=$(date +%s.%N)
  # exit 1: something regressed (it does, by construction); anything else is a failure
  if [ "$rc" -gt 1 ]; then echo "bench: adrprobe diff failed ($rc):" >&2; cat "$tmp/err" >&2; exit 2; fi
  $PY - "$label" "$start" "$end" "$(tail -1 "$tmp/rss")" "$(tail -1 "$tmp/out")" <<'PY'
import sys
label, start, end, rss, last = sys.argv[1:]
print("%-24s %7.3f s   peak RSS %6.1f MiB   %s" % (label, float(end) - float(start), int(rss) / 1024, last.strip()[:60]))
PY
}

echo "adrprobe diff, two reports of $N rules ($(du -k "$tmp/old.json" | cut -f1) KiB and $(du -k "$tmp/new.json" | cut -f1) KiB)"
measure "diff (text)" "$tmp/old.json" "$tmp/new.json" --no-color
measure "diff -f json" "$tmp/old.json" "$tmp/new.json" -f json
