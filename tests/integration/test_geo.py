#!/usr/bin/python3
"""The Geospatial module live (module-geo.md; CLI.md `--modules`, `modules[]`,
`rules[].module`): the verdicts of GE-1..GE-15 on the real QGIS Server and
MapServer 8 (geo_servers.py) and on the Python fixtures of both shapes, each
variant wrong in one way (geo_fixture.py); `/core/geospatial` becoming
technical; `--modules auto|geo|none`; `lint` of their documents; the hostile
answers of the issue ending within the deadline in a valid report under
512 MiB, with nothing of them raw in text, HTML or Markdown.

Every server is started once for the suite and every run is made once
(`report()` keeps it): the suite takes seconds, MapServer's CGI most of them.
"""

import json
import os
import re
import shutil
import tempfile
import unittest

import harness
import geo_servers
from geo_fixture import GeoFixture, PLANTED

GE = {
    "GE-1": "/geo/crs-list",
    "GE-2": "/geo/storage-crs",
    "GE-3": "/geo/default-crs",
    "GE-4": "/geo/content-crs-response-header",
    "GE-5": "/geo/crs-query-parameter",
    "GE-6": "/geo/preferred-crs",
    "GE-7": "/geo/ensemble-member-crs",
    "GE-8": "/geo/bbox-query-parameter",
    "GE-9": "/geo/bbox-crs-query-parameter",
    "GE-10": "/geo/filter-crs-query-parameter",
    "GE-11": "/geo/geojson-response",
    "GE-12": "/geo/embed-geojson-geometry-response",
    "GE-13": "/geo/geojson-request",
    "GE-14": "/geo/embed-geojson-geometry-request",
    "GE-15": "/geo/content-crs-request-header",
}
CONTEXT = "/geo/geometric-context"  # functional
CORE_GEO = "/core/geospatial"  # 2.2.0: /core/modules/geospatial, this its alias
EDITION = "2.0.0"
HOSTILE = ("huge", "many-features", "deep", "nan", "crs-many", "content-crs-1mb", "crs-not-utf8", "crs-planted")
DEADLINE = 30
MEMORY_KB = 512 * 1024

FIXTURES = {}
RUNS = {}


def fixture(shape, variant="good"):
    """One fixture of a shape and variant for the suite."""
    if (shape, variant) not in FIXTURES:
        FIXTURES[(shape, variant)] = GeoFixture(shape, variant).start()
    return FIXTURES[(shape, variant)]


def tearDownModule():
    for fx in FIXTURES.values():
        fx.stop()


def target(name):
    """adrprobe's arguments for a target: a real server's name, or (shape, variant) of a fixture."""
    if isinstance(name, str):
        return geo_servers.shared(name).args()
    return [fixture(*name).url]


def report(name, *args, edition=EDITION):
    """The JSON report of `check` on a target (made once), validated against the schema."""
    key = (name, args, edition)
    if key not in RUNS:
        run = harness.run_adrprobe(harness.check_args(target(name)[0], target(name)[1:] + list(args), edition),
                                   timeout=120)
        assert run.rc in (0, 1, 3) and not run.timed_out, run.describe()
        r = run.json()
        harness.schema_validator().validate(r)
        RUNS[key] = (run, r)
    return RUNS[key][1]


def geo_rules(r):
    return [x for x in r["rules"] if x["id"].startswith("/geo/")]


