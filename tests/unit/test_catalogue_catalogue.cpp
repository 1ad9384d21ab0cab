#include <doctest/doctest.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "catalogue/catalogue.hpp"
#include "checks/registry.hpp"

using namespace adrprobe;

TEST_CASE("the built-in catalogue has every rule of both editions") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e1 = cat.edition("1.0");
  const auto* e2 = cat.edition("2.0.0");
  REQUIRE(e1);
  REQUIRE(e2);
  CHECK(e1->rules.size() == 19);
  CHECK(e2->rules.size() == 21);
  CHECK(e1->semver == SemverGrammar::core);
  CHECK(e2->semver == SemverGrammar::full);
  for (const auto* e : {e1, e2})
    for (const auto& r : e->rules) {
      CAPTURE(r.id);
      CHECK((r.kind == "technical") == !r.checks.empty());
      for (const auto& c : r.checks) CHECK(checks::find_check(c.id) != nullptr);
    }
  CHECK(e1->rules[3].id == "API-48");
  CHECK(e2->rules[3].aliases == std::vector<std::string>{"API-48"});
}

TEST_CASE("the NCSC TLS table is data: levels and verdicts") {
  const auto* n = catalogue::Catalogue::builtin().ncsc("2.1");
  REQUIRE(n);
  CHECK(n->version == "2.1");
  CHECK(n->protocol_level("TLSv1.3") == "good");
  CHECK(n->protocol_level("TLSv1.1") == "phase_out");
  CHECK(n->protocol_level("SSLv3") == "insufficient");
  CHECK(n->cipher_level("TLS_AES_256_GCM_SHA384") == "good");
  CHECK(n->cipher_level("ECDHE-RSA-AES128-SHA") == "sufficient");
  CHECK(n->cipher_level("AES128-GCM-SHA256") == "phase_out");
  CHECK(n->cipher_level("RC4-SHA") == "insufficient");
  CHECK(n->group_level("x25519") == "good");
  CHECK(n->group_level("ffdhe2048") == "phase_out");
  CHECK(n->verdict_of("sufficient") == "pass");
  CHECK(n->verdict_of("phase_out") == "warn");
  CHECK(n->verdict_of("insufficient") == "fail");
  CHECK(n->expiry_warn_days == 14);
}

TEST_CASE("the NCSC TLS table 2025-05 loads with its own levels and is the newest") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* n = cat.ncsc("2025-05");
  REQUIRE(n);
  CHECK(n->version == "2025-05");
  CHECK(cat.ncsc() == n);  // "2025-05" sorts after "2.1": the default for an edition without ncsc
  // protocols: TLS 1.0/1.1 are insufficient now (phase out in 2.1)
  CHECK(n->protocol_level("TLSv1.3") == "good");
  CHECK(n->protocol_level("TLSv1.2") == "sufficient");
  CHECK(n->protocol_level("TLSv1.1") == "insufficient");
  CHECK(n->protocol_level("TLSv1") == "insufficient");
  CHECK(n->protocol_level("SSLv3") == "insufficient");
  // cipher suites
  CHECK(n->cipher_level("TLS_AES_256_GCM_SHA384") == "good");
  CHECK(n->cipher_level("TLS_CHACHA20_POLY1305_SHA256") == "good");
  CHECK(n->cipher_level("TLS_AES_128_GCM_SHA256") == "sufficient");
  CHECK(n->cipher_level("TLS_AES_128_CCM_8_SHA256") == "insufficient");
  CHECK(n->cipher_level("ECDHE-RSA-AES128-GCM-SHA256") == "sufficient");
  CHECK(n->cipher_level("ECDHE-ECDSA-AES128-CCM") == "sufficient");
  CHECK(n->cipher_level("ECDHE-RSA-AES256-SHA384") == "phase_out");
  CHECK(n->cipher_level("DHE-RSA-AES256-GCM-SHA384") == "phase_out");
  CHECK(n->cipher_level("ECDHE-RSA-AES128-SHA") == "insufficient");  // SHA-1 MAC
  CHECK(n->cipher_level("AES128-GCM-SHA256") == "insufficient");     // static RSA
  CHECK(n->cipher_level("DES-CBC3-SHA") == "insufficient");
  CHECK(n->cipher_level("RC4-SHA") == "insufficient");
  // key exchange groups
  CHECK(n->group_level("X25519MLKEM768") == "good");
  CHECK(n->group_level("SecP384r1MLKEM1024") == "good");
  CHECK(n->group_level("x25519") == "sufficient");
  CHECK(n->group_level("secp256r1") == "sufficient");
  CHECK(n->group_level("brainpoolP256r1tls13") == "sufficient");
  CHECK(n->group_level("secp224r1") == "phase_out");
  CHECK(n->group_level("ffdhe3072") == "phase_out");
  CHECK(n->group_level("ffdhe2048") == "insufficient");
  // verdicts and certificates as in 2.1
  CHECK(n->verdict_of("good") == "pass");
  CHECK(n->verdict_of("sufficient") == "pass");
  CHECK(n->verdict_of("phase_out") == "warn");
  CHECK(n->verdict_of("insufficient") == "fail");
  CHECK(n->rsa_min_bits == 2048);
  CHECK(n->insufficient_signatures == std::vector<std::string>{"sha1", "md5"});
  CHECK(n->expiry_warn_days == 14);
}

