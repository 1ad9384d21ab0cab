#!/usr/bin/env bash
# Accepted cipher suites (TS-3) and time: adrprobe vs sslscan vs testssl.sh, same machine.
#   bench/tls_suites_compare.sh [SHAPE ...]     (default: modern legacy_3des dhe_cbc legacy)
# Besides the fixture's nginx shapes, SHAPE gnutls_3des is gnutls-serv (Debian gnutls-bin)
# with TLS 1.0 and 1.2, static RSA, DHE and 3DES (an OpenSSL without weak ciphers cannot
# serve or offer 3DES). gnutls-serv cannot be told to listen on 127.0.0.1 only, so the
# script then runs everything in a network namespace of its own that has only loopback
# (`unshare -n`, as root).
# For each shape of tests/integration/tls_fixture.py (nginx on 127.0.0.1 in
# front of the fixture API) it runs, one after the other,
#   adrprobe check https://127.0.0.1:PORT/v1 --ca-file CA -f json --rate 0
#   sslscan --xml=- --no-heartbleed ... 127.0.0.1:PORT
#   testssl --cipher-per-proto --quiet --color 0 --nodns none --jsonfile-pretty ... https://127.0.0.1:PORT/
# and prints, per protocol version, the suites each tool found accepted (OpenSSL
# names), where they differ, and each tool's wall time (adrprobe: the whole
# check, and tls.duration_ms, the handshakes alone). Last line: AGREE or
# DISAGREE; exit 0 when all three agree on every shape, 1 when they do not, 2
# when something is missing. Timings are figures for this table, never a test.
# Environment: ADRPROBE (default build/adrprobe), SSLSCAN, TESTSSL.
# Only 127.0.0.1 is contacted; every server and tool run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
BIN="${ADRPROBE:-build/adrprobe}"
SSLSCAN="${SSLSCAN:-sslscan}"
TESTSSL="${TESTSSL:-testssl}"
SHAPES=("$@")
[ ${#SHAPES[@]} -gt 0 ] || SHAPES=(modern legacy_3des dhe_cbc legacy)

if [[ " ${SHAPES[*]} " == *" gnutls_3des "* ]] && [ -z "${TLS_COMPARE_NETNS:-}" ]; then
  command -v gnutls-serv >/dev/null || { echo "tls_suites_compare: gnutls-serv not installed (Debian package gnutls-bin)" >&2; exit 2; }
  exec unshare -n env TLS_COMPARE_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "${SHAPES[@]}"
fi

[ -x "$BIN" ] || { echo "tls_suites_compare: no adrprobe at $BIN (build first: ninja -C build)" >&2; exit 2; }
command -v "$SSLSCAN" >/dev/null || { echo "tls_suites_compare: $SSLSCAN not installed (Debian package sslscan)" >&2; exit 2; }
command -v "$TESTSSL" >/dev/null || { echo "tls_suites_compare: $TESTSSL not installed (Debian package testssl.sh)" >&2; exit 2; }
[ -x /usr/sbin/nginx ] || { echo "tls_suites_compare: /usr/sbin/nginx not installed (nginx-light)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/tls-suites-compare.XXXXXX)
# the servers and tools are stopped and $TMP removed however the script ends
. bench/tls_lifecycle.sh

disagree=0
rows=()
for shape in "${SHAPES[@]}"; do
  info="$TMP/$shape.info"
  : >"$info"
  if [ "$shape" = gnutls_3des ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/g.key" -out "$TMP/g.pem" -days 2 -subj /CN=localhost \
      -addext subjectAltName=IP:127.0.0.1 2>/dev/null
    gport=44330
    timeout -k 5 600 gnutls-serv --http -p "$gport" --x509certfile "$TMP/g.pem" --x509keyfile "$TMP/g.key" \
      --priority 'NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.0:+3DES-CBC:+RSA:+DHE-RSA' >"$TMP/$shape.server.err" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gport") 2>/dev/null && break; sleep 0.1; done
    printf '{"port": %d, "url": "https://127.0.0.1:%d/", "base_url": "https://127.0.0.1:%d/v1", "ca_file": "%s"}\n' \
      "$gport" "$gport" "$gport" "$TMP/g.pem" >"$info"
  else
    $PY tests/integration/tls_fixture.py serve "$shape" --max-seconds 600 >"$info" 2>"$TMP/$shape.server.err" &
    server_pid=$!
  fi
  for _ in $(seq 200); do  # up to 20 s for the first line
    [ -s "$info" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! [ -s "$info" ]; then
    echo "tls_suites_compare: the $shape server did not start:" >&2
    cat "$TMP/$shape.server.err" >&2
    exit 2
  fi
  read -r port url base_url ca_file < <($PY -c 'import json,sys; d=json.loads(sys.stdin.readline()); print(d["port"], d["url"], d["base_url"], d["ca_file"])' <"$info")

  t0=$(now)
  run_tool "$TMP/$shape.adrprobe.json" "$TMP/$shape.adrprobe.err" timeout -k 5 120 "$BIN" check "$base_url" --ca-file "$ca_file" -f json --rate 0
  t1=$(now)
  run_tool "$TMP/$shape.sslscan.xml" "$TMP/$shape.sslscan.err" timeout -k 5 300 "$SSLSCAN" --no-colour --no-heartbleed \
    --no-renegotiation --no-compression --no-fallback --no-check-certificate --xml=- "127.0.0.1:$port"
  t2=$(now)
  run_tool "$TMP/$shape.testssl.out" "$TMP/$shape.testssl.err" timeout -k 5 600 "$TESTSSL" --cipher-per-proto --quiet \
    --color 0 --nodns none --warnings off --connect-timeout 5 --openssl-timeout 5 \
    --jsonfile-pretty "$TMP/$shape.testssl.json" "$url"
  t3=$(now)
  stop_server

  set +e
  out=$($PY - "$shape" "$port" "$TMP" "$t0" "$t1" "$t2" "$t3" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
shape, port, tmp, t0, t1, t2, t3 = sys.argv[1:]
t0, t1, t2, t3 = map(float, (t0, t1, t2, t3))
base = "%s/%s" % (tmp, shape)

def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)

VERSIONS = ["SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

# adrprobe: tls.protocols[].suites[].name
try:
    ad = json.load(open(base + ".adrprobe.json"))
    tls = ad["tls"]
except (OSError, ValueError, KeyError, TypeError) as e:
    fail("adrprobe gave no JSON report with tls facts (%s)" % e)
adr = {p["name"]: {s["name"] for s in p.get("suites", [])} for p in tls["protocols"] if p.get("accepted")}
ts3 = next((c for r in ad.get("rules", []) for c in r.get("checks", []) if c.get("id") == "TS-3"), {})

# sslscan: <cipher status="accepted|preferred" sslversion="TLSv1.2" cipher="..."/>
raw = open(base + ".sslscan.xml", errors="replace").read()
try:
    root = ET.fromstring(raw[raw.index("<"):])
except (ValueError, ET.ParseError) as e:
    fail("sslscan gave no XML (%s): %s" % (e, raw[-1000:]))
SSLSCAN_NAMES = {"SSLv3": "SSLv3", "TLSv1.0": "TLSv1", "TLSv1.1": "TLSv1.1", "TLSv1.2": "TLSv1.2", "TLSv1.3": "TLSv1.3"}
# sslscan names suites its OpenSSL lacks by their IANA name: OpenSSL's for those adrprobe
# offers by hand-made ClientHellos
IANA = {"TLS_RSA_WITH_3DES_EDE_CBC_SHA": "DES-CBC3-SHA", "TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA": "DHE-RSA-DES-CBC3-SHA",
        "TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA": "DHE-DSS-DES-CBC3-SHA",
        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA": "ECDHE-RSA-DES-CBC3-SHA",
        "TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA": "ECDHE-ECDSA-DES-CBC3-SHA", "TLS_RSA_WITH_RC4_128_SHA": "RC4-SHA",
        "TLS_RSA_WITH_RC4_128_MD5": "RC4-MD5", "TLS_ECDHE_RSA_WITH_RC4_128_SHA": "ECDHE-RSA-RC4-SHA",
        "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA": "ECDHE-ECDSA-RC4-SHA", "TLS_RSA_WITH_DES_CBC_SHA": "DES-CBC-SHA",
        "TLS_DHE_RSA_WITH_DES_CBC_SHA": "EDH-RSA-DES-CBC-SHA", "TLS_RSA_WITH_IDEA_CBC_SHA": "IDEA-CBC-SHA",
        "TLS_RSA_WITH_SEED_CBC_SHA": "SEED-SHA", "TLS_DHE_RSA_WITH_SEED_CBC_SHA": "DHE-RSA-SEED-SHA"}
ssl = {}
for c in root.iter("cipher"):
    if c.get("status") in ("accepted", "preferred"):
        name = IANA.get(c.get("cipher"), c.get("cipher"))
        ssl.setdefault(SSLSCAN_NAMES.get(c.get("sslversion"), c.get("sslversion")), set()).add(name)

# testssl --cipher-per-proto: scanResult[].cipherTests[] = {"id": "cipher-tls1_2_xc030",
#   "finding": "TLS 1.2   xc030   ECDHE-RSA-AES256-GCM-SHA384   ECDH 253   AESGCM   256   TLS_ECDHE_..."}
try:
    tj = json.load(open(base + ".testssl.json"))
except (OSError, ValueError) as e:
    fail("testssl gave no JSON report (%s): %s" % (e, open(base + ".testssl.out", errors="replace").read()[-1500:]))
TESTSSL_NAMES = {"ssl3": "SSLv3", "tls1": "TLSv1", "tls1_1": "TLSv1.1", "tls1_2": "TLSv1.2", "tls1_3": "TLSv1.3"}
tst = {}
for entry in tj.get("scanResult", []):
    for f in entry.get("cipherTests", []) + entry.get("ciphers", []):
        m = re.match(r"cipher-(ssl3|tls1(?:_[123])?)_x[0-9a-f]+$", f.get("id", ""))
        if not m:
            continue
        fields = f.get("finding", "").split()  # "TLS 1.2  xc02c  ECDHE-..." : the name follows the hex code
        code = next((i for i, x in enumerate(fields) if re.fullmatch(r"x[0-9a-f]+", x)), None)
        fields = fields[code - 1:] if code else []
        if len(fields) >= 3:
            # testssl's names are OpenSSL's older ones for two suites (EDH-...-DES-CBC3-SHA)
            name = re.sub(r"^EDH-(RSA|DSS)-DES-CBC3-SHA$", r"DHE-\1-DES-CBC3-SHA", fields[2])
            tst.setdefault(TESTSSL_NAMES[m.group(1)], set()).add(name)

agree = True
print("== %s (https://127.0.0.1:%s/)" % (shape, port))
counts = []
for v in VERSIONS:
    a, s, t = adr.get(v, set()), ssl.get(v, set()), tst.get(v, set())
    if not (a or s or t):
        continue
    same = a == s == t
    agree &= same
    counts.append("%s %d/%d/%d" % (v, len(a), len(s), len(t)))
    print("   %-8s adrprobe %2d, sslscan %2d, testssl %2d  %s" % (v, len(a), len(s), len(t), "same" if same else "DIFFERENT"))
    for name in sorted(a | s | t):
        if not (name in a and name in s and name in t):
            print("            %-40s adrprobe %-3s sslscan %-3s testssl %s" % (
                name, "yes" if name in a else "no", "yes" if name in s else "no", "yes" if name in t else "no"))
print("   suites: %s" % "; ".join("%s: %s" % (v, " ".join(sorted(adr[v]))) for v in VERSIONS if v in adr))
print("   wall time: adrprobe %.2f s (whole check; TLS handshakes %.0f ms, %s of them), sslscan %.2f s, testssl %.2f s"
      % (t1 - t0, tls.get("duration_ms", 0), tls.get("handshakes", "?"), t2 - t1, t3 - t2))
print("   TS-3: %s: %s" % (ts3.get("verdict", "?"), ts3.get("message", "")[:300]))
print("ROW|%s|%s|%.2f|%.0f|%.2f|%.2f|%s" % (shape, ", ".join(counts), t1 - t0, tls.get("duration_ms", 0), t2 - t1, t3 - t2,
                                        "yes" if agree else "NO"))
sys.exit(0 if agree else 1)
PY
)
  rc=$?
  set -e
  grep -v '^ROW|' <<<"$out" || true
  row=$(grep '^ROW|' <<<"$out" || true)
  [ -n "$row" ] && rows+=("$row")
  case $rc in
    0) ;;
    1) disagree=1 ;;
    *) echo "tls_suites_compare: could not compare on $shape" >&2; exit 2 ;;
  esac
done

echo
echo "| shape | accepted suites per version (adrprobe/sslscan/testssl) | adrprobe check | of it TLS | sslscan | testssl | same suites |"
echo "|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  IFS='|' read -r _ shape counts ad tls_ms ss ts same <<<"$row"
  echo "| $shape | $counts | $ad s | $tls_ms ms | $ss s | $ts s | $same |"
done
if [ "$disagree" -eq 0 ]; then
  echo "AGREE: adrprobe, sslscan and testssl found the same accepted suites (${SHAPES[*]})"
else
  echo "DISAGREE: the tools differ on accepted suites (see above)"
  exit 1
fi
