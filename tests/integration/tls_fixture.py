#!/usr/bin/python3
"""TLS in front of the fixture API: a throw-away CA and nginx as a TLS reverse proxy.

- ``Pki(directory)``: an EC P-256 CA made with the ``openssl`` command line;
  ``issue(...)`` signs leaf certificates (EC P-256 or RSA) for any names and any
  validity window, past ones included (``openssl ca -startdate/-enddate``).
- ``NginxTLS(shape, profile)``: starts a ``FixtureServer(profile)`` on
  127.0.0.1 and ``/usr/sbin/nginx`` (``daemon off; master_process off;``) on
  another free 127.0.0.1 port, proxying to it over plain HTTP, with the TLS
  settings, certificate and added headers of one of ``SHAPES``.  Everything
  (pid, logs, temp paths, keys) lives in a temporary directory that is removed
  on stop; nginx is killed after ``max_seconds`` at the latest.
- ``requires_tls_tools``: class or test decorator, ``require_tls_tools()`` before
  it runs: nginx (nginx-light) and openssl missing are a failure where Debian
  packages them, a skip only where they are not packaged (harness.require_tool).
- ``s_client(port, flag)``: what ``openssl s_client <flag>`` negotiates.

Standalone (for bench/testssl_compare.sh):

    tls_fixture.py serve SHAPE [--max-seconds N]

prints one JSON line ``{"shape", "port", "url", "base_url", "ca_file"}`` and
serves until SIGINT/SIGTERM or N seconds (default 300).

Traffic is only ever served on 127.0.0.1.
"""

import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402
from fixture_server import FixtureServer  # noqa: E402

NGINX = os.environ.get("NGINX") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
TIMEOUT = shutil.which("timeout")


def missing_tools():
    """Why the TLS fixture cannot run here ('' when it can)."""
    missing = []
    if not os.access(NGINX, os.X_OK):
        missing.append("nginx (%s; Debian package nginx-light)" % NGINX)
    if not shutil.which("openssl"):
        missing.append("openssl")
    return ("not installed: " + ", ".join(missing)) if missing else ""


def require_tls_tools():
    """nginx and openssl, by the harness's tool policy (a failure when their
    package is installable here, a skip only where it is not packaged)."""
    harness.require_tool(NGINX, "nginx-light")
    harness.require_tool("openssl", "openssl")


def requires_tls_tools(obj):
    """Class or test decorator: require_tls_tools() before it runs."""
    return harness.before_running(obj, require_tls_tools)


def _run(cmd, cwd=None, timeout=30):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(str(c) for c in cmd), proc.returncode,
                                                      proc.stdout.decode(errors="replace"),
                                                      proc.stderr.decode(errors="replace")))
    return proc.stdout.decode(errors="replace")


# --------------------------------------------------------------------------
# certificates
# --------------------------------------------------------------------------

def _asn1(when):
    """datetime (UTC) -> the YYYYMMDDHHMMSSZ form openssl ca takes."""
    return when.astimezone(datetime.timezone.utc).strftime("%Y%m%d%H%M%SZ")