TEST_CASE("editions 1.0, 2.0.0 and 2.1.0 judge by the NCSC TLS table 2.1") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* v21 = cat.ncsc("2.1");
  REQUIRE(v21);
  for (const char* name : {"1.0", "2.0.0", "2.1.0", "2.0.1", "2.0.2"}) {
    CAPTURE(name);
    const auto* e = cat.resolve(name);
    REQUIRE(e);
    CHECK(e->ncsc == "2.1");  // 2.1.0 inherits it from 2.0.0
    CHECK(cat.ncsc(e->ncsc) == v21);
    CHECK(cat.ncsc(e->ncsc)->protocol_level("TLSv1.1") == "phase_out");
  }
}

TEST_CASE("edition 2.1.0: 26 rules, security headers fail instead of warn") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e = cat.edition("2.1.0");
  REQUIRE(e);
  CHECK(e->rules.size() == 26);
  const catalogue::Rule* headers = nullptr;
  for (const auto& r : e->rules)
    if (r.id == "/core/transport/security-headers") headers = &r;
  REQUIRE(headers);
  REQUIRE(headers->checks.size() == 2);
  CHECK(headers->checks[0].id == "TS-5");
  CHECK(headers->checks[0].params.at("missing") == "fail");
  for (const char* id : {"TS-1", "TS-2", "TS-3", "TS-4"}) CHECK(checks::find_check(id)->handshake_only());
  CHECK_FALSE(checks::find_check("TS-5")->handshake_only());
}

TEST_CASE("an edition extends another and lists only what differs") {
  auto cat = catalogue::Catalogue::load({
      {"a.yaml", R"(edition: "1"
name: A
source: https://a.example
semver: full
rules:
  - {id: /r1, aliases: [], kind: technical, level: MUST, title: One, checks: [NT-1]}
  - {id: /r2, aliases: [], kind: functional, level: SHOULD, title: Two, checks: [], review: look, hints: [naming]}
  - {id: /r3, aliases: [], kind: technical, level: MUST, title: Three, checks: [DO-1]}
)"},
      {"b.yaml", R"(edition: "2"
extends: "1"
name: B
source: https://b.example
remove: [/r3]
rules:
  - {id: /r2, level: MUST}
  - {id: /r0, after: /r1, aliases: [], kind: technical, level: MUST, title: Zero, checks: [DO-3]}
  - {id: /r1-new, replaces: /r1, title: One renamed}
)"},
  });
  const auto* b = cat.edition("2");
  REQUIRE(b);
  CHECK(b->extends == "1");
  CHECK(b->name == "B");
  CHECK(b->source == "https://b.example");
  CHECK(b->semver == SemverGrammar::full);  // inherited
  REQUIRE(b->rules.size() == 3);
  CHECK(b->rules[0].id == "/r1-new");
  CHECK(b->rules[0].title == "One renamed");
  CHECK(b->rules[0].checks.at(0).id == "NT-1");  // kept from /r1
  CHECK(b->rules[1].id == "/r0");
  CHECK(b->rules[2].id == "/r2");
  CHECK(b->rules[2].level == "MUST");
  CHECK(b->rules[2].review == "look");
  // The base is unchanged.
  const auto* a = cat.edition("1");
  REQUIRE(a->rules.size() == 3);
  CHECK(a->rules[1].level == "SHOULD");
  CHECK(a->rules[0].id == "/r1");
}

