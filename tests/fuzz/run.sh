#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz: first each file of its seed
# corpus (tests/fuzz/corpus/<target>/) once, as a regression input, then
# fuzzing for SECONDS (default 60). Configures and builds build-fuzz/ with
# clang when needed. Prints one line per target and, last,
# "fuzz: N passed, N failed"; exits non-zero when a target failed.
#   tests/fuzz/run.sh [SECONDS]
#   FUZZ_TARGETS="fuzz_refs fuzz_url" tests/fuzz/run.sh 600
# Inputs found while fuzzing are kept in build-fuzz/fuzz-corpus/<target>/ (the
# next run starts from them); a crashing input is written to
# build-fuzz/fuzz-artifacts/<target>/ and named in the output. Reproduce one
# with build-fuzz/tests/fuzz/<target> <file>; a fixed crash belongs in the
# seed corpus as a regression input.
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-60}"
build="${FUZZ_BUILD:-build-fuzz}"
case "$seconds" in '' | *[!0-9]*) echo "usage: tests/fuzz/run.sh [SECONDS]" >&2; exit 2 ;; esac

if [ ! -f "$build/build.ninja" ]; then
  echo "fuzz: configuring $build/ with clang" >&2
  # -O1, as for the ASan build: compiles faster than -O2 and fuzzes nearly as fast.
  CXX=clang++ meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 \
    --wrap-mode=nodownload >&2 || exit 1
fi
ninja -C "$build" fuzz >&2 || { echo "fuzz: 0 passed, 1 failed (build)"; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

targets="${FUZZ_TARGETS:-$(cd tests/fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')}"
passed=0
failed=0
for target in $targets; do
  bin="$build/tests/fuzz/$target"
  seeds="tests/fuzz/corpus/$target"
  work="$build/fuzz-corpus/$target"
  artifacts="$build/fuzz-artifacts/$target"
  log="$build/fuzz-logs/$target.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  : >"$log"
  status="ok"
  # Every seed once, at full length.
  files=("$seeds"/*)
  if ! "$bin" -timeout=30 -artifact_prefix="$artifacts/" "${files[@]}" >>"$log" 2>&1; then
    status="FAIL (a seed of tests/fuzz/corpus/$target)"
  elif [ "$seconds" -gt 0 ]; then
    # New inputs go to the first directory: the work corpus, never the seeds.
    if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" "$work" "$seeds" >>"$log" 2>&1; then
      status="FAIL"
    fi
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$status" = "ok" ]; then
    passed=$((passed + 1))
    echo "ok    $target: ${#files[@]} seeds, ${runs:-0} runs in ${seconds} s"
  else
    failed=$((failed + 1))
    echo "FAIL  $target: $status; log $log"
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*property violated|.*runtime error|artifact_prefix.*Test unit written)" "$log" | head -5 | sed 's/^/      /'
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
