// SV-1 (/core/semver) and UV-1..UV-3 (/core/uri-version), live and in lint, on hand-made evidence.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

const std::string kFile = "file:///tmp/api/openapi.json";

oas::json versioning_doc(const std::string& version) {
  oas::json doc = openapi_doc();
  doc["info"]["version"] = version;
  return doc;
}

oas::json served_at(oas::json servers) {
  oas::json doc = openapi_doc();
  doc["servers"] = std::move(servers);
  return doc;
}

oas::json server(const std::string& url) { return oas::json{{"url", url}}; }

}  // namespace

// ---- SV-1 -------------------------------------------------------------------

TEST_CASE("SV-1: MAJOR.MINOR.PATCH passes in every edition") {
  for (const char* edition : {"1.0", "2.0.0", "2.1.0"}) {
    CAPTURE(edition);
    FakeRun run(kBase, edition);
    run.document(versioning_doc("1.2.3"));
    expect(run.judge("SV-1"), Verdict::pass, {"info.version \"1.2.3\""});
  }
}

TEST_CASE("SV-1: a pre-release or build fails in edition 1.0 and passes in 2.0.0") {
  for (const char* version : {"1.0.0-rc.1", "1.0.1-correct.1", "1.0.0+build.5"}) {
    CAPTURE(version);
    FakeRun old(kBase, "1.0");
    old.document(versioning_doc(version));
    expect(old.judge("SV-1"), Verdict::fail, {"is not MAJOR.MINOR.PATCH (edition 1.0: no pre-release or build)"});
    FakeRun current(kBase, "2.0.0");
    current.document(versioning_doc(version));
    expect(current.judge("SV-1"), Verdict::pass);
  }
}

TEST_CASE("SV-1: v1.2.3, 1.2 and 01.2.3 fail in every edition") {
  for (const char* edition : {"1.0", "2.0.0", "2.1.0"})
    for (const char* version : {"v1.2.3", "1.2", "01.2.3", "1.02.3", "1.0.1_incorrect", "1.0.0-", "", "latest"}) {
      CAPTURE(edition);
      CAPTURE(version);
      FakeRun run(kBase, edition);
      run.document(versioning_doc(version));
      expect(run.judge("SV-1"), Verdict::fail, {std::string("info.version \"") + version + "\" is not"});
    }
}

TEST_CASE("SV-1: a missing or non-string info.version fails; no document is the prerequisite") {
  FakeRun missing;
  oas::json doc = openapi_doc();
  doc["info"].erase("version");
  missing.document(doc);
  expect(missing.judge("SV-1"), Verdict::fail, {"no info.version"});

  FakeRun number;
  oas::json num = openapi_doc();
  num["info"]["version"] = 1.0;
  number.document(num);
  expect(number.judge("SV-1"), Verdict::fail, {"is not a string"});

  FakeRun none;
  none.unpublished(404);
  expect(none.judge("SV-1"), Verdict::fail, {"prerequisite not met"});
}

// ---- UV-1 -------------------------------------------------------------------

TEST_CASE("UV-1: a v<major> segment in the base path passes") {
  for (const char* base : {"https://api.example.nl/v1", "https://example.nl/api/bag/v2", "https://api.example.nl/v12/"}) {
    CAPTURE(base);
    FakeRun run(base);
    expect(run.judge("UV-1"), Verdict::pass, {"has major version segment v"});
  }
}

TEST_CASE("UV-1: minor or patch in the URI fails, as does no v<major> segment") {
  for (const char* base : {"https://api.example.nl/v1.2", "https://api.example.nl/api/1.2.3", "https://api.example.nl/V2.0"}) {
    CAPTURE(base);
    FakeRun run(base);
    expect(run.judge("UV-1"), Verdict::fail, {"minor and patch versions do not belong in the URI"});
  }
  for (const char* base : {"https://api.example.nl", "https://api.example.nl/api", "https://api.example.nl/version1",
                           "https://api.example.nl/V1", "https://api.example.nl/v"}) {
    CAPTURE(base);
    FakeRun run(base);
    expect(run.judge("UV-1"), Verdict::fail, {"has no v<major> segment"});
  }
  FakeRun both("https://api.example.nl/v1/v1.2");
  expect(both.judge("UV-1"), Verdict::fail, {"'v1.2'"});
}