class Case(harness.ProbeCase):
    def assertGE(self, r, ge, verdicts, contains=()):
        return self.assertCheck(r, GE[ge], ge, verdicts, contains)

    def assertJudged(self, r, reason_contains=()):
        modules = r.get("modules")
        self.assertEqual([m["id"] for m in modules or []], ["geo"], json.dumps(modules))
        m = modules[0]
        self.assertEqual((m["title"], m["version"]), ("Geospatial", "1.0.2"))
        self.assertTrue(m["reason"], m)
        for text in ([reason_contains] if isinstance(reason_contains, str) else reason_contains):
            self.assertIn(text.lower(), m["reason"].lower(), m)
        rules = geo_rules(r)
        self.assertEqual(sorted(x["id"] for x in rules), sorted(list(GE.values()) + [CONTEXT]))
        self.assertTrue(all(x.get("module") == "geo" for x in rules), [(x["id"], x.get("module")) for x in rules])
        self.assertTrue(all(x.get("module", "") == "" for x in r["rules"] if not x["id"].startswith("/geo/")))
        # The module's rules come after the edition's.
        ids = [x["id"] for x in r["rules"]]
        self.assertEqual(ids[-len(rules):], [x["id"] for x in rules], ids)
        self.assertEqual(harness.rule(r, CONTEXT)["verdict"], "manual")

    def assertNotJudged(self, r, why="no geospatial content"):
        """No /geo rule; /core/geospatial manual, its hint saying why the module was not judged."""
        self.assertEqual(r.get("modules", []), [])
        self.assertEqual(geo_rules(r), [])
        core = self.assertRule(r, CORE_GEO, "manual")
        self.assertIn(why.lower(), json.dumps(core).lower(), json.dumps(core)[:3000])

    def assertCoreGeo(self, r, verdict, names=()):
        """/core/geospatial is the worst of the module's non-manual rules and names the failing ones."""
        worst = harness.worst([x["verdict"] for x in geo_rules(r) if x["verdict"] != "manual"])
        self.assertEqual(worst, verdict, [(x["id"], x["verdict"]) for x in geo_rules(r)])
        self.assertRule(r, CORE_GEO, verdict)
        for name in names:
            self.assertRuleMentions(r, CORE_GEO, name)


# --------------------------------------------------------------------------
# the real servers
# --------------------------------------------------------------------------

# QGIS documents its paths under the base URL's path (servers http://host/wfs3/ and paths
# /wfs3/collections, ...): the detector finds /collections and its items below that prefix.


class QgisServer(Case):
    """QGIS Server 3.22's OGC API Features (/wfs3): a CRS list and crs= served, no Content-Crs."""

    def r(self):
        return report("qgis-server")

    def test_judged_as_ogc(self):
        self.assertJudged(self.r(), "/collections")
        self.assertGE(self.r(), "GE-12", "skip", "administrative APIs only")  # the OGC shape

    def test_crs_list_and_preferred(self):
        r = self.r()
        self.assertGE(r, "GE-1", "pass")  # /collections crs: URIs (EPSG/9.6.2/...)
        self.assertGE(r, "GE-6", "pass")  # RD and ETRS89 listed (the project's CRS restrictions)
        self.assertGE(r, "GE-7", "warn", "9067")  # ETRS89 without ETRF2000 (probes/fixes/qgis-server.yaml)

    def test_no_storage_crs(self):
        self.assertGE(self.r(), "GE-2", "fail", "gebouwen")

    def test_no_content_crs(self):
        r = self.r()
        self.assertGE(r, "GE-3", "fail", "items")
        self.assertGE(r, "GE-4", "fail")
        self.assertGE(r, "GE-5", "fail", "content-crs")  # each crs= served, without Content-Crs
        # bbox-crs with crs=<RD>: no Content-Crs (and EPSG:4258's bbox is read longitude first: a warning beside it).
        self.assertGE(r, "GE-9", "fail")

    def test_bbox(self):
        # Honoured, but latitudes beyond 90 answer 200 (empty), not 400.
        self.assertGE(self.r(), "GE-8", "warn", "0,91,1,92")

    def test_geojson_and_static(self):
        r = self.r()
        self.assertGE(r, "GE-10", "skip", "no spatial filter")
        self.assertGE(r, "GE-11", "pass")
        self.assertGE(r, "GE-12", "skip", "administrative APIs only")
        for ge in ("GE-13", "GE-15"):
            self.assertGE(r, ge, "pass", "no request carries geometry")
        self.assertGE(r, "GE-14", "skip", "administrative")

    def test_core_geospatial(self):
        self.assertCoreGeo(self.r(), "fail", (GE["GE-2"], GE["GE-3"]))


