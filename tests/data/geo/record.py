#!/usr/bin/python3
"""Records what the real geospatial servers send, into tests/data/geo/<stack>/:
one JSON file per request (the request's path and Accept, the response's
status, headers and body, the body cut at 64 KiB), the servers started as the
integration suites start them (tests/integration/geo_servers.py). The origin
http://127.0.0.1:<port> is written as http://127.0.0.1:8080 wherever it
appears, so that a new recording differs only where the servers do.

    /usr/bin/python3 tests/data/geo/record.py [qgis-server|mapserver ...]
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "integration"))

import geo_servers  # noqa: E402

ORIGIN = "http://127.0.0.1:8080"
BODY_CAP = 64 * 1024
GEOJSON = "application/geo+json"
JSON = "application/json"
CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
UNREGISTERED = "http://www.opengis.net/def/crs/EPSG/0/999999"
ETRS89 = "http://www.opengis.net/def/crs/EPSG/0/4258"


def get(server, path, accept):
    url = server.origin + path
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, headers, body = r.status, r.getheaders(), r.read()
    except urllib.error.HTTPError as e:
        status, headers, body = e.code, e.headers.items(), e.read()
    text = body.decode("utf-8", "replace").replace(server.origin, ORIGIN)
    return {"request": {"method": "GET", "path": path, "accept": accept},
            "status": status,
            "headers": {k: v.replace(server.origin, ORIGIN) for k, v in headers if k.lower() != "date"},
            "body": text[:BODY_CAP], "body_cut": len(text) > BODY_CAP}


def quarter(bbox):
    """The central quarter of a bbox (GE-8's b)."""
    w, s, e, n = bbox[:4]
    dx, dy = (e - w) / 4, (n - s) / 4
    return [w + dx, s + dy, e - dx, n - dy]


def numbers(values):
    return ",".join(repr(round(v, 9)) for v in values)


def record(stack):
    server = geo_servers.GeoServer(stack).start()
    out = os.path.join(HERE, stack)
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        if name.endswith(".json"):
            os.remove(os.path.join(out, name))
    base = server.spec["path"]
    recorded = []

    def keep(name, path, accept=JSON):
        entry = get(server, path, accept)
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(entry, f, indent=1, ensure_ascii=False)
            f.write("\n")
        recorded.append((name, path, accept, entry["status"]))
        return entry

    try:
        keep("landing", base)
        keep("openapi", server.spec["openapi"])
        keep("conformance", base + "/conformance")
        collections = json.loads(keep("collections", base + "/collections")["body"])
        ids = [c["id"] for c in collections["collections"]]
        first_with_features, bbox, listed = None, None, []
        for cid in ids:
            c = json.loads(keep("collection-%s" % cid, "%s/collections/%s" % (base, cid))["body"])
            items = keep("items-%s" % cid, "%s/collections/%s/items?limit=10" % (base, cid), GEOJSON)
            keep("items-%s-accept-json" % cid, "%s/collections/%s/items?limit=10" % (base, cid), JSON)
            features = json.loads(items["body"]).get("features") or []
            if features:
                keep("feature-%s" % cid, "%s/collections/%s/items/%s" % (
                    base, cid, urllib.parse.quote(str(features[0]["id"]), safe="")), GEOJSON)
                if first_with_features is None:
                    first_with_features = cid
                    bbox = c["extent"]["spatial"]["bbox"][0]
                    listed = c.get("crs") or collections.get("crs") or []
        items = "%s/collections/%s/items" % (base, first_with_features)
        q = lambda **params: items + "?" + urllib.parse.urlencode(params, safe=":/,")  # noqa: E731
        keep("queryables-%s" % first_with_features, "%s/collections/%s/queryables" % (base, first_with_features))
        # GE-5: each listed CRS (as the server lists it), CRS84 when none is listed, one no one registers.
        for i, crs in enumerate(listed[:5] or [CRS84]):
            keep("items-crs-%d" % i, q(crs=crs), GEOJSON)
        keep("items-crs-unregistered", q(crs=UNREGISTERED), GEOJSON)
        # GE-8: the central quarter of the collection's extent, and latitudes beyond the CRS.
        b = quarter(bbox)
        keep("items-bbox", q(bbox=numbers(b)), GEOJSON)
        keep("items-bbox-beyond", q(bbox="0,91,1,92"), GEOJSON)
        # GE-9: bbox-crs with crs, an unregistered bbox-crs, EPSG:4258's latitude-first axes.
        other = [c for c in listed if not c.endswith("/CRS84")]
        if other:
            keep("items-bbox-crs", q(bbox=numbers(b), **{"bbox-crs": CRS84, "crs": other[0]}), GEOJSON)
        keep("items-bbox-crs-unregistered", q(bbox=numbers(b), **{"bbox-crs": UNREGISTERED}), GEOJSON)
        # A listed CRS is named as the server lists it (EPSG/9.6.2/4258, say).
        etrs89 = next((c for c in listed if c.rstrip("/").endswith("/4258")), ETRS89)
        keep("items-bbox-crs-4258", q(bbox=numbers([b[1], b[0], b[3], b[2]]), **{"bbox-crs": etrs89}), GEOJSON)
    finally:
        server.stop()
    with open(os.path.join(out, "index.json"), "w", encoding="utf-8") as f:
        json.dump([{"file": n + ".json", "path": p, "accept": a, "status": s} for n, p, a, s in recorded],
                  f, indent=1)
        f.write("\n")
    print("%s: %d responses in %s" % (stack, len(recorded), out))


if __name__ == "__main__":
    for stack in sys.argv[1:] or geo_servers.STACKS:
        record(stack)
