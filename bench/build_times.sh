#!/usr/bin/env bash
# Build times of two revisions side by side, each from a fresh clone, without
# ccache: what a newcomer waits for (`meson setup` and the binary alone, as
# `./dev demo` builds it), the whole build (binary and unit tests, as `./dev test`
# builds it), and the rebuild after one source file changed. Wall time on this
# machine and CPU time (user + sys), so a loaded machine still compares.
#   bench/build_times.sh [OLD [NEW]]     (default: the 0.4.0 release commit and HEAD)
# Needs the build packages (./dev build installs them). Takes a while: it
# compiles both revisions from scratch.
set -euo pipefail
cd "$(dirname "$0")/.."
old="${1:-b970df9}"
new="${2:-HEAD}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1

# time_of LABEL COMMAND...: "wall cpu" in seconds
time_of() {
  local out
  out=$({ /usr/bin/time -f "%e %U %S" "$@" >/dev/null 2>"$work/err"; } 2>&1; tail -n 1 "$work/err")
  awk '{printf "%.0f %.0f\n", $1, $2 + $3}' <<<"$out"
}

measure() {  # measure REV: prints "binary_wall binary_cpu all_wall all_cpu one_wall one_cpu"
  local rev=$1 dir="$work/$1"
  git clone -q . "$dir"
  git -C "$dir" checkout -q "$rev"
  local bin all one
  bin=$(cd "$dir" && time_of sh -c 'meson setup build --wrap-mode=nodownload && ninja -C build adrprobe')
  all=$(cd "$dir" && time_of ninja -C build)
  touch "$dir/src/checks/trailing_slash.cpp"
  one=$(cd "$dir" && time_of ninja -C build adrprobe)
  echo "$bin $all $one"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m), $(g++ --version | head -n 1)"
read -r ob_w ob_c oa_w oa_c oo_w oo_c < <(measure "$old")
read -r nb_w nb_c na_w na_c no_w no_c < <(measure "$new")
printf "%-44s %16s %16s\n" "seconds, wall (cpu)" "$old" "$new"
printf "%-44s %16s %16s\n" "configure + the binary (./dev demo's build)" "$ob_w ($ob_c)" "$nb_w ($nb_c)"
printf "%-44s %16s %16s\n" "the rest: unit tests (./dev test's build)" "$oa_w ($oa_c)" "$na_w ($na_c)"
printf "%-44s %16s %16s\n" "the binary after one file changed" "$oo_w ($oo_c)" "$no_w ($no_c)"
