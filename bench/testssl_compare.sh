#!/usr/bin/env bash
# Cross-checks adrprobe's TLS protocol findings (TS-2) against testssl.sh.
#   bench/testssl_compare.sh [SHAPE ...]        (default: modern legacy)
# For each shape of tests/integration/tls_fixture.py (nginx on 127.0.0.1 in
# front of the fixture API) it runs
#   testssl --protocols --quiet --color 0 --nodns none ... https://127.0.0.1:PORT/
#   adrprobe check https://127.0.0.1:PORT/v1 --ca-file CA -f json --rate 0
# and prints, side by side, the protocol versions each tool found offered and
# each tool's wall time.  Last line: AGREE or DISAGREE; exit 0 when they agree
# on every shape, 1 when they disagree, 2 when something is missing.
# Environment: ADRPROBE (default build/adrprobe), TESTSSL (default testssl).
# Only 127.0.0.1 is contacted; every server and tool run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
BIN="${ADRPROBE:-build/adrprobe}"
TESTSSL="${TESTSSL:-testssl}"
SHAPES=("$@")
[ ${#SHAPES[@]} -gt 0 ] || SHAPES=(modern legacy)

[ -x "$BIN" ] || { echo "testssl_compare: no adrprobe at $BIN (build first: ninja -C build)" >&2; exit 2; }
command -v "$TESTSSL" >/dev/null || { echo "testssl_compare: $TESTSSL not installed (Debian package testssl.sh)" >&2; exit 2; }
[ -x /usr/sbin/nginx ] || { echo "testssl_compare: /usr/sbin/nginx not installed (nginx-light)" >&2; exit 2; }
command -v openssl >/dev/null || { echo "testssl_compare: openssl not installed" >&2; exit 2; }

TMP=$(mktemp -d /tmp/testssl-compare.XXXXXX)
# the servers and tools are stopped and $TMP removed however the script ends
. bench/tls_lifecycle.sh

disagree=0
summary=()
for shape in "${SHAPES[@]}"; do
  info="$TMP/$shape.info"
  : >"$info"
  $PY tests/integration/tls_fixture.py serve "$shape" --max-seconds 400 >"$info" 2>"$TMP/$shape.server.err" &
  server_pid=$!
  for _ in $(seq 200); do  # up to 20 s for the first line
    [ -s "$info" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! [ -s "$info" ]; then
    echo "testssl_compare: the $shape server did not start:" >&2
    cat "$TMP/$shape.server.err" >&2
    exit 2
  fi
  read -r port url base_url ca_file < <($PY -c 'import json,sys; d=json.loads(sys.stdin.readline()); print(d["port"], d["url"], d["base_url"], d["ca_file"])' <"$info")

  ts_json="$TMP/$shape.testssl.json"
  t0=$(now)
  run_tool "$TMP/$shape.testssl.out" "$TMP/$shape.testssl.err" timeout -k 5 300 "$TESTSSL" --protocols --quiet \
    --color 0 --nodns none --warnings off --connect-timeout 5 --openssl-timeout 5 --jsonfile-pretty "$ts_json" "$url"
  t1=$(now)
  ad_json="$TMP/$shape.adrprobe.json"
  run_tool "$ad_json" "$TMP/$shape.adrprobe.err" timeout -k 5 120 "$BIN" check "$base_url" --ca-file "$ca_file" -f json --rate 0
  t2=$(now)
  stop_server

  set +e
  line=$($PY - "$shape" "$port" "$ts_json" "$ad_json" "$t0" "$t1" "$t2" "$TMP/$shape.testssl.out" <<'PY'
import json, sys
shape, port, ts_path, ad_path, t0, t1, t2, ts_out = sys.argv[1:]
t0, t1, t2 = float(t0), float(t1), float(t2)

def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)

# testssl: scanResult[].protocols[] = {"id": "TLS1_1", "finding": "offered (deprecated)" | "not offered" ...}
# (scanResult may start with warnings such as {"id": "optimal_proto", ...}: take the entries with protocols)
try:
    ts = json.load(open(ts_path))
    found = [f for entry in ts["scanResult"] for f in entry.get("protocols", [])]
    if not found:
        raise ValueError("no protocol findings")
except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
    fail("testssl gave no JSON report (%s):\n%s" % (e, (open(ts_out, errors="replace").read() + open(ts_out[:-3] + "err", errors="replace").read())[-2000:]))
TS_NAMES = {"SSLv2": "SSLv2", "SSLv3": "SSLv3", "TLS1": "TLSv1", "TLS1_1": "TLSv1.1", "TLS1_2": "TLSv1.2",
            "TLS1_3": "TLSv1.3"}
testssl = {}
for f in found:
    name = TS_NAMES.get(f.get("id"))
    if name:
        finding = f.get("finding", "")
        testssl[name] = "yes" if finding.startswith("offered") else "no" if "not offered" in finding else "?(%s)" % finding

# adrprobe: tls.protocols[] = {"name", "accepted", "testable"}
try:
    ad = json.load(open(ad_path))
    tls = ad["tls"]
except (OSError, ValueError, KeyError, TypeError) as e:
    fail("adrprobe gave no JSON report with tls facts (%s)" % e)
adr = {}
for p in tls.get("protocols", []):
    adr[p["name"]] = ("yes" if p.get("accepted") else "no") if p.get("testable", True) else "untestable"

versions = ["SSLv2", "SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
print("== %s (https://127.0.0.1:%s/)" % (shape, port))
print("   %-8s %-12s %-12s %s" % ("version", "testssl", "adrprobe", ""))
agree = True
for v in versions:
    a, t = adr.get(v, "not probed"), testssl.get(v, "not probed")
    if a in ("yes", "no") and t in ("yes", "no"):
        mark = "same" if a == t else "DIFFERENT"
        agree &= a == t
    elif t == "yes":  # testssl found something adrprobe could not look at
        mark, agree = "DIFFERENT (adrprobe cannot see it)", False
    else:
        mark = "-"
    print("   %-8s %-12s %-12s %s" % (v, t, a, mark))
ts_found = [v for v in versions if testssl.get(v) == "yes"]
ad_found = [v for v in versions if adr.get(v) == "yes"]
print("   offered per testssl : %s" % (", ".join(ts_found) or "none"))
print("   offered per adrprobe: %s   (tls.accepted_protocols: %s)" % (", ".join(ad_found) or "none",
                                                                     ", ".join(tls.get("accepted_protocols", []))))
print("   wall time: testssl %.2f s (its scanTime %s s); adrprobe %.2f s for the whole check, %.0f ms of it TLS handshakes"
      % (t1 - t0, ts.get("scanTime", "?"), t2 - t1, tls.get("duration_ms", 0)))
print("   TS-2 verdict: %s" % next((c["verdict"] + ": " + c.get("message", "") for r in ad.get("rules", [])
                                   for c in r.get("checks", []) if c.get("id") == "TS-2"), "(none)"))
sys.exit(0 if agree else 1)
PY
)
  rc=$?
  set -e
  [ -n "$line" ] && echo "$line"
  case $rc in
    0) summary+=("$shape: agree") ;;
    1) summary+=("$shape: DISAGREE"); disagree=1 ;;
    *) echo "testssl_compare: could not compare on $shape" >&2; exit 2 ;;
  esac
done

if [ "$disagree" -eq 0 ]; then
  echo "AGREE: testssl and adrprobe found the same protocol versions offered (${summary[*]})"
else
  echo "DISAGREE: testssl and adrprobe differ on protocol support (${summary[*]})"
  exit 1
fi
