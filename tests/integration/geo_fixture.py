#!/usr/bin/python3
"""Small geospatial APIs for the Geospatial module's tests (module-geo.md), in
both shapes, each variant wrong in one way:

    with GeoFixture("administrative", "bbox-ignored") as fx:
        fx.url          # http://127.0.0.1:PORT/v1 (its document at /v1/openapi.json)
        fx.requests()   # [(method, path), ...]

The data is the made-up Dutch data of tests/data/geo/: six buildings
(polygons) and six addresses (points), each in CRS84 and in RD (EPSG:28992,
transformed by ogr2ogr). ETRS89 (EPSG:4258) and its member ETRF2000 (EPSG:9067)
are served as CRS84 with the axes in their order, latitude first (the
difference, under a metre, does not matter here).

- `ogc`: OGC API Features under /v1: /collections (with a `crs` list),
  /collections/{id} (`storageCrs`, `crs: ["#/crs"]`), its items
  (application/geo+json, `crs`, `bbox`, `bbox-crs`), a feature, /conformance.
- `administrative`: /v1/gebouwen and /v1/adressen (application/json, HAL's
  `_embedded`, each resource's geometry in `geometrie`, a GeoJSON geometry),
  /v1/gebouwen/{identificatie}, and /v1/crss.

`VARIANTS` names what each variant changes; `good` is right in every way the
module asks. A variant whose response is hostile (`huge`, `many-features`,
`deep`, `nan`, `crs-many`, `content-crs-1mb`, `crs-not-utf8`, `crs-planted`) streams it.
"""

import copy
import json
import math
import re
import urllib.parse
from pathlib import Path

from side_server import SideServer

DATA = Path(__file__).resolve().parent.parent / "data" / "geo"

CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
ETRS89 = "http://www.opengis.net/def/crs/EPSG/0/4258"
ETRF2000 = "http://www.opengis.net/def/crs/EPSG/0/9067"
RD = "http://www.opengis.net/def/crs/EPSG/0/28992"
UNREGISTERED = "http://www.opengis.net/def/crs/EPSG/0/999999"
LAT_FIRST = ("4258", "9067")

# What each variant changes from `good` (the keys are read by Api below).
VARIANTS = {
    "good": {},
    # GE-3/GE-4/GE-5: Content-Crs always CRS84 (and CRS84 coordinates, whatever crs asks), or never sent.
    "content-crs-wrong": {"content_crs": "wrong"},
    "content-crs-missing": {"content_crs": "missing"},
    # GE-5: crs= ignored (CRS84 coordinates) while Content-Crs names what was asked; an unregistered crs 200.
    "crs-ignored": {"crs": "ignored"},
    # GE-8: every feature whatever bbox asks (and no 400 for latitudes beyond 90).
    "bbox-ignored": {"bbox": "ignored"},
    # GE-9: bbox-crs=EPSG:4258's bbox read as longitude first.
    "axis-swapped": {"axis": "swapped"},
    # GE-1 and the checks that need the list.
    "crs-list-missing": {"crs_list": None},
    "crs-not-uri": {"crs_list": ["EPSG:28992", CRS84]},
    "crs84-only": {"crs_list": [CRS84]},
    "no-etrf2000": {"crs_list": [CRS84, ETRS89, RD]},
    "no-etrs89-no-rd": {"crs_list": [CRS84, "http://www.opengis.net/def/crs/EPSG/0/3857"]},
    # GE-2 (OGC): a collection without storageCrs, or with one not in its list.
    "storage-crs-missing": {"storage_crs": None},
    "storage-crs-unlisted": {"storage_crs": "http://www.opengis.net/def/crs/EPSG/0/3035"},
    # GE-11/GE-12: the second building's geometry invalid (RFC 7946), or the wrong media type.
    "unclosed-ring": {"invalid": "unclosed-ring"},
    "one-position-linestring": {"invalid": "one-position-linestring"},
    "latitude-95": {"invalid": "latitude-95"},
    "string-coordinates": {"invalid": "string-coordinates"},
    "json-not-geojson": {"media_type": "application/json"},
    # GE-8 administrative: the collection paths document no bbox parameter.
    "bbox-undocumented": {"bbox_documented": False},
    # lint: no Content-Crs response header documented.
    "content-crs-undocumented": {"content_crs_documented": False},
    # Speed: 50 collections (laag-3 .. laag-50 serve the buildings again).
    "fifty-collections": {"collections": 50},
    # Bad input: hostile answers, streamed.
    "huge": {"hostile": "huge"},                    # a 200 MB FeatureCollection
    "many-features": {"hostile": "many-features"},  # 10^6 features
    "deep": {"hostile": "deep"},                    # coordinates nested 10^5 deep
    "nan": {"hostile": "nan"},                      # NaN and 1e999 as coordinates
    "crs-many": {"hostile": "crs-many"},            # a crs list of 10^6 entries
    "content-crs-1mb": {"hostile": "content-crs-1mb"},  # a Content-Crs of 1 MB
    "crs-not-utf8": {"hostile": "crs-not-utf8"},    # crs entries not UTF-8, with escapes and markup
    "crs-planted": {"hostile": "crs-planted"},      # valid JSON, an entry with a terminal escape and markup
}