// ---- UV-2 -------------------------------------------------------------------

TEST_CASE("UV-2: servers carrying the base URL's v<major> pass, absolute and relative") {
  FakeRun run;
  run.document(served_at(oas::json::array({server("https://api.example.nl/v1"), server("/v1"),
                                           server("https://acceptatie.example.nl/v1")})));
  expect(run.judge("UV-2"), Verdict::pass, {"every servers url has the major version segment v1"});
}

TEST_CASE("UV-2: a relative url is resolved against the document URL") {
  FakeRun dot;  // the document is at {base}/openapi.json: "." is {base}/
  dot.document(served_at(oas::json::array({server(".")})));
  expect(dot.judge("UV-2"), Verdict::pass);

  FakeRun up;  // "../v2" from /v1/openapi.json is /v2
  up.document(served_at(oas::json::array({server("../v2")})));
  expect(up.judge("UV-2"), Verdict::fail, {"server '../v2' has v2, the base URL v1"});

  FakeRun elsewhere;  // the same relative url, but the document lives under /docs/v1/
  elsewhere.document(served_at(oas::json::array({server("../v2")})), "https://api.example.nl/docs/v1/openapi.json");
  expect(elsewhere.judge("UV-2"), Verdict::fail, {"has v2"});
}

TEST_CASE("UV-2: server variables are replaced by their defaults") {
  oas::json variables{{"host", {{"default", "api.example.nl"}}}, {"version", {{"default", "v1"}, {"enum", {"v1", "v2"}}}}};
  FakeRun run;
  run.document(served_at(oas::json::array({{{"url", "https://{host}/{version}"}, {"variables", variables}}})));
  expect(run.judge("UV-2"), Verdict::pass);

  variables["version"]["default"] = "v2";
  FakeRun other;
  other.document(served_at(oas::json::array({{{"url", "https://{host}/{version}"}, {"variables", variables}}})));
  expect(other.judge("UV-2"), Verdict::fail, {"server 'https://{host}/{version}' has v2, the base URL v1"});
}

TEST_CASE("UV-2: no servers means '/', which has no v<major>") {
  FakeRun missing;
  oas::json doc = openapi_doc();
  doc.erase("servers");
  missing.document(doc);
  expect(missing.judge("UV-2"), Verdict::fail,
         {"no servers: the default '/' (https://api.example.nl/) has no v<major> segment"});

  FakeRun empty;
  empty.document(served_at(oas::json::array()));
  expect(empty.judge("UV-2"), Verdict::fail, {"the default '/'"});
}

TEST_CASE("UV-2: another major, minor/patch, no segment, or a malformed entry fails; each bad url is named") {
  FakeRun run;
  run.document(served_at(oas::json::array({server("https://api.example.nl/v1"), server("https://api.example.nl/v2"),
                                           server("https://api.example.nl/v1.1"), server("https://api.example.nl/api"),
                                           oas::json{{"description", "no url"}}})));
  auto r = run.judge("UV-2");
  expect(r, Verdict::fail,
         {"server 'https://api.example.nl/v2' has v2, the base URL v1",
          "server 'https://api.example.nl/v1.1' has 'v1.1' (minor/patch in the URI)",
          "server 'https://api.example.nl/api' has no v<major> segment", "a servers entry has no url"});
  CHECK(r.message.find("'https://api.example.nl/v1'") == std::string::npos);

  FakeRun object;
  object.document(served_at({{"url", "/v1"}}));
  expect(object.judge("UV-2"), Verdict::fail, {"'servers' is not an array"});
}

TEST_CASE("UV-2: no document is the prerequisite") {
  FakeRun run;
  run.unpublished(404);
  expect(run.judge("UV-2"), Verdict::fail, {"prerequisite not met"});
}

// ---- UV-3 -------------------------------------------------------------------

TEST_CASE("UV-3: the base URL's major equals the leading digits of info.version") {
  for (const char* version : {"1.0.0", "1.4", "1.2.3-rc.1", "1"}) {
    CAPTURE(version);
    FakeRun run;
    run.document(versioning_doc(version));
    expect(run.judge("UV-3"), Verdict::pass, {std::string("v1 matches info.version \"") + version + "\""});
  }
}