class Pki:
    """A CA (EC P-256, valid for 30 days from an hour ago) in directory, and
    leaf certificates issued by it with `openssl ca`."""

    CA_SUBJECT = "/O=adrprobe tests/CN=adrprobe test CA"

    def __init__(self, directory):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ca_key = self.dir / "ca.key"
        self.ca_file = self.dir / "ca.pem"
        self.db = self.dir / "ca_db"
        self.db.mkdir(exist_ok=True)
        (self.db / "index.txt").write_text("")
        (self.db / "serial").write_text("1000\n")
        _run([OPENSSL, "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", self.ca_key])
        _run([OPENSSL, "req", "-x509", "-new", "-key", self.ca_key, "-sha256", "-days", "30",
              "-subj", self.CA_SUBJECT,
              "-addext", "basicConstraints=critical,CA:TRUE",
              "-addext", "keyUsage=critical,keyCertSign,cRLSign",
              "-out", self.ca_file])
        self._count = 0

    def _config(self, sans, usage="serverAuth"):
        path = self.dir / ("ca-%d.cnf" % self._count)
        path.write_text("\n".join([
            "[ ca ]", "default_ca = test_ca",
            "[ test_ca ]",
            "database = %s" % (self.db / "index.txt"),
            "serial = %s" % (self.db / "serial"),
            "new_certs_dir = %s" % self.db,
            "certificate = %s" % self.ca_file,
            "private_key = %s" % self.ca_key,
            "default_md = sha256",
            "policy = any",
            "unique_subject = no",
            "copy_extensions = none",
            "[ any ]", "commonName = supplied",
            "[ leaf ]",
            "subjectAltName = " + ",".join(sans),
            "basicConstraints = critical,CA:FALSE",
            "keyUsage = critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage = %s" % usage,
            "",
        ]))
        return path

    def issue(self, name, cn="localhost", sans=("DNS:localhost", "IP:127.0.0.1"), key="ec",
              days=30, not_before=None, not_after=None, usage="serverAuth"):
        """Sign a leaf certificate; returns (cert.pem, key.pem) paths.
        key: "ec" (P-256) or "rsa" / "rsa:BITS".  Validity: not_before/not_after
        (datetimes, UTC) or else from an hour ago to `days` days (plus an hour)
        from now, so that days_left comes out as exactly `days`.  usage: the
        extendedKeyUsage ("serverAuth"; "clientAuth" for a client certificate)."""
        self._count += 1
        now = datetime.datetime.now(datetime.timezone.utc)
        start = not_before or now - datetime.timedelta(hours=1)
        end = not_after or now + datetime.timedelta(days=days, hours=1)
        name = "%03d-%s" % (self._count, name)  # a shared Pki never overwrites a served key
        key_path = self.dir / ("%s.key" % name)
        cert_path = self.dir / ("%s.pem" % name)
        csr_path = self.dir / ("%s.csr" % name)
        if key == "ec":
            _run([OPENSSL, "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key_path])
        elif key.startswith("rsa"):
            bits = key.split(":", 1)[1] if ":" in key else "2048"
            _run([OPENSSL, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:%s" % bits,
                  "-out", key_path])
        else:
            raise ValueError("key type %r" % key)
        _run([OPENSSL, "req", "-new", "-key", key_path, "-subj", "/CN=%s" % cn, "-out", csr_path])
        _run([OPENSSL, "ca", "-batch", "-notext", "-config", self._config(sans, usage), "-extensions", "leaf",
              "-startdate", _asn1(start), "-enddate", _asn1(end), "-in", csr_path, "-out", cert_path])
        return cert_path, key_path


# The certificates a shape can name: issue() keyword arguments.
CERTS = {
    "valid": {},
    "rsa": {"key": "rsa:2048"},
    "expired": {"not_before": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc),
                "not_after": datetime.datetime(2020, 2, 1, tzinfo=datetime.timezone.utc)},
    "other_host": {"cn": "other.example", "sans": ("DNS:other.example",)},
    "expiring": {"days": 5},
}

# --------------------------------------------------------------------------
# nginx shapes
# --------------------------------------------------------------------------

MODERN_CIPHERS = ("ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305:"
                  "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-CHACHA20-POLY1305")

SECURITY_HEADERS = {
    "Strict-Transport-Security": "max-age=31536000",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

# settings: ssl_protocols, ssl_ciphers, a key of CERTS, headers nginx adds (always),
# CORS nginx imposes (None | "echo" | "echo_credentials" | "*"), upstream headers it drops,
# client certificates (ssl_verify_client None | "on" | "optional", verified against the
# CA file client_ca; nginx answers a missing or unverified one with its own 400 page)
# dhparam: None (nginx then offers no DHE suite) or a DH group of `openssl genpkey -genparam`
# ("ffdhe3072": RFC 7919; "modp_2048": RFC 3526), for ssl_dhparam.
_MODERN = {"protocols": "TLSv1.2 TLSv1.3", "ciphers": MODERN_CIPHERS, "cert": "valid",
           "headers": SECURITY_HEADERS, "cors": None, "hide": (), "verify_client": None, "client_ca": None,
           "dhparam": None}

SHAPES = {
    # what a well-configured API gateway does
    "modern": dict(_MODERN),
    # TLS 1.0 and 1.1 still on, every cipher OpenSSL has
    "legacy": dict(_MODERN, protocols="TLSv1 TLSv1.1 TLSv1.2", ciphers="ALL:@SECLEVEL=0"),
    # only TLS 1.0 and 1.1: no handshake with a default (TLS 1.2+) client
    "legacy_only": dict(_MODERN, protocols="TLSv1 TLSv1.1", ciphers="ALL:@SECLEVEL=0"),
    # certificate problems
    "expired": dict(_MODERN, cert="expired"),
    "wrong_host": dict(_MODERN, cert="other_host"),
    "expiring": dict(_MODERN, cert="expiring"),
    # RSA 2048 certificate, ECDHE-RSA suites
    "rsa": dict(_MODERN, cert="rsa"),
    # prefers a good suite, still accepts TLS 1.0, static RSA and 3DES (RSA certificate)
    "legacy_3des": dict(_MODERN, cert="rsa", protocols="TLSv1 TLSv1.2",
                        ciphers="ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA:AES128-SHA:ECDHE-RSA-DES-CBC3-SHA:"
                                "DES-CBC3-SHA:@SECLEVEL=0"),
    # ECDHE with AES-CBC and DHE (RFC 7919 ffdhe3072 parameters), RSA certificate
    "dhe_cbc": dict(_MODERN, cert="rsa", ciphers="ECDHE-RSA-AES256-SHA384:ECDHE-RSA-AES128-SHA256:"
                                                 "DHE-RSA-AES256-GCM-SHA384:DHE-RSA-AES128-SHA256",
                    dhparam="ffdhe3072"),
    # static-RSA key exchange only (NCSC: phase out)
    "static_rsa": dict(_MODERN, cert="rsa", protocols="TLSv1.2", ciphers="AES128-GCM-SHA256:AES256-GCM-SHA384"),
    # no HSTS, no security headers at all
    "no_headers": dict(_MODERN, headers={}),
    # HSTS for five minutes only
    "short_hsts": dict(_MODERN, headers=dict(SECURITY_HEADERS, **{"Strict-Transport-Security": "max-age=300"})),
    # CORS on every response, whatever the API says: any Origin echoed with
    # Access-Control-Allow-Credentials: true; echoed without it; "*"
    "cors_echo": dict(_MODERN, cors="echo_credentials"),
    "cors_echo_plain": dict(_MODERN, cors="echo"),
    "cors_star": dict(_MODERN, cors="*"),
}


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _nginx_quote(value):
    return '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')


class NginxTLS:
    """nginx on https://127.0.0.1:PORT in front of a FixtureServer(profile).

    shape: a key of SHAPES; keyword overrides replace single settings
    (protocols, ciphers, cert, headers, cors, hide = upstream response headers
    nginx drops); cert_options: issue() arguments over the shape's certificate
    (e.g. {"not_after": ...}); pki: a Pki to issue from (a new one in the
    temporary directory when None); max_seconds: nginx is killed after that."""

    START_TIMEOUT = 10

    def __init__(self, shape="modern", profile=None, pki=None, max_seconds=120, cert_options=None, **overrides):
        if shape not in SHAPES:
            raise ValueError("unknown shape %r (known: %s)" % (shape, ", ".join(SHAPES)))
        unknown = set(overrides) - set(_MODERN)
        if unknown:
            raise ValueError("unknown settings: %s" % sorted(unknown))
        self.shape = shape
        self.settings = dict(SHAPES[shape], **overrides)
        self.profile = profile
        self.pki = pki
        self.max_seconds = max_seconds
        self.tmp = None
        self.fixture = None
        self.proc = None
        self.port = None
        self.timer = None
        self.cert_file = None
        self.cert_options = dict(cert_options or {})  # issue() arguments over the shape's certificate

    # -- life cycle --------------------------------------------------------
    def start(self):
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        require_tls_tools()
        self.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-tls-"))
        if self.pki is None:
            self.pki = Pki(self.tmp / "pki")
        cert_name = self.settings["cert"]
        self.cert_file, self.key_file = self.pki.issue("%s-%s" % (self.shape, cert_name),
                                                       **dict(CERTS[cert_name], **self.cert_options))
        self.dhparam_file = None
        if self.settings["dhparam"]:
            self.dhparam_file = self.tmp / "dhparam.pem"
            _run([OPENSSL, "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:" + self.settings["dhparam"],
                  "-out", self.dhparam_file])
        self.fixture = FixtureServer(self.profile, max_seconds=self.max_seconds + 10).start()
        for attempt in range(5):
            self.port = _free_port()
            conf = self.tmp / "nginx.conf"
            conf.write_text(self._config())
            log = open(self.tmp / "nginx.out", "wb")
            try:
                # coreutils timeout bounds nginx's life even if this process dies unexpectedly
                bound = [TIMEOUT, "-k", "5", str(int(self.max_seconds) + 5)] if TIMEOUT else []
                self.proc = subprocess.Popen(
                    bound + [NGINX, "-p", str(self.tmp), "-c", str(conf), "-e", str(self.tmp / "error.log")],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            finally:
                log.close()
            if self._await_ready():
                break
            self._kill_nginx()
            errors = self.errors()
            if not self._taken and "Address already in use" not in errors:
                raise RuntimeError("nginx did not start on 127.0.0.1:%d:\n%s" % (self.port, errors))
        else:
            raise RuntimeError("nginx found no free port after 5 attempts")
        self.timer = threading.Timer(self.max_seconds, self._kill_nginx)
        self.timer.daemon = True
        self.timer.start()

    def _await_ready(self):
        """The port answers for this nginx. Another process that took the port between
        _free_port() and nginx's bind answers too, while nginx retries its own bind for
        2.5 s: then self._taken, and the caller tries another port."""
        self._taken = False
        deadline = time.monotonic() + self.START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
            except OSError:
                time.sleep(0.02)
                continue
            if harness.session_listens(self.port, self.proc.pid) is False:
                self._taken = True
                return False
            return True
        return False

    def _kill_nginx(self):
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)  # nginx: fast shutdown
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=5)

    def stop(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self._kill_nginx()
        if self.fixture is not None:
            self.fixture.stop()
            self.fixture = None
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- facts -------------------------------------------------------------
    @property
    def origin(self):
        return "https://127.0.0.1:%d" % self.port

    @property
    def base_url(self):
        return self.origin + self.fixture.fixture.base

    @property
    def ca_file(self):
        return str(self.pki.ca_file)

    def requests(self):
        """The fixture server's request log (what came through nginx)."""
        return self.fixture.requests()

    def errors(self):
        out = []
        for name in ("nginx.out", "error.log"):
            try:
                out.append((self.tmp / name).read_text(errors="replace"))
            except (OSError, TypeError):
                pass
        return "".join(out)

    # -- configuration -----------------------------------------------------
    def _config(self):
        s = self.settings
        t = self.tmp
        add = ["add_header %s %s always;" % (name, _nginx_quote(value)) for name, value in s["headers"].items()]
        add += ["proxy_hide_header %s;" % name for name in s["hide"]]
        if s["cors"]:  # nginx's CORS replaces the fixture's
            add += ["proxy_hide_header Access-Control-Allow-Origin;",
                    "proxy_hide_header Access-Control-Allow-Credentials;"]
            if s["cors"] == "*":
                add.append('add_header Access-Control-Allow-Origin "*" always;')
            elif s["cors"] in ("echo", "echo_credentials"):
                add.append("add_header Access-Control-Allow-Origin $http_origin always;")
                add.append("add_header Vary Origin always;")
                if s["cors"] == "echo_credentials":
                    add.append("add_header Access-Control-Allow-Credentials true always;")
            else:
                raise ValueError("cors setting %r" % s["cors"])
        client = ""
        if s["verify_client"]:
            if not s["client_ca"]:
                raise ValueError("verify_client needs client_ca (a CA file)")
            client = "ssl_verify_client %s;\n        ssl_client_certificate %s;" % (s["verify_client"], s["client_ca"])
        return """
daemon off;
master_process off;
worker_processes 1;
pid {t}/nginx.pid;
error_log {t}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {t}/access.log;
    client_body_temp_path {t}/client_body;
    proxy_temp_path {t}/proxy;
    fastcgi_temp_path {t}/fastcgi;
    uwsgi_temp_path {t}/uwsgi;
    scgi_temp_path {t}/scgi;
    server_tokens off;
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port} ssl;
        server_name localhost 127.0.0.1;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols {protocols};
        ssl_ciphers {ciphers};
        ssl_prefer_server_ciphers on;
        ssl_session_tickets off;
        {dhparam}
        {client}
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_read_timeout 30s;
            {add}
        }}
    }}
}}
""".format(t=t, port=self.port, cert=self.cert_file, key=self.key_file, protocols=s["protocols"],
           ciphers=_nginx_quote(s["ciphers"]), upstream=self.fixture.port, add="\n            ".join(add),
           client=client, dhparam=("ssl_dhparam %s;" % self.dhparam_file) if self.dhparam_file else "")


# --------------------------------------------------------------------------
# openssl s_client as a second opinion
# --------------------------------------------------------------------------

def s_client(port, flag, timeout=10):
    """Handshake with `openssl s_client -connect 127.0.0.1:port <flag>` (e.g.
    -tls1_1), every cipher allowed; returns (protocol or None, cipher or None)."""
    proc = subprocess.run([OPENSSL, "s_client", "-connect", "127.0.0.1:%d" % port, flag,
                           "-cipher", "ALL:@SECLEVEL=0", "-servername", "localhost"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout)
    out = proc.stdout.decode(errors="replace")
    # "New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384" ("New, (NONE), Cipher is (NONE)" on failure)
    # names the cipher's own version; the protocol is in the SSL-Session block ("Protocol  : TLSv1.1"),
    # which is not printed for TLS 1.3 when stdin closes before a session ticket arrives
    new = re.search(r"^New, (\S+), Cipher is (\S+)", out, re.M)
    proto = re.search(r"^\s*Protocol\s*:\s*(\S+)", out, re.M)
    if proc.returncode != 0 or not new or new.group(1) == "(NONE)" or new.group(2) in ("0000", "(NONE)"):
        return None, None
    return (proto.group(1) if proto else new.group(1)), new.group(2)


# --------------------------------------------------------------------------
# standalone
# --------------------------------------------------------------------------

def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description="Serve the fixture API over TLS through nginx on 127.0.0.1.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="start one shape; print a JSON line with port and CA file")
    serve.add_argument("shape", choices=sorted(SHAPES))
    serve.add_argument("--max-seconds", type=float, default=300)
    args = ap.parse_args(argv)

    why = missing_tools()
    if why:
        print(why, file=sys.stderr)
        return 77
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: done.set())
    with NginxTLS(args.shape, max_seconds=args.max_seconds) as srv:
        print(json.dumps({"shape": args.shape, "port": srv.port, "url": srv.origin + "/",
                          "base_url": srv.base_url, "ca_file": srv.ca_file}), flush=True)
        done.wait(args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