# Server text the reports must show escaped (crs-not-utf8): a terminal escape, markup, a Markdown link.
PLANTED = "\x1b[31mRED<script>alert(1)</script>[x](javascript:alert(1))"


def _load(name):
    with open(DATA / name, encoding="utf-8") as f:
        return json.load(f)["features"]


def _dataset():
    """{collection: [(id, properties, CRS84 geometry, RD geometry)]}, in file order."""
    out = {}
    for name, crs84_file, rd_file, key in (("gebouwen", "gebouwen-crs84.geojson", "gebouwen.geojson", "identificatie"),
                                           ("adressen", "adressen.geojson", "adressen-rd.geojson", "identificatie")):
        rows = []
        for lonlat, rd in zip(_load(crs84_file), _load(rd_file)):
            rows.append((lonlat["properties"][key], lonlat["properties"], lonlat["geometry"], rd["geometry"]))
        out[name] = rows
    return out


DATASET = _dataset()


def same_crs(a, b):
    """Two CRS URIs name the same CRS (module-geo.md: brackets, scheme and the version segment aside)."""
    def norm(u):
        u = u.strip().strip("<>")
        u = re.sub(r"^https?://", "", u)
        return re.sub(r"^(www\.opengis\.net/def/crs/[^/]+)/[^/]+/", r"\1/*/", u)
    return norm(a) == norm(b)


def _code(uri):
    return uri.rstrip("/").rsplit("/", 1)[-1]


def _positions(coords):
    if coords and isinstance(coords[0], (int, float)):
        yield coords
    else:
        for c in coords:
            yield from _positions(c)


def _map_positions(coords, fn):
    if coords and isinstance(coords[0], (int, float)):
        return fn(coords)
    return [_map_positions(c, fn) for c in coords]


def envelope(geometry):
    xs, ys = zip(*[(p[0], p[1]) for p in _positions(geometry["coordinates"])])
    return min(xs), min(ys), max(xs), max(ys)


def intersects(env, box):
    return not (env[2] < box[0] or env[0] > box[2] or env[3] < box[1] or env[1] > box[3])


INVALID = {
    "unclosed-ring": {"type": "Polygon", "coordinates": [[[5.388, 52.156], [5.389, 52.156], [5.389, 52.157], [5.388, 52.157]]]},
    "one-position-linestring": {"type": "LineString", "coordinates": [[5.388, 52.156]]},
    "latitude-95": {"type": "Point", "coordinates": [5.388, 95.0]},
    "string-coordinates": {"type": "Point", "coordinates": ["5.388", "52.156"]},
}


class BadRequest(Exception):
    pass