class MapServer(Case):
    """MapServer 8.0's OGC API Features: no CRS list, crs= ignored, items as application/json."""

    def r(self):
        return report("mapserver")

    def test_judged_as_ogc(self):
        # MapServer documents one items path per collection (/collections/gebouwen/items).
        self.assertJudged(self.r(), ("/collections and /collections/", "in the document"))
        self.assertGE(self.r(), "GE-12", "skip", "administrative APIs only")  # the OGC shape

    def test_no_crs_list(self):
        r = self.r()
        self.assertGE(r, "GE-1", "fail", "crs")
        for ge in ("GE-6", "GE-7", "GE-9"):
            self.assertGE(r, ge, "skip", "no CRS list")
        self.assertGE(r, "GE-2", "fail", "gebouwen")

    def test_no_content_crs_and_crs_ignored(self):
        r = self.r()
        self.assertGE(r, "GE-3", "fail")
        self.assertGE(r, "GE-4", "fail")
        # CRS84 alone, answered without Content-Crs; the unregistered CRS answered 200.
        self.assertGE(r, "GE-5", "fail", "content-crs")

    def test_bbox(self):
        # 0,91,1,92 → 400; the central quarter of its extent answers no feature (tests/data/geo/README.md).
        self.assertGE(self.r(), "GE-8", "pass")

    def test_items_not_geojson(self):
        self.assertGE(self.r(), "GE-11", "fail", "application/json")

    def test_core_geospatial(self):
        self.assertCoreGeo(self.r(), "fail", (GE["GE-1"], GE["GE-11"]))


# --------------------------------------------------------------------------
# the fixtures
# --------------------------------------------------------------------------

class OgcFixture(Case):
    def test_good_passes_every_rule_it_applies_to(self):
        r = report(("ogc", "good"))
        self.assertJudged(r, "/collections")
        for ge in GE:
            expected = {"GE-10": "skip", "GE-12": "skip", "GE-14": "skip"}.get(ge, "pass")
            self.assertGE(r, ge, expected)
        self.assertCoreGeo(r, "pass")

    def test_storage_crs(self):
        self.assertGE(report(("ogc", "storage-crs-missing")), "GE-2", "fail", "gebouwen")
        self.assertGE(report(("ogc", "storage-crs-unlisted")), "GE-2", "fail", "3035")

    def test_invalid_geojson(self):
        for variant, words in (("unclosed-ring", "/features/1/geometry"), ("one-position-linestring", "/features/1"),
                               ("latitude-95", "/features/1"), ("string-coordinates", "/features/1")):
            with self.subTest(variant=variant):
                self.assertGE(report(("ogc", variant)), "GE-11", "fail", words)

    def test_items_as_json(self):
        self.assertGE(report(("ogc", "json-not-geojson")), "GE-11", "fail", "application/json")

    def test_fifty_collections_at_most_ten_probed(self):
        """How fast is bench/geo_collections.sh's (the target of 2 s is a figure, not a timed test)."""
        report(("ogc", "fifty-collections"))
        run, r = RUNS[(("ogc", "fifty-collections"), (), EDITION)]
        self.assertJudged(r)
        probed = {e["url"].split("/collections/")[1].split("/")[0].split("?")[0]
                  for e in r["exchanges"] if "/collections/" in e["url"]} - {""}  # NT-2's /collections/
        self.assertLessEqual(len(probed), 10, sorted(probed))  # at most 10 collections

    def test_collections_left_out_are_named(self):
        r = report(("ogc", "fifty-collections"))
        self.assertIn("laag-50", json.dumps([c.get("message") for _, c in harness.all_checks(r)]))


class Messages(Case):
    def test_a_request_is_named_with_its_query_once(self):
        for name in (("administrative", "good"), ("ogc", "good"), "mapserver"):
            for rule, c in harness.all_checks(report(name)):
                if rule["id"].startswith("/geo/"):
                    self.assertIsNone(re.search(r"\?[^ ;:]*=[^ ;]*\?", c.get("message", "")), (name, c))