TEST_CASE("UV-3: a different major fails, also when one is a prefix of the other") {
  FakeRun run;
  run.document(versioning_doc("2.0.0"));
  expect(run.judge("UV-3"), Verdict::fail, {"base URL has v1 but info.version \"2.0.0\" has major 2"});

  FakeRun ten;
  ten.document(versioning_doc("10.0.0"));
  expect(ten.judge("UV-3"), Verdict::fail, {"has major 10"});

  FakeRun v10("https://api.example.nl/v10");
  v10.document(versioning_doc("1.0.0"));
  expect(v10.judge("UV-3"), Verdict::fail, {"base URL has v10"});
}

TEST_CASE("UV-3: info.version without leading digits, without info.version, or a base without v<major> fails") {
  for (const char* version : {"v1.0.0", "one", ""}) {
    CAPTURE(version);
    FakeRun run;
    run.document(versioning_doc(version));
    expect(run.judge("UV-3"), Verdict::fail, {"has no leading major number"});
  }
  FakeRun missing;
  oas::json doc = openapi_doc();
  doc["info"].erase("version");
  missing.document(doc);
  expect(missing.judge("UV-3"), Verdict::fail, {"no info.version string"});

  FakeRun bare("https://api.example.nl/api");
  bare.document(versioning_doc("1.0.0"));
  expect(bare.judge("UV-3"), Verdict::fail, {"the base URL has no v<major> segment"});

  FakeRun none;
  none.unpublished(404);
  expect(none.judge("UV-3"), Verdict::fail, {"prerequisite not met"});
}

// ---- lint: no base URL ------------------------------------------------------

TEST_CASE("lint UV-2: every servers url needs a v<major>; no servers or [] means '/' and fails") {
  FakeRun run("");
  run.document(served_at(oas::json::array({server("https://api.example.nl/v1"), server("https://test.example.nl/v2")})), kFile);
  expect(run.judge("UV-2"), Verdict::pass, {"every servers url has a v<major> segment"});

  FakeRun relative("");
  relative.document(served_at(oas::json::array({server("/v1")})), kFile);
  expect(relative.judge("UV-2"), Verdict::pass);

  FakeRun missing("");
  oas::json doc = openapi_doc();
  doc.erase("servers");
  missing.document(doc, kFile);
  expect(missing.judge("UV-2"), Verdict::fail, {"no servers: the default '/'", "has no v<major> segment"});

  FakeRun empty("");
  empty.document(served_at(oas::json::array()), kFile);
  expect(empty.judge("UV-2"), Verdict::fail, {"the default '/'"});

  FakeRun plain("");
  plain.document(served_at(oas::json::array({server("https://api.example.nl/v1"), server("https://api.example.nl")})), kFile);
  expect(plain.judge("UV-2"), Verdict::fail, {"server 'https://api.example.nl' has no v<major> segment"});
}

TEST_CASE("lint UV-3: the servers' majors are compared with info.version") {
  FakeRun run("");
  oas::json doc = served_at(oas::json::array({server("https://api.example.nl/v1"), server("/v1")}));
  doc["info"]["version"] = "1.4";
  run.document(doc, kFile);
  expect(run.judge("UV-3"), Verdict::pass, {"v1 matches info.version \"1.4\""});

  FakeRun other("");
  other.document(served_at(oas::json::array({server("https://api.example.nl/v2")})), kFile);
  expect(other.judge("UV-3"), Verdict::fail, {"servers url has v2 but info.version \"1.0.0\" has major 1"});

  FakeRun mixed("");  // one of two majors differs
  mixed.document(served_at(oas::json::array({server("https://api.example.nl/v1"), server("https://api.example.nl/v2")})), kFile);
  expect(mixed.judge("UV-3"), Verdict::fail, {"has v2"});

  FakeRun none("");
  none.document(served_at(oas::json::array({server("https://api.example.nl/api")})), kFile);
  expect(none.judge("UV-3"), Verdict::fail, {"no servers url has a v<major> segment to compare"});

  FakeRun missing("");
  oas::json bare = openapi_doc();
  bare.erase("servers");
  missing.document(bare, kFile);
  expect(missing.judge("UV-3"), Verdict::fail, {"no servers url has a v<major> segment"});
}
