#!/usr/bin/python3
"""A small HTTP CONNECT proxy on 127.0.0.1 for the proxy tests (stdlib only).

``ConnectProxy(mode="allow", credentials=None)``: listens on a free 127.0.0.1
port; ``url`` is ``http://127.0.0.1:PORT``.  Every CONNECT request is logged
(``log()``: a list of ``{"target", "headers", "status"}``, headers as sent);
then, by ``mode``:

- ``"allow"``: answers ``200 Connection established`` and relays bytes both ways;
- ``"deny"``: answers ``403 Forbidden`` and closes.

With ``credentials=("user", "password")`` a CONNECT without the matching
``Proxy-Authorization: Basic`` header gets ``407 Proxy Authentication Required``.
Only targets on 127.0.0.0/8 or ``localhost`` are ever connected to (anything
else gets 403); any request other than CONNECT gets 405, unless
``forward=True``: then a request in absolute form (``GET http://127.0.0.1:P/x``,
what a client sends an ``http_proxy`` for an ``http://`` URL) is forwarded to
its host in origin form, with ``Connection: close``, and the answer relayed;
its ``Proxy-*`` headers are dropped as a proxy does, or passed on as a
careless one does with ``pass_credentials=True`` (so a server can echo them).  Threads are daemons;
``stop()`` closes the listener and every open tunnel.

``SocksProxy()``: the same as a SOCKS5 proxy without authentication (``url`` is
``socks5://127.0.0.1:PORT``, or ``socks5h://`` with ``remote_dns=True``); each
CONNECT is logged as ``{"method": "SOCKS5", "target", "status"}`` (status 0:
granted, else the SOCKS5 reply code).
"""

import base64
import ipaddress
import select
import socket
import threading

import harness


class ConnectProxy:
    def __init__(self, mode="allow", credentials=None, forward=False, pass_credentials=False):
        if mode not in ("allow", "deny"):
            raise ValueError("mode %r" % mode)
        self.mode = mode
        self.credentials = credentials
        self.forward = forward
        self.pass_credentials = pass_credentials
        self._log = []
        self._lock = threading.Lock()
        self._sockets = []
        self._stop = threading.Event()
        self.listener = None
        self.port = None

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.port

    def log(self):
        with self._lock:
            return [dict(entry) for entry in self._log]

    def start(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self):
        self._stop.set()
        if self.listener is not None:
            self.listener.close()
        with self._lock:
            for s in self._sockets:
                try:
                    s.close()
                except OSError:
                    pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # ------------------------------------------------------------------
    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            with self._lock:
                self._sockets.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    @staticmethod
    def _read_head(conn):
        conn.settimeout(10)
        head = harness.read_head(conn, step=1, limit=16384)  # byte by byte: never read past the request head
        return None if head is None else head.decode("latin-1")

    @staticmethod
    def _allowed(host):
        if host == "localhost":
            return True
        try:
            return ipaddress.ip_address(host) in ipaddress.ip_network("127.0.0.0/8")
        except ValueError:
            return False

    def _answer(self, conn, status):
        reasons = {200: "Connection established", 403: "Forbidden", 405: "Method Not Allowed",
                   407: "Proxy Authentication Required", 502: "Bad Gateway"}
        extra = 'Proxy-Authenticate: Basic realm="adrprobe test proxy"\r\n' if status == 407 else ""
        body = "" if status == 200 else "Content-Length: 0\r\nConnection: close\r\n"
        conn.sendall(("HTTP/1.1 %d %s\r\n%s%s\r\n" % (status, reasons[status], extra, body)).encode("latin-1"))

    def _serve(self, conn):
        try:
            head = self._read_head(conn)
            if head is None:
                return
            lines = head.split("\r\n")
            method, _, rest = lines[0].partition(" ")
            target = rest.rpartition(" ")[0]
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, _, value = line.partition(":")
                    headers[name.strip()] = value.strip()
            entry = {"method": method, "target": target, "headers": headers, "status": None}
            with self._lock:
                self._log.append(entry)
            forwarded = self.forward and method != "CONNECT" and target.startswith("http://")
            if method != "CONNECT" and not forwarded:
                entry["status"] = 405
                return self._answer(conn, 405)
            if self.credentials is not None:
                want = "Basic " + base64.b64encode(("%s:%s" % self.credentials).encode()).decode()
                if headers.get("Proxy-Authorization") != want:
                    entry["status"] = 407
                    return self._answer(conn, 407)
            if forwarded:
                return self._forward(conn, method, target, headers, entry)
            host, _, port = target.rpartition(":")
            upstream = self._upstream(conn, host, port, entry)
            if upstream is None:
                return
            self._answer(conn, 200)
            self._relay(conn, upstream)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def _upstream(self, conn, host, port, entry):
        """A connection to host:port for the client on conn, logged with
        status 200; or None, the client answered 403 (a host the proxy does not
        serve, or mode "deny") or 502 (no connection)."""
        host = host.strip("[]")
        if self.mode == "deny" or not self._allowed(host):
            entry["status"] = 403
            self._answer(conn, 403)
            return None
        try:
            upstream = socket.create_connection((host, int(port)), timeout=10)
        except (OSError, ValueError):
            entry["status"] = 502
            self._answer(conn, 502)
            return None
        with self._lock:
            self._sockets.append(upstream)
        entry["status"] = 200
        return upstream

    def _forward(self, conn, method, target, headers, entry):
        rest = target[len("http://"):]
        hostport, slash, path = rest.partition("/")
        host, _, port = hostport.rpartition(":")
        lines = ["%s /%s HTTP/1.1" % (method, path if slash else "")]
        for name, value in headers.items():
            low = name.lower()
            if low in ("connection", "proxy-connection") or (low.startswith("proxy-") and not self.pass_credentials):
                continue
            lines.append("%s: %s" % (name, value))
        lines.append("Connection: close")
        upstream = self._upstream(conn, host, port or "80", entry)
        if upstream is None:
            return
        upstream.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        upstream.settimeout(10)
        while True:
            chunk = upstream.recv(65536)
            if not chunk:
                break
            conn.sendall(chunk)
        upstream.close()

    def _relay(self, a, b):
        a.setblocking(False)
        b.setblocking(False)
        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([a, b], [], [], 0.5)
                for src in readable:
                    dst = b if src is a else a
                    data = src.recv(65536)
                    if not data:
                        return
                    dst.setblocking(True)
                    dst.sendall(data)
                    dst.setblocking(False)
        except OSError:
            return
        finally:
            b.close()