class AdministrativeFixture(Case):
    def test_good_passes_every_rule_it_applies_to(self):
        r = report(("administrative", "good"))
        self.assertJudged(r)
        for ge in GE:
            expected = {"GE-2": "skip", "GE-10": "skip", "GE-11": "skip", "GE-13": "skip"}.get(ge, "pass")
            self.assertGE(r, ge, expected)
        self.assertGE(r, "GE-2", "skip", "OGC API Features only")
        self.assertGE(r, "GE-11", "skip", "OGC API Features only")
        self.assertCoreGeo(r, "pass")
        self.assertIn("/v1/crss", harness.exchange_paths(r))

    def test_content_crs(self):
        r = report(("administrative", "content-crs-wrong"))
        self.assertGE(r, "GE-3", "pass")  # CRS84 by default is right
        self.assertGE(r, "GE-4", "fail", "4258")  # ETRS89 asked for, CRS84 named
        self.assertGE(r, "GE-5", "fail", "4258")
        r = report(("administrative", "content-crs-missing"))
        for ge in ("GE-3", "GE-4", "GE-5"):
            self.assertGE(r, ge, "fail")
        self.assertCoreGeo(r, "fail", (GE["GE-3"],))

    def test_unregistered_crs_not_refused(self):
        self.assertGE(report(("administrative", "crs-ignored")), "GE-5", "warn", "999999")

    def test_bbox_ignored_names_the_feature_outside(self):
        r = report(("administrative", "bbox-ignored"))
        self.assertGE(r, "GE-8", "fail", "0307100000001001")  # the first building wholly outside the box
        self.assertGE(r, "GE-9", "fail")  # the unregistered bbox-crs answered 200

    def test_axis_order_of_bbox_crs(self):
        self.assertGE(report(("administrative", "axis-swapped")), "GE-9", "warn", "axis order")

    def test_crs_lists(self):
        r = report(("administrative", "crs-list-missing"))
        self.assertGE(r, "GE-1", "fail", "/crss")
        for ge in ("GE-6", "GE-7", "GE-9"):
            self.assertGE(r, ge, "skip", "no CRS list")
        self.assertGE(r, "GE-5", "pass")  # CRS84 alone served, the unregistered one refused
        self.assertGE(report(("administrative", "crs-not-uri")), "GE-1", "fail", "EPSG:28992")
        r = report(("administrative", "crs84-only"))
        self.assertGE(r, "GE-6", "warn", "no ETRS89 or RD")
        self.assertGE(r, "GE-9", "skip", "one CRS only")
        self.assertGE(report(("administrative", "no-etrf2000")), "GE-7", "warn")
        self.assertGE(report(("administrative", "no-etrs89-no-rd")), "GE-6", "warn")

    def test_invalid_geometry(self):
        for variant in ("unclosed-ring", "one-position-linestring", "latitude-95", "string-coordinates"):
            with self.subTest(variant=variant):
                self.assertGE(report(("administrative", variant)), "GE-12", "fail", "/_embedded/gebouwen/1/geometrie")

    def test_bbox_undocumented(self):
        r = report(("administrative", "bbox-undocumented"))
        self.assertGE(r, "GE-8", "fail", "no bbox parameter")
        self.assertGE(r, "GE-9", "skip", "no bbox parameter")


# --------------------------------------------------------------------------
# --modules, the score, editions
# --------------------------------------------------------------------------