TEST_CASE("extends: unknown bases, rules and cycles are errors") {
  auto edition = [](const char* name, const char* body) {
    return std::pair<std::string, std::string>{std::string(name) + ".yaml", std::string("edition: \"") + name +
                                                   "\"\nname: N\nsource: https://s.example\nsemver: full\n" + body};
  };
  CHECK_THROWS(catalogue::Catalogue::load({edition("x", "extends: \"nope\"\nrules: []\n")}));
  CHECK_THROWS(catalogue::Catalogue::load({edition("x", "rules: []\n"), edition("y", "extends: \"x\"\nremove: [/gone]\n")}));
  CHECK_THROWS(catalogue::Catalogue::load({edition("x", "extends: \"y\"\n"), edition("y", "extends: \"x\"\n")}));
  const char* base = "rules:\n  - {id: /a, aliases: [], kind: technical, level: MUST, title: A, checks: [NT-1]}\n"
                     "  - {id: /b, aliases: [], kind: technical, level: MUST, title: B, checks: [NT-1]}\n";
  CHECK_NOTHROW(catalogue::Catalogue::load({edition("x", base)}));
  // replaces onto an id the edition has, after on an existing id: errors, not duplicates or silence
  CHECK_THROWS_WITH(catalogue::Catalogue::load({edition("x", base), edition("y", "extends: \"x\"\nrules:\n  - {id: /b, replaces: /a}\n")}),
                    doctest::Contains("already"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({edition("x", base), edition("y", "extends: \"x\"\nrules:\n  - {id: /b, after: /a}\n")}),
                    doctest::Contains("exists"));
  // a typo'd key, a technical rule without checks, a missing name
  CHECK_THROWS_WITH(catalogue::Catalogue::load({edition("x", "rules:\n  - {id: /a, aliases: [], kind: technical, level: MUST, title: A, check: [NT-1]}\n")}),
                    doctest::Contains("unknown key 'check'"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({edition("x", "rules:\n  - {id: /a, aliases: [], kind: technical, level: MUST, title: A, checks: []}\n")}),
                    doctest::Contains("needs checks"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"z.yaml", "edition: \"z\"\nsemver: full\nsource: s\nrules: []\n"}}),
                    doctest::Contains("'name' is missing"));
}

TEST_CASE("2.1.0 extends 2.0.0: the shared rules are the same rules") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e20 = cat.edition("2.0.0");
  const auto* e21 = cat.edition("2.1.0");
  REQUIRE(e20);
  REQUIRE(e21);
  CHECK(e21->extends == "2.0.0");
  std::size_t same = 0;
  for (const auto& r : e21->rules)
    for (const auto& base : e20->rules)
      if (r.id == base.id) {
        CHECK(r.statement == base.statement);
        ++same;
      }
  CHECK(same == 20);
}

TEST_CASE("--edition names: aliases are data, latest is the newest edition") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e20 = cat.edition("2.0.0");
  REQUIRE(e20);
  CHECK(e20->aliases == std::vector<std::string>{"2.0.1", "2.0.2"});
  CHECK(e20->aliases_note == "editorial changes only");
  CHECK(cat.resolve("2.0.1") == e20);
  CHECK(cat.resolve("2.0.2") == e20);
  CHECK(cat.resolve("2.0.0") == e20);
  CHECK(cat.edition("2.0.1") == nullptr);  // edition() is exact
  CHECK(cat.resolve("latest") == cat.edition("2.2.0"));
  CHECK(cat.resolve("2.0.3") == nullptr);
  CHECK(cat.edition("2.1.0")->aliases.empty());  // aliases name an edition's own patch releases: not inherited
  auto names = cat.accepted_names();
  for (const char* n : {"1.0", "2.0.0", "2.0.1", "2.0.2", "2.1.0", "2.2.0", "latest"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());

  auto file = [](const char* name, const char* extra) {
    return std::pair<std::string, std::string>{
        std::string(name) + ".yaml", std::string("edition: \"") + name + "\"\nname: N\nsemver: full\nsource: https://x/" + name +
                                         "/\n" + extra + "rules:\n  - {id: /r, aliases: [], kind: technical, "
                                                         "level: MUST, title: R, checks: [NT-1]}\n"};
  };
  // Versions compare part by part: 10.0 is newer than 9.1.0.
  auto cat2 = catalogue::Catalogue::load({file("9.1.0", ""), file("10.0", ""), file("2.0.0", "")});
  CHECK(cat2.latest()->edition == "10.0");
  // An alias that is another edition's name, or given twice, or without a note, is an error.
  CHECK_THROWS(catalogue::Catalogue::load({file("1", "aliases: [\"2\"]\naliases_note: x\n"), file("2", "")}));
  CHECK_THROWS(catalogue::Catalogue::load(
      {file("1", "aliases: [\"3\"]\naliases_note: x\n"), file("2", "aliases: [\"3\"]\naliases_note: x\n")}));
  CHECK_THROWS(catalogue::Catalogue::load({file("1", "aliases: [\"1.1\"]\n")}));
  CHECK_THROWS(catalogue::Catalogue::load({file("1", "aliases: [latest]\naliases_note: x\n")}));
}

