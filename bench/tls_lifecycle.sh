# Sourced by bench/testssl_compare.sh and bench/tls_suites_compare.sh: the
# server and tool process lifecycle both share. Needs $TMP set by the caller.
server_pid=""
tool_pid=""
run_tool() {  # OUT ERR CMD...: run CMD in the background and wait, so a signal ends the script at once
  local out=$1 err=$2
  shift 2
  "$@" >"$out" 2>"$err" &
  tool_pid=$!
  wait "$tool_pid" || true
  tool_pid=""
}
stop_server() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true  # nginx itself is bounded by coreutils timeout
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
cleanup() {
  if [ -n "$tool_pid" ]; then kill -TERM "$tool_pid" 2>/dev/null || true; wait "$tool_pid" 2>/dev/null || true; fi
  stop_server
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