class Modules(Case):
    def test_auto_on_an_api_without_geospatial_content(self):
        with harness.FixtureServer() as srv:
            run = harness.run_adrprobe(harness.check_args(srv.base_url), timeout=60)
        self.assertNoCrash(run)
        r = run.json()
        harness.schema_validator().validate(r)
        self.assertNotJudged(r)

    def test_geo_on_an_api_without_geospatial_content(self):
        with harness.FixtureServer() as srv:
            run = harness.run_adrprobe(harness.check_args(srv.base_url, ["--modules", "geo"]), timeout=60)
        self.assertNoCrash(run)
        r = run.json()
        harness.schema_validator().validate(r)
        rules = geo_rules(r)
        self.assertEqual(len(rules), 16)
        for x in rules:
            self.assertEqual(x["verdict"], "skip", x)
            self.assertIn("no geospatial resource found", json.dumps(x), x)

    def test_none(self):
        r = report(("administrative", "good"), "--modules", "none")
        self.assertNotJudged(r, "not judged (--modules none)")

    def test_module_rules_count_once(self):
        judged = report(("administrative", "good"))
        unjudged = report(("administrative", "good"), "--modules", "none")
        # /core/geospatial is technical once judged, manual (uncounted) when not; its 16 rules add nothing.
        self.assertEqual(judged["score"]["applicable"], unjudged["score"]["applicable"] + 1,
                         (judged["score"], unjudged["score"]))

    def test_edition_2_2_0(self):
        r = report(("ogc", "good"), edition="2.2.0")
        self.assertJudged(r)
        core = harness.rule(r, "/core/modules/geospatial")
        self.assertEqual(core["verdict"], "pass", core)

    def test_edition_1_0_with_geo_is_a_usage_error(self):
        before = len(fixture("ogc").requests())
        run = harness.run_adrprobe(["check", fixture("ogc").url, "--edition", "1.0", "--modules", "geo"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertEqual(len(fixture("ogc").requests()), before, "a request before the usage error")

    def test_rules_selects_a_geo_rule(self):
        r = report(("ogc", "good"), "--rules", GE["GE-1"])
        self.assertEqual(harness.rule(r, GE["GE-1"])["verdict"], "pass")
        self.assertEqual(harness.rule(r, GE["GE-3"])["verdict"], "skip")


# --------------------------------------------------------------------------
# lint
# --------------------------------------------------------------------------

class Lint(Case):
    def lint(self, url):
        run = harness.run_adrprobe(["lint", url, "-f", "json"], timeout=60)
        self.assertNoCrash(run)
        r = run.json()
        harness.schema_validator().validate(r)
        return r

    def test_good_documents(self):
        for shape in ("ogc", "administrative"):
            with self.subTest(shape=shape):
                r = self.lint(fixture(shape).url + "/openapi.json")
                self.assertJudged(r)
                self.assertGE(r, "GE-4", "pass")
                self.assertGE(r, "GE-8", "pass")
                self.assertGE(r, "GE-15", "pass", "no request carries geometry")
                for ge in ("GE-1", "GE-2", "GE-3", "GE-5", "GE-6", "GE-7", "GE-9", "GE-10"):
                    self.assertGE(r, ge, "skip", "needs a live API")

    def test_undocumented_content_crs_and_bbox(self):
        self.assertGE(self.lint(fixture("administrative", "content-crs-undocumented").url + "/openapi.json"),
                      "GE-4", "warn")
        self.assertGE(self.lint(fixture("administrative", "bbox-undocumented").url + "/openapi.json"),
                      "GE-8", "fail")

    def test_a_type_that_is_not_a_string_in_a_geometry_alternative(self):
        # OAS 3.1 writes nullable as "type": ["object", "null"]; the detector read
        # a oneOf alternative's type as a string and stopped the whole run (exit
        # 70, "internal error") on any other type.
        point = {"type": "object", "required": ["type", "coordinates"],
                 "properties": {"type": {"type": "string", "enum": ["Point"]},
                                "coordinates": {"type": "array", "items": {"type": "number"}}}}
        for odd in (["null"], ["object", "null"], 5, {"a": 1}, None):
            with self.subTest(type=odd):
                doc = {"openapi": "3.1.0", "info": {"title": "t", "version": "1.0.0"},
                       "paths": {"/gebouwen": {"get": {"responses": {"200": {
                           "description": "ok", "content": {"application/json": {"schema": {
                               "type": "object", "properties": {
                                   "geometrie": {"oneOf": [{"type": odd}, point]}}}}}}}}}}}
                with tempfile.TemporaryDirectory(prefix="adrprobe-geo-type-") as tmp:
                    path = os.path.join(tmp, "openapi.json")
                    with open(path, "w") as f:
                        json.dump(doc, f)
                    r = self.lint(path)
                self.assertIn("/core/geospatial", [rule["id"] for rule in r["rules"]])

    def test_mapserver_document(self):
        # Content-Crs not documented as a response header.
        r = self.lint(geo_servers.shared("mapserver").openapi)
        self.assertJudged(r)
        self.assertGE(r, "GE-4", "warn")
        self.assertGE(r, "GE-13", "pass", "no request carries geometry")

    def test_qgis_server_document(self):
        # Content-Crs not documented as a response header; bbox documented on each items path.
        r = self.lint(geo_servers.shared("qgis-server").openapi)
        self.assertJudged(r, "/collections")
        self.assertGE(r, "GE-4", "warn")
        self.assertGE(r, "GE-8", "pass")
        self.assertGE(r, "GE-13", "pass", "no request carries geometry")


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------

class BadInput(Case):
    """Each hostile answer, in both shapes: within the deadline, a valid report, RSS < 512 MiB,
    and nothing of it raw in text, HTML or Markdown."""

    def hostile_run(self, shape, variant):
        out = tempfile.mkdtemp(prefix="adrprobe-geo-hostile-")
        self.addCleanup(shutil.rmtree, out, True)
        args = harness.check_args(fixture(shape, variant).url, [
            "--deadline", str(DEADLINE), "-o", "text=%s/r.txt" % out, "-o", "html=%s/r.html" % out,
            "-o", "markdown=%s/r.md" % out], EDITION)
        run = harness.run_measured(args, timeout=DEADLINE + 30)
        self.assertNoCrash(run)
        self.assertLess(run.duration, DEADLINE + 10, run.describe())
        self.assertLess(run.maxrss_kb, harness.memory_limit_kb(MEMORY_KB), "peak RSS %d KiB\n%s" % (
            run.maxrss_kb, run.describe()))
        r = run.json()
        harness.schema_validator().validate(r)
        self.assertJudged(r)
        texts = {}
        for name in ("r.txt", "r.html", "r.md"):
            with open(os.path.join(out, name), encoding="utf-8", errors="strict") as f:  # valid UTF-8
                texts[name] = f.read()
        texts["stdout"] = run.stdout
        return r, texts

    def test_hostile_answers(self):
        for shape in ("ogc", "administrative"):
            for variant in HOSTILE:
                with self.subTest(shape=shape, variant=variant):
                    r, texts = self.hostile_run(shape, variant)
                    for name, text in texts.items():
                        self.assertNotIn("\x1b", text, name)
                    self.assertNotIn("<script>alert(1)</script>", texts["r.html"])
                    self.assertNotIn("<script>alert(1)</script>", texts["r.md"])
                    self.assertIsNone(re.search(r"\]\(javascript:", texts["r.md"]))
                    if variant in ("crs-not-utf8", "crs-planted"):
                        self.assertGE(r, "GE-1", "fail")
                    if variant in ("nan", "deep"):
                        self.assertGE(r, "GE-11" if shape == "ogc" else "GE-12", ("fail", "error"))
                    if variant == "content-crs-1mb":  # libcurl's cap on a header line, said as such
                        self.assertIn("a response header line over libcurl's 100 KB limit", texts["r.txt"])
                        self.assertNotIn("Out of memory:", texts["r.txt"])

    def test_planted_text_is_shown_escaped(self):
        """The planted crs entry reaches the report (so the test above proves something) escaped."""
        r, texts = self.hostile_run("administrative", "crs-planted")
        verdict, message = harness.check(r, GE["GE-1"], "GE-1")
        self.assertEqual(verdict, "fail")
        self.assertIn("\\x1b", texts["r.txt"], "the escape sequence is shown as \\x1b")
        self.assertIn(PLANTED[5:8], texts["r.txt"], "the planted entry is not in the text report")


if __name__ == "__main__":
    harness.main()
