"""Every snippet of probes/fixes/<stack>.yaml is complete: pasted where its
advice says, into the smallest file of that stack, the stack's own checker
accepts it (go vet, python3 -m py_compile and pyflakes' undefined names,
node --check, nginx -t, apache2 -t, caddy validate, xmllint for a QGIS project).

The file around a snippet holds only what the advice says is already there
(the app object, the ServeMux, the router the routes are on): an import the
snippet uses and does not bring along is an undefined name. A Go snippet,
which cannot carry an import block into a function, names its imports in a
comment, after "Imports:" ("fmt", "net/http"); the file imports exactly those, so
go vet fails on one missing (undefined) or one too many (unused).

test_fixes.py proves that each snippet fixes its check on a running app.
"""

import os
import re
import subprocess
import tempfile
import unittest

import harness
from test_fixes import parts

import yaml

DATA = harness.REPO / "probes" / "fixes"
APPS = harness.REPO / "tests" / "fixes"


def indent(text, prefix):
    return "\n".join(prefix + line if line.strip() else "" for line in text.rstrip("\n").split("\n"))


def go_file(text, place):
    """A Go program with the snippet in main (beside mux and addr) or in a handler of mux (place "handler");
    a snippet of two parts (test_fixes.parts) has its first at the top level of the file, its second in main."""
    imports = []
    for line in text.split("\n"):
        if line.strip().startswith("//") and "Imports:" in line:
            imports += re.findall(r'"([^"]+)"', line.split("Imports:", 1)[1])
    pieces = ["\n".join(p) for p in parts(text)]
    top = pieces[0] if len(pieces) == 2 else ""
    body = indent(pieces[-1], "\t\t") if place == "handler" else indent(pieces[-1], "\t")
    if place == "handler":
        body = "\tmux.HandleFunc(\"/v1/items\", func(w http.ResponseWriter, r *http.Request) {\n%s\n\t})" % body
    return ("package main\n\nimport (\n%s\n)\n\n%s\n\nfunc main() {\n\taddr := \"127.0.0.1:0\"\n\tmux := http.NewServeMux()\n%s\n"
            "\t_, _ = addr, mux\n}\n") % ("\n".join('\t"%s"' % i for i in imports), top, body)


# What each Python stack's advice takes to be in the module already (its own
# words: "the app", "the blueprint bp", "the router"); decorators get a view.
PYTHON_PROLOGUE = {
    "flask": "from flask import Blueprint, Flask\nfrom flask_cors import CORS\n\napp = Flask(__name__)\n"
             "bp = Blueprint('api', __name__, url_prefix='/v1')\n",
    "fastapi": "from fastapi import APIRouter, FastAPI\n\napp = FastAPI()\nroot = FastAPI()\nrouter = APIRouter(prefix='/v1')\n",
    "django-rest-framework": "from django.urls import include, path\nfrom rest_framework import routers\n\n"
                             "router = routers.DefaultRouter()\nurlpatterns = [path('v1/', include(router.urls))]\n",
}


def python_file(stack, text):
    body = text.rstrip("\n")
    if body.split("\n")[-1].lstrip().startswith("@"):
        body += "\ndef view():\n    return {}\n"
    return PYTHON_PROLOGUE[stack] + "\n\n" + body + "\n"


JS_PROLOGUE = {
    "express": "const express = require('express');\nconst app = express();\n",
    "fastify": "const app = require('fastify')();\n",
    "hono": "const { Hono } = require('hono');\nconst app = new Hono();\n",
}


def js_file(stack, text):
    return JS_PROLOGUE[stack] + "\n" + text.rstrip("\n") + "\n"


def nginx_file(text, d):
    return ("daemon off;\npid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp {\n    access_log off;\n"
            "    client_body_temp_path %s;\n    proxy_temp_path %s;\n    fastcgi_temp_path %s;\n    uwsgi_temp_path %s;\n"
            "    scgi_temp_path %s;\n    server {\n        listen 127.0.0.1:8080;\n%s\n"
            "        location /v1/ {\n            return 200 '{}';\n        }\n    }\n}\n") % ((d,) * 7 + (indent(text, "        "),))


def apache_file(text, d):
    return ("ServerRoot \"%s\"\nServerName 127.0.0.1\nListen 127.0.0.1:8080\nPidFile \"%s/httpd.pid\"\n"
            "DefaultRuntimeDir \"%s\"\nErrorLog \"%s/error.log\"\n"
            "LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so\n"
            "LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so\n"
            "LoadModule headers_module /usr/lib/apache2/modules/mod_headers.so\n"
            "DocumentRoot \"%s\"\n%s\n") % (d, d, d, d, d, text.rstrip("\n"))