class Api:
    """The answers of one variant of one shape."""

    def __init__(self, shape, variant, origin):
        assert shape in ("ogc", "administrative") and variant in VARIANTS, (shape, variant)
        self.shape, self.variant, self.origin = shape, variant, origin
        v = VARIANTS[variant]
        self.v = v
        self.crs_list = v["crs_list"] if "crs_list" in v else [CRS84, ETRS89, ETRF2000, RD]
        self.storage_crs = v["storage_crs"] if "storage_crs" in v else RD
        self.collections = dict(DATASET)
        for n in range(len(DATASET) + 1, v.get("collections", 0) + 1):
            self.collections["laag-%d" % n] = DATASET["gebouwen"]

    # ---------------------------------------------------------------- the document

    def document(self):
        geo = self.shape == "ogc"
        media = "application/geo+json" if geo else "application/json"
        crs_param = {"name": "crs", "in": "query", "required": False, "schema": {"type": "string", "format": "uri"}}
        bbox_params = [
            {"name": "bbox", "in": "query", "required": False, "style": "form", "explode": False,
             "schema": {"type": "array", "minItems": 4, "maxItems": 6, "items": {"type": "number"}}},
            {"name": "bbox-crs", "in": "query", "required": False, "schema": {"type": "string", "format": "uri"}},
        ] if self.v.get("bbox_documented", True) else []
        headers = {"API-Version": {"schema": {"type": "string"}}}
        if self.v.get("content_crs_documented", True):
            headers["Content-Crs"] = {"description": "the CRS of the geometry in the response",
                                      "schema": {"type": "string"}}
        problem = {"description": "fout", "content": {"application/problem+json": {"schema": {"type": "object"}}}}
        ok = lambda schema: {"200": {"description": "ok", "headers": headers,  # noqa: E731
                                     "content": {media: {"schema": schema}}}, "400": problem}
        paths, schemas = {}, {"Geometry": {
            "type": "object", "required": ["type", "coordinates"],
            "properties": {"type": {"type": "string", "enum": ["Point", "LineString", "Polygon", "MultiPoint",
                                                             "MultiLineString", "MultiPolygon"]},
                           "coordinates": {"type": "array", "items": {}}}}}
        if geo:
            feature = {"type": "object", "required": ["type", "geometry", "properties"],
                       "properties": {"type": {"type": "string", "enum": ["Feature"]},
                                      "geometry": {"$ref": "#/components/schemas/Geometry"},
                                      "properties": {"type": "object"}}}
            schemas["Feature"] = feature
            schemas["FeatureCollection"] = {"type": "object", "properties": {
                "type": {"type": "string", "enum": ["FeatureCollection"]},
                "features": {"type": "array", "items": {"$ref": "#/components/schemas/Feature"}}}}
            cid = {"name": "collectionId", "in": "path", "required": True, "schema": {"type": "string"},
                   "example": "gebouwen"}
            json_ok = lambda: {"200": {"description": "ok", "headers": {  # noqa: E731
                "API-Version": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"type": "object"}}}}}
            paths["/conformance"] = {"get": {"operationId": "getConformance", "responses": json_ok()}}
            paths["/collections"] = {"get": {"operationId": "getCollections", "responses": json_ok()}}
            paths["/collections/{collectionId}"] = {"get": {"operationId": "getCollection", "parameters": [cid],
                                                           "responses": json_ok()}}
            paths["/collections/{collectionId}/items"] = {"get": {
                "operationId": "getFeatures",
                "parameters": [cid, {"name": "limit", "in": "query", "schema": {"type": "integer"}}, crs_param]
                + bbox_params,
                "responses": ok({"$ref": "#/components/schemas/FeatureCollection"})}}
            paths["/collections/{collectionId}/items/{featureId}"] = {"get": {
                "operationId": "getFeature",
                "parameters": [cid, {"name": "featureId", "in": "path", "required": True, "schema": {"type": "string"},
                                     "example": "1"}, crs_param],
                "responses": ok({"$ref": "#/components/schemas/Feature"})}}
        else:
            for name, title in (("gebouwen", "Gebouw"), ("adressen", "Adres")):
                schemas[title] = {"type": "object", "properties": {
                    "identificatie": {"type": "string"},
                    "geometrie": {"$ref": "#/components/schemas/Geometry"}}}
                paths["/" + name] = {"get": {
                    "operationId": "get" + title.capitalize() + "s", "parameters": [crs_param] + bbox_params,
                    "responses": ok({"type": "object", "properties": {"_embedded": {"type": "object", "properties": {
                        name: {"type": "array", "items": {"$ref": "#/components/schemas/" + title}}}}}})}}
            paths["/gebouwen/{identificatie}"] = {"get": {
                "operationId": "getGebouw",
                "parameters": [{"name": "identificatie", "in": "path", "required": True, "schema": {"type": "string"},
                                "example": DATASET["gebouwen"][0][0]}, crs_param],
                "responses": dict(ok({"$ref": "#/components/schemas/Gebouw"}), **{"404": problem})}}
            paths["/crss"] = {"get": {"operationId": "getCrss", "responses": {"200": {
                "description": "ok", "headers": {"API-Version": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"type": "object", "properties": {
                    "crs": {"type": "array", "items": {"type": "string", "format": "uri"}}}}}}}}}}
        return {"openapi": "3.0.3",
                "info": {"title": "Gebouwen en adressen", "version": "1.0.0",
                         "description": "Een voorbeeld-API met geometrie.",
                         "contact": {"name": "Voorbeeld", "url": "https://example.org", "email": "api@example.org"}},
                "servers": [{"url": self.origin + "/v1"}],
                "paths": paths, "components": {"schemas": schemas}}

    # ---------------------------------------------------------------- answers

    def crs_of(self, query, name="crs"):
        """The CRS a query parameter names (the listed URI), CRS84 when absent; BadRequest when not listed."""
        asked = query.get(name)
        if asked is None:
            return CRS84
        listed = self.crs_list if self.crs_list is not None else [CRS84]
        for uri in listed:
            if same_crs(uri, asked):
                return uri
        if same_crs(asked, CRS84):
            return CRS84
        raise BadRequest("%s %s is not supported" % (name, asked))

    def geometry(self, row, crs):
        _, _, lonlat, rd = row
        code = _code(crs)
        if code == "28992":
            return copy.deepcopy(rd)
        if code in LAT_FIRST:
            return {"type": lonlat["type"], "coordinates": _map_positions(lonlat["coordinates"],
                                                                          lambda p: [p[1], p[0]] + p[2:])}
        return copy.deepcopy(lonlat)

    def box(self, query):
        """The bbox asked for as CRS84 (lon, lat) numbers, or None."""
        if "bbox" not in query or self.v.get("bbox") == "ignored":
            return None
        try:
            b = [float(x) for x in query["bbox"].split(",")]
        except ValueError:
            raise BadRequest("bbox is not four numbers")
        if len(b) != 4 or not all(math.isfinite(x) for x in b):
            raise BadRequest("bbox is not four numbers")
        crs = self.crs_of(query, "bbox-crs")
        code = _code(crs)
        if code in LAT_FIRST and self.v.get("axis") != "swapped":
            b = [b[1], b[0], b[3], b[2]]
        if code == "28992":
            return ("rd", b)
        if b[1] < -90 or b[3] > 90 or b[0] < -180 or b[2] > 180:
            raise BadRequest("bbox outside the CRS")
        return ("lonlat", b)

    def rows(self, collection, query):
        box = self.box(query)
        out = []
        for i, row in enumerate(self.collections[collection]):
            if box is not None:
                geom = row[3] if box[0] == "rd" else row[2]
                if not intersects(envelope(geom), box[1]):
                    continue
            out.append((i, row))
        return out

    def response_crs(self, query):
        """(CRS of the coordinates, the Content-Crs value or None)."""
        if self.v.get("crs") == "ignored":
            asked = query.get("crs", CRS84)
            return CRS84, "<%s>" % asked
        crs = self.crs_of(query)
        mode = self.v.get("content_crs", "right")
        if mode == "wrong":
            return CRS84, "<%s>" % CRS84
        if mode == "missing":
            return crs, None
        return crs, "<%s>" % crs

    def item(self, collection, index, row, crs):
        ident, props, _, _ = row
        geometry = self.geometry(row, crs)
        if collection == "gebouwen" and index == 1 and self.v.get("invalid"):
            geometry = copy.deepcopy(INVALID[self.v["invalid"]])
        if self.shape == "ogc":
            return {"type": "Feature", "id": ident, "geometry": geometry, "properties": dict(props)}
        return dict(props, geometrie=geometry,
                    _links={"self": {"href": "%s/v1/%s/%s" % (self.origin, collection, ident)}})

    def collection_info(self, cid):
        rows = self.collections[cid]
        env = [min(e) for e in zip(*[envelope(r[2])[:2] for r in rows])] + \
              [max(e) for e in zip(*[envelope(r[2])[2:] for r in rows])]
        info = {"id": cid, "title": cid.capitalize(), "itemType": "feature",
                "extent": {"spatial": {"bbox": [env], "crs": CRS84}},
                "links": [{"href": "%s/v1/collections/%s/items" % (self.origin, cid), "rel": "items",
                           "type": "application/geo+json"}]}
        if self.crs_list is not None:
            info["crs"] = ["#/crs"]
        if self.storage_crs is not None:
            info["storageCrs"] = self.storage_crs
        return info

    def answer(self, path, query):
        """(status, headers, body bytes or an iterator of bytes, content length or None)."""
        media = self.v.get("media_type") or ("application/geo+json" if self.shape == "ogc" else "application/json")
        hostile = self.v.get("hostile")
        m = re.fullmatch(r"/v1(/.*)?", path)
        if not m:
            return self.problem(404, "Not Found")
        rest = m.group(1) or ""
        try:
            if rest in ("", "/"):
                return self.json({"links": [{"href": self.origin + "/v1/openapi.json", "rel": "service-desc"}]})
            if rest == "/openapi.json":
                return self.json(self.document(), cors=True)
            if self.shape == "ogc":
                return self.ogc(rest, query, media, hostile)
            return self.administrative(rest, query, media, hostile)
        except BadRequest as e:
            return self.problem(400, "Bad Request", str(e))

    def ogc(self, rest, query, media, hostile):
        if rest == "/conformance":
            return self.json({"conformsTo": [
                "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
                "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
                "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
                "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs"]})
        if rest == "/collections":
            if hostile in ("crs-many", "crs-not-utf8", "crs-planted"):
                return self.hostile_crs_list(prefix=b'{"collections":[' + json.dumps(
                    self.collection_info("gebouwen")).encode() + b'],"crs":', suffix=b"}")
            body = {"collections": [self.collection_info(c) for c in self.collections]}
            if self.crs_list is not None:
                body["crs"] = self.crs_list
            return self.json(body)
        m = re.fullmatch(r"/collections/([^/]+)(/items(?:/([^/]+))?)?", rest)
        if not m or m.group(1) not in self.collections:
            return self.problem(404, "Not Found")
        cid = m.group(1)
        if not m.group(2):
            return self.json(self.collection_info(cid))
        crs, content_crs = self.response_crs(query)
        if m.group(3) is None:
            if hostile and cid == "gebouwen":
                return self.hostile_items(b'{"type":"FeatureCollection","features":', b"}", content_crs)
            feats = [self.item(cid, i, r, crs) for i, r in self.rows(cid, query)][:int(query.get("limit", "10"))]
            return self.json({"type": "FeatureCollection", "features": feats, "numberReturned": len(feats)},
                             media, content_crs)
        for i, row in enumerate(self.collections[cid]):
            if row[0] == m.group(3):
                return self.json(self.item(cid, i, row, crs), media, content_crs)
        return self.problem(404, "Not Found")

    def administrative(self, rest, query, media, hostile):
        if rest == "/crss":
            if hostile in ("crs-many", "crs-not-utf8", "crs-planted"):
                return self.hostile_crs_list(prefix=b'{"crs":', suffix=b"}")
            if self.crs_list is None:
                return self.problem(404, "Not Found")
            return self.json({"crs": self.crs_list})
        m = re.fullmatch(r"/(gebouwen|adressen)(?:/([^/]+))?", rest)
        if not m or (m.group(2) and m.group(1) != "gebouwen"):
            return self.problem(404, "Not Found")
        cid = m.group(1)
        crs, content_crs = self.response_crs(query)
        if m.group(2) is None:
            if hostile and cid == "gebouwen":
                return self.hostile_items(b'{"_embedded":{"gebouwen":', b"}}", content_crs, administrative=True)
            items = [self.item(cid, i, r, crs) for i, r in self.rows(cid, query)]
            return self.json({"_embedded": {cid: items}}, media, content_crs)
        for i, row in enumerate(DATASET[cid]):
            if row[0] == m.group(2):
                return self.json(self.item(cid, i, row, crs), media, content_crs)
        return self.problem(404, "Not Found")

    # ---------------------------------------------------------------- hostile answers

    def hostile_items(self, prefix, suffix, content_crs, administrative=False):
        hostile = self.v["hostile"]
        headers = {"Content-Type": "application/json" if administrative else "application/geo+json"}
        if content_crs:
            headers["Content-Crs"] = content_crs
        if hostile == "content-crs-1mb":
            headers["Content-Crs"] = "<" + CRS84 + "/" + "x" * (1 << 20) + ">"
        if administrative:
            one = lambda geom: b'{"identificatie":"1","geometrie":' + geom + b"}"  # noqa: E731
        else:
            one = lambda geom: b'{"type":"Feature","id":"1","properties":{},"geometry":' + geom + b"}"  # noqa: E731
        if hostile == "huge":
            ring = b"[" + b",".join(b"[5.38%04d,52.15%04d]" % (i, i) for i in range(60)) + b",[5.380000,52.150000]]"
            item = one(b'{"type":"Polygon","coordinates":[' + ring + b"]}")
            count = (200 << 20) // (len(item) + 1) + 1
        elif hostile == "many-features":
            item = one(b'{"type":"Point","coordinates":[5.1,52.1]}')
            count = 10 ** 6
        elif hostile == "deep":
            item = one(b'{"type":"Polygon","coordinates":' + b"[" * 100000 + b"5.1,52.1" + b"]" * 100000 + b"}")
            count = 1
        elif hostile == "nan":
            item = one(b'{"type":"Point","coordinates":[NaN,1e999]}')
            count = 3
        else:  # content-crs-1mb: the body is ordinary
            item = one(b'{"type":"Point","coordinates":[5.1,52.1]}')
            count = 1
        length = len(prefix) + 2 + count * len(item) + (count - 1) + len(suffix)

        def chunks():
            yield prefix + b"["
            batch = b",".join([item] * 1000)
            left = count
            first = True
            while left:
                n = min(left, 1000)
                yield (b"" if first else b",") + (batch if n == 1000 else b",".join([item] * n))
                first = False
                left -= n
            yield b"]" + suffix
        return 200, headers, chunks(), length

    def hostile_crs_list(self, prefix, suffix):
        if self.v["hostile"] == "crs-many":
            entries = [b'"http://www.opengis.net/def/crs/EPSG/0/%d"' % n for n in range(10 ** 6)]
            body = prefix + b"[" + b",".join(entries) + b"]" + suffix
        elif self.v["hostile"] == "crs-planted":
            body = prefix + json.dumps([CRS84, PLANTED]).encode() + suffix
        else:
            bad = [b'"http://www.opengis.net/def/crs/EPSG/0/28992\xff\xfe"',
                   b'"\xc3\x28' + json.dumps(PLANTED).strip('"').encode() + b'"',
                   json.dumps(CRS84).encode()]
            body = prefix + b"[" + b",".join(bad) + b"]" + suffix
        return 200, {"Content-Type": "application/json"}, body, len(body)

    # ---------------------------------------------------------------- plumbing

    def json(self, value, media="application/json", content_crs=None, cors=False):
        body = json.dumps(value, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": media}
        if content_crs:
            headers["Content-Crs"] = content_crs
        if cors:
            headers["Access-Control-Allow-Origin"] = "*"
        return 200, headers, body, len(body)

    def problem(self, status, title, detail=None):
        value = {"status": status, "title": title}
        if detail:
            value["detail"] = detail
        body = json.dumps(value).encode()
        return status, {"Content-Type": "application/problem+json"}, body, len(body)


class GeoFixture(SideServer):
    """A shape and variant served on 127.0.0.1 (side_server's plumbing, every path answered by Api)."""

    def __init__(self, shape, variant="good"):
        super().__init__(max_seconds=900, fallback=self.answer)
        self.shape, self.variant = shape, variant

    def start(self):
        super().start()
        self.url = self.origin + "/v1"
        self.api = Api(self.shape, self.variant, self.origin)
        return self

    def answer(self, handler):
        if handler.command != "GET":
            status, headers, body, length = 405, {"Allow": "GET"}, b"", 0
        else:
            parts = urllib.parse.urlsplit(handler.path)
            query = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
            status, headers, body, length = self.api.answer(parts.path, query)
        handler.send_response(status)
        for k, v in dict({"API-Version": "1.0.0"}, **headers).items():
            handler.send_header(k, v)
        handler.send_header("Content-Length", str(length))
        handler.end_headers()
        try:
            if isinstance(body, bytes):
                handler.wfile.write(body)
            else:
                for chunk in body:
                    handler.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True  # a client that hangs up on a hostile answer is expected


if __name__ == "__main__":  # serve one variant by hand: geo_fixture.py ogc bbox-ignored
    import sys
    import time
    fx = GeoFixture(*(sys.argv[1:3] or ["ogc"])).start()
    print(fx.url, flush=True)
    while True:
        time.sleep(3600)