TEST_CASE("each rule links to its own text: the edition's source with the rule id as fragment") {
  const auto& cat = catalogue::Catalogue::builtin();
  CHECK(cat.edition("2.0.0")->rules[3].url ==
        "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#/core/no-trailing-slash");
  CHECK(cat.edition("1.0")->rules[3].url == "https://gitdocumentatie.logius.nl/publicatie/api/adr/1.0/#API-48");
  // An extending edition links to its own publication, also for the rules it inherits.
  for (const auto& r : cat.edition("2.1.0")->rules)
    CHECK(r.url == "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.1.0/#" + r.id);
  // rule_url (inherited) shapes the links; a rule's own url: wins.
  auto custom = catalogue::Catalogue::load({{"a.yaml", R"(edition: "1"
name: A
source: https://a.example/adr/
rule_url: "{source}rules.html#{id}"
semver: full
rules:
  - {id: R1, aliases: [], kind: technical, level: MUST, title: One, checks: [NT-1]}
  - {id: R2, aliases: [], kind: technical, level: MUST, title: Two, checks: [NT-1], url: "https://b.example/r2"}
)"}});
  CHECK(custom.edition("1")->rules[0].url == "https://a.example/adr/rules.html#R1");
  CHECK(custom.edition("1")->rules[1].url == "https://b.example/r2");
}

TEST_CASE("the baseline table (probes/baseline.yaml) is built in") {
  const auto& table = catalogue::Catalogue::builtin().baseline();
  REQUIRE(table.size() >= 3);
  std::vector<std::string> marks;
  for (const auto& line : table) {
    CAPTURE(line.change);
    CHECK_FALSE(line.now.empty());
    CHECK_FALSE(line.before.empty());
    marks.push_back(line.change);
  }
  for (const char* mark : {"new-fail", "regressed", "fixed"})
    CHECK(std::find(marks.begin(), marks.end(), mark) != marks.end());
  CHECK(table.front().change == "new-fail");
  CHECK(std::find(table.front().before.begin(), table.front().before.end(), "absent") != table.front().before.end());
}

TEST_CASE("a baseline table: unknown marks, verdicts and keys are errors") {
  auto load = [](const std::string& yaml) { return catalogue::Catalogue::load({{"b.yaml", yaml}}); };
  auto ok = load("baseline:\n  - {change: fixed, now: [pass], before: [fail]}\n");
  REQUIRE(ok.baseline().size() == 1);
  CHECK(ok.baseline()[0].change == "fixed");
  CHECK(ok.baseline()[0].now == std::vector<std::string>{"pass"});
  CHECK(ok.baseline()[0].before == std::vector<std::string>{"fail"});
  CHECK_THROWS_WITH(load("baseline:\n  - {change: worse, now: [fail], before: [pass]}\n"),
                    doctest::Contains("unknown change 'worse'"));
  CHECK_THROWS_WITH(load("baseline:\n  - {change: fixed, now: [passed], before: [fail]}\n"),
                    doctest::Contains("unknown verdict 'passed'"));
  CHECK_THROWS_WITH(load("baseline:\n  - {change: fixed, now: [pass], before: [gone]}\n"),
                    doctest::Contains("unknown verdict 'gone'"));
  // "unchanged" is what no line gives, never a line of its own
  CHECK_THROWS_WITH(load("baseline:\n  - {change: unchanged, now: [pass], before: [pass]}\n"),
                    doctest::Contains("unknown change 'unchanged'"));
  CHECK_THROWS_WITH(load("baseline:\n  - {change: fixed, now: [pass], befor: [fail]}\n"),
                    doctest::Contains("unknown key 'befor'"));
  CHECK_THROWS_WITH(load("baseline:\n  - {change: fixed, now: [pass]}\n"), doctest::Contains("'before'"));
  CHECK_THROWS_WITH(load("baseline:\n  - {now: [pass], before: [fail]}\n"), doctest::Contains("'change' is missing"));
  CHECK_THROWS_WITH(load("baseline: {change: fixed}\n"), doctest::Contains("must be a list"));
}

TEST_CASE("edition 2.2.0: the security-headers title as fixed upstream; 2.1.0 keeps its own") {
  const auto& cat = catalogue::Catalogue::builtin();
  auto title = [&](const char* edition) {
    for (const auto& r : cat.edition(edition)->rules)
      if (r.id == "/core/transport/security-headers") return r.title;
    return std::string("(none)");
  };
  CHECK(title("2.2.0") == "Use mandatory security headers in all API responses");
  CHECK(title("2.1.0") == "Use mandatory security headers in API all responses");
  // Only the title changed: 2.2.0 keeps 2.1.0's level and checks.
  const catalogue::Rule* a = nullptr;
  const catalogue::Rule* b = nullptr;
  for (const auto& r : cat.edition("2.1.0")->rules)
    if (r.id == "/core/transport/security-headers") a = &r;
  for (const auto& r : cat.edition("2.2.0")->rules)
    if (r.id == "/core/transport/security-headers") b = &r;
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->level == b->level);
  CHECK(a->checks.size() == b->checks.size());
}

TEST_CASE("the Geospatial module is built in: 16 /geo rules, carried by the editions that require it") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* geo = cat.module("geo");
  REQUIRE(geo);
  CHECK(geo->title == "Geospatial");
  CHECK(geo->version == "1.0.2");
  REQUIRE(geo->rules.size() == 16);
  int technical = 0;
  for (const auto& r : geo->rules) {
    CHECK(r.id.rfind("/geo/", 0) == 0);
    CHECK(r.url == geo->source + "#" + r.id);
    if (!r.technical()) continue;
    ++technical;
    REQUIRE(r.checks.size() == 1);
    CHECK(r.checks[0].id.rfind("GE-", 0) == 0);
  }
  CHECK(technical == 15);
  // 1.0 has no geospatial rule; 2.2.0 names it /core/modules/geospatial (its alias /core/geospatial).
  CHECK(cat.edition("1.0")->modules.empty());
  REQUIRE(cat.edition("2.0.0")->module("geo"));
  CHECK(cat.edition("2.0.0")->module("geo")->rule == "/core/geospatial");
  CHECK(cat.edition("2.1.0")->module("geo")->rule == "/core/geospatial");
  CHECK(cat.edition("2.2.0")->module("geo")->rule == "/core/modules/geospatial");
  CHECK(cat.module("geo")->rule.empty());
}

TEST_CASE("a module file: unknown keys, a module twice, a rule listed twice or also the edition's are errors") {
  const std::string edition = R"(edition: "9"
name: Nine
source: https://nine.example
semver: full
rules:
  - {id: /core/geospatial, kind: functional, level: MUST, title: G, review: r}
)";
  auto module = [](const std::string& extra, const std::string& rules) {
    return "module: m\ntitle: M\nversion: '1'\nname: M 1\nsource: https://m.example\nrequired_by: /core/geospatial\n"
           "absent: none here\nnot_judged: not shown\n" + extra + "rules:\n" + rules;
  };
  const std::string rule = "  - {id: /m/a, kind: technical, level: MUST, title: A, checks: [X-1]}\n";
  auto ok = catalogue::Catalogue::load({{"e.yaml", edition}, {"m.yaml", module("", rule)}});
  REQUIRE(ok.edition("9")->module("m"));
  CHECK(ok.edition("9")->module("m")->rules.at(0).url == "https://m.example#/m/a");
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"m.yaml", module("colour: red\n", rule)}}),
                    doctest::Contains("unknown key 'colour'"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"m.yaml", module("", rule)}, {"n.yaml", module("", rule)}}),
                    doctest::Contains("module m is defined twice"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"m.yaml", module("", rule + rule)}}),
                    doctest::Contains("rule /m/a is listed twice"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load(
                        {{"e.yaml", edition},
                         {"m.yaml", module("", "  - {id: /core/geospatial, kind: technical, level: MUST, title: A, checks: [X-1]}\n")}}),
                    doctest::Contains("also a rule of edition 9"));
}