def qgs_file(text):
    """A QGIS project's properties with the snippet among the values of its CRS restrictions, where the
    advice puts it."""
    return ("<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n<qgis version=\"3.22.16\">\n <properties>\n"
            "  <WMSCrsList type=\"QStringList\">\n   <value>EPSG:28992</value>\n%s\n  </WMSCrsList>\n </properties>\n"
            "</qgis>\n") % indent(text, "   ")


def caddy_file(text):
    return "http://127.0.0.1:8080 {\n%s\n\trespond /v1 `{}` 200\n}\n" % indent(text, "\t")


def snippets():
    """(stack, check, text) of every stack file; the generic advice is prose."""
    out = []
    for path in sorted(DATA.glob("*.yaml")):
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
        if data["stack"] != "any":
            out += [(data["stack"], e["check"], e["text"]) for e in data.get("fixes") or []]
    return out


# Where a snippet goes when it is not at the top level of the file its advice names.
PLACES = {("go-net-http", "HM-1"): "handler", ("go-net-http", "HM-3"): "handler"}


class SnippetsCompile(unittest.TestCase):
    def check(self, stack, check, text):
        with tempfile.TemporaryDirectory(prefix="adrprobe-snippet-") as d:
            lang = {"go-net-http": "go", "nginx": "nginx", "apache-httpd": "apache", "caddy": "caddy",
                    "mapserver": "apache", "qgis-server": "qgs"}.get(
                stack, "python" if stack in PYTHON_PROLOGUE else "js")
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            if lang == "go":
                harness.require_tool("go", "golang-go")
                name, content = "main.go", go_file(text, PLACES.get((stack, check)))
                env.update(GO111MODULE="off", GOCACHE=os.path.join(d, "cache"), GOPATH=d, HOME=d)
                commands = [["go", "vet", "main.go"]]
            elif lang == "python":
                harness.require_tool("pyflakes3", "pyflakes3")
                name, content = "app.py", python_file(stack, text)
                commands = [["/usr/bin/python3", "-m", "py_compile", "app.py"], ["pyflakes3", "app.py"]]
            elif lang == "js":
                harness.require_tool("node", "nodejs")
                name, content = "app.js", js_file(stack, text)
                commands = [["node", "--check", "app.js"]]
            elif lang == "nginx":
                harness.require_tool("/usr/sbin/nginx", "nginx-light")
                name, content = "nginx.conf", nginx_file(text, d)
                commands = [["/usr/sbin/nginx", "-t", "-p", d, "-c", os.path.join(d, "nginx.conf")]]
            elif lang == "apache":
                harness.require_tool("/usr/sbin/apache2", "apache2")
                name, content = "httpd.conf", apache_file(text, d)
                commands = [["/usr/sbin/apache2", "-t", "-f", os.path.join(d, "httpd.conf")]]
            elif lang == "qgs":
                harness.require_tool("xmllint", "libxml2-utils")
                name, content = "geo.qgs", qgs_file(text)
                commands = [["xmllint", "--noout", "geo.qgs"]]
            else:
                harness.require_tool("caddy", "caddy")
                name, content = "Caddyfile", caddy_file(text)
                env.update(XDG_DATA_HOME=d, XDG_CONFIG_HOME=d, HOME=d)
                commands = [["caddy", "validate", "--config", os.path.join(d, "Caddyfile"), "--adapter", "caddyfile"]]
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(content)
            for command in commands:
                p = subprocess.run(command, cwd=d, env=env, capture_output=True, text=True, timeout=120)
                out = p.stdout + p.stderr
                # pyflakes also names imports the prologue makes and a snippet does not use: only undefined names count.
                failed = ("undefined name" in out) if command[0] == "pyflakes3" else p.returncode != 0
                self.assertFalse(failed, "%s %s: %s rejects the snippet:\n%s\n--- %s ---\n%s" % (
                    stack, check, command[0], out[-3000:], name, content))


def _make(stack, check, text):
    def test(self):
        self.check(stack, check, text)
    test.__doc__ = "%s %s: the snippet as pasted passes the stack's checker" % (stack, check)
    return test


for _stack, _check, _text in snippets():
    setattr(SnippetsCompile, "test_%s_%s" % (_stack.replace("-", "_"), _check.replace("-", "_")),
            _make(_stack, _check, _text))


if __name__ == "__main__":
    harness.main()