class SocksProxy(ConnectProxy):
    def __init__(self, remote_dns=False):
        super().__init__("allow")
        self.remote_dns = remote_dns

    @property
    def url(self):
        return "%s://127.0.0.1:%d" % ("socks5h" if self.remote_dns else "socks5", self.port)

    @staticmethod
    def _exactly(conn, n):
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise OSError("closed")
            data += chunk
        return data

    def _serve(self, conn):
        try:
            conn.settimeout(10)
            version, methods = self._exactly(conn, 2)
            offered = self._exactly(conn, methods)
            if version != 5 or 0 not in offered:
                conn.sendall(b"\x05\xff")
                return
            conn.sendall(b"\x05\x00")
            _, command, _, kind = self._exactly(conn, 4)
            if kind == 1:
                host = socket.inet_ntop(socket.AF_INET, self._exactly(conn, 4))
            elif kind == 4:
                host = socket.inet_ntop(socket.AF_INET6, self._exactly(conn, 16))
            elif kind == 3:
                host = self._exactly(conn, self._exactly(conn, 1)[0]).decode("latin-1")
            else:
                return
            port = int.from_bytes(self._exactly(conn, 2), "big")
            entry = {"method": "SOCKS5", "target": "%s:%d" % (host, port), "headers": {}, "status": None}
            with self._lock:
                self._log.append(entry)
            reply = 0
            upstream = None
            if command != 1:
                reply = 7
            elif not self._allowed(host):
                reply = 2
            else:
                try:
                    upstream = socket.create_connection((host, port), timeout=10)
                except OSError:
                    reply = 5
            entry["status"] = reply
            conn.sendall(bytes([5, reply, 0, 1, 0, 0, 0, 0, 0, 0]))
            if upstream is not None:
                with self._lock:
                    self._sockets.append(upstream)
                self._relay(conn, upstream)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass
