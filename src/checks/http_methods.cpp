// /core/http-methods (API-03): HM-0 (document), HM-1..HM-3 (live).
#include <fmt/format.h>

#include <set>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "http/allow.hpp"
#include "oas/pointer.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

CheckResult judge_hm0(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  Findings f(ref.id);
  for (const auto& p : ev.paths)
    for (const auto& m : p.methods)
      if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
        f.add_at(Verdict::warn, "/paths/" + oas::escape_token(p.template_path) + "/" + to_lower(m),
                 fmt::format("{} documents {} (outside the rule's method table)", p.template_path, m));
  return f.result("operations use only GET, POST, PUT, PATCH and DELETE");
}

// HM-1 (test case 1): GET and HEAD on the base URL and every probed path with a GET.
void plan_hm1(Planner& p, const engine::Settings&, const Target& t, const CheckRef& ref) {
  if (!t.has_get()) return;
  p.add(engine::probe_request("GET", t.url), ref.id);
  p.add(engine::probe_request("HEAD", t.url), ref.id);
}

// One judged request of HM-1..HM-3: what the check makes of it, and what
// 2.2.0's http-methods hints make of it.
struct Outcome {
  Verdict verdict;
  std::string message;           // for fail and warn
  int exchange = 0;              // 0: not sent
  const http::Exchange* error = nullptr;  // a transport error
  std::string target;            // the URL path of the probed target
};

void feed(Findings& f, const Outcome& o) {
  if (o.error) f.add_error(*o.error);
  else if (o.exchange == 0) f.add(o.verdict, o.message);
  else f.add(o.verdict, o.verdict == Verdict::pass ? "" : o.message, {o.exchange});
}

void feed(Findings& f, const std::vector<Outcome>& outcomes) {
  for (const auto& o : outcomes) feed(f, o);
}

Outcome sent(const Evidence& ev, const http::Result* r, const std::string& method, const Target& t) {
  if (!r) return {Verdict::error, fmt::format("{} {} was not sent", method, url_path(t.url)), 0, nullptr, url_path(t.url)};
  int id = r->last();
  const auto& e = ev.ex(id);
  return {Verdict::pass, "", id, e.error ? &e : nullptr, url_path(t.url)};
}

std::vector<Outcome> hm1_outcomes(const Evidence& ev) {
  std::vector<Outcome> out;
  for (const auto& t : ev.targets) {
    if (!t.has_get()) continue;
    for (const char* method : {"GET", "HEAD"}) {
      Outcome o = sent(ev, ev.result(engine::probe_request(method, t.url)), method, t);
      if (o.exchange && !o.error) {
        const auto& e = ev.ex(o.exchange);
        if (*e.status == 405) {
          o.verdict = Verdict::fail;
          o.message = fmt::format("{} {} → 405", e.method, url_path(e.url));
        }
      }
      out.push_back(std::move(o));
    }
  }
  return out;
}

CheckResult judge_hm1(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  std::size_t n = 0;
  for (const auto& o : hm1_outcomes(ev)) {
    std::size_t before = f.size();
    feed(f, o);
    n += f.size() - before;  // a request shared by two targets (a documented '/') counts once
  }
  CheckResult out = f.result(fmt::format("GET and HEAD are not refused with 405 ({} requests)", n));
  // Every documented path answering 404 says nothing about the methods the API supports.
  if (out.verdict == Verdict::pass && ev.all_documented_404()) {
    out.verdict = Verdict::warn;
    out.message = fmt::format("{} ({})", engine::kWrongBaseUrl, out.message);
  }
  return out;
}

// Why HM-2 or HM-3 sent nothing: which paths were probed, and which could not be.
std::string nothing_to_send(const Evidence& ev, const std::string& what, const std::string& documented) {
  std::size_t probed = 0;
  for (const auto& t : ev.targets) probed += t.is_base ? 0 : 1;
  std::vector<std::string> not_probed;
  for (const auto& n : ev.not_probed) not_probed.push_back(n.text.substr(0, n.text.find(": ")));
  std::string out = probed == 0 ? "no documented path probed"
                                : fmt::format("{}: the {} only {}", what,
                                              probed == 1 ? std::string("probed path documents")
                                                          : fmt::format("{} probed paths document", probed),
                                              documented);
  if (!not_probed.empty())
    out += fmt::format("; not probed: {}", join(not_probed, ", ", 3));
  return out;
}

// HM-2 (test case 2): the optional methods a documented path lists. Safe mode
// sends only OPTIONS; the others need --allow-unsafe.
struct Supported {
  std::vector<std::string> sent, unsent;
};
Supported supported(const engine::Settings& s, const Target& t) {
  Supported out;
  if (t.is_base) return out;
  for (const auto& m : t.path.methods) {
    if (m == "GET" || m == "HEAD") continue;
    (m == "OPTIONS" || s.allow_unsafe ? out.sent : out.unsent).push_back(m);
  }
  return out;
}

void plan_hm2(Planner& p, const engine::Settings& s, const Target& t, const CheckRef& ref) {
  for (const auto& m : supported(s, t).sent) p.add(engine::probe_request(m, t.url), ref.id);
}

std::vector<Outcome> hm2_outcomes(const Evidence& ev) {
  std::vector<Outcome> out;
  for (const auto& t : ev.targets)
    for (const auto& method : supported(ev.settings, t).sent) {
      Outcome o = sent(ev, ev.result(engine::probe_request(method, t.url)), method, t);
      if (o.exchange && !o.error && *ev.ex(o.exchange).status == 405) {
        o.verdict = Verdict::fail;
        o.message = fmt::format("{} {} → 405, although the document says it is supported", method,
                                url_path(ev.ex(o.exchange).url));
      }
      out.push_back(std::move(o));
    }
  return out;
}

CheckResult judge_hm2(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  feed(f, hm2_outcomes(ev));
  std::vector<std::string> unsent;
  for (const auto& t : ev.targets)
    for (const auto& m : supported(ev.settings, t).unsent) unsent.push_back(m + " " + t.path.template_path);
  if (f.empty()) {
    if (!unsent.empty())
      return {ref.id, Verdict::skip, fmt::format("documented {}: needs --allow-unsafe", join(unsent, ", ", 6)), {}};
    return {ref.id, Verdict::skip, nothing_to_send(ev, "no documented optional method to send", "GET or HEAD"), {}};
  }
  CheckResult r = f.result("documented optional methods are not refused with 405");
  if (!unsent.empty() && r.verdict == Verdict::pass)
    r.message += fmt::format(" (not sent, needs --allow-unsafe: {})", join(unsent, ", ", 6));
  return r;
}

// HM-3 (test case 3): an optional method the path does not document: TRACE,
// and with --allow-unsafe the undocumented unsafe methods (empty body).
std::vector<std::string> unsupported(const engine::Settings& s, const Target& t) {
  std::vector<std::string> out;
  if (t.is_base) return out;
  std::vector<std::string> candidates{"TRACE"};
  if (s.allow_unsafe) candidates.insert(candidates.end(), {"DELETE", "PUT", "PATCH", "POST"});
  for (const auto& m : candidates)
    if (!t.path.methods.count(m)) out.push_back(m);
  return out;
}

void plan_hm3(Planner& p, const engine::Settings& s, const Target& t, const CheckRef& ref) {
  for (const auto& m : unsupported(s, t)) p.add(engine::probe_request(m, t.url), ref.id);
}

std::vector<Outcome> hm3_outcomes(const Evidence& ev) {
  std::vector<Outcome> out;
  for (const auto& t : ev.targets) {
    for (const auto& method : unsupported(ev.settings, t)) {
      Outcome o = sent(ev, ev.result(engine::probe_request(method, t.url)), method, t);
      std::string req = fmt::format("{} {}", method, url_path(t.url));
      if (!o.exchange || o.error) {
        out.push_back(std::move(o));
        continue;
      }
      const auto& e = ev.ex(o.exchange);
      auto judged = [&](Verdict v, std::string message) {
        o.verdict = v;
        o.message = std::move(message);
        out.push_back(o);
      };
      if (*e.status != 405) {
        judged(Verdict::fail, fmt::format("{} → {} (expected 405 with Allow)", req, *e.status));
        continue;
      }
      auto allow = e.response_headers.joined("allow");  // Allow sent on several lines is one list
      if (!allow) {
        judged(Verdict::fail, req + " → 405 without an Allow header");
        continue;
      }
      auto allowed = http::parse_allow(*allow);
      std::vector<std::string> omitted;
      for (const auto& m : t.path.methods)
        if (!allowed.count(m)) omitted.push_back(m);
      if (allowed.count(method)) judged(Verdict::warn, fmt::format("{} → 405 but Allow: {} lists {}", req, *allow, method));
      else if (allowed.empty() && !omitted.empty())  // present, but lists no method (RFC 9110), as Apache's TraceEnable Off sends it
        judged(Verdict::warn, fmt::format("{} → 405 with an empty Allow, which omits documented {}", req, join(omitted, ", ")));
      else if (!omitted.empty())
        judged(Verdict::warn, fmt::format("{} → 405, Allow: {} omits documented {}", req, *allow, join(omitted, ", ")));
      else judged(Verdict::pass, "");
    }
  }
  return out;
}

CheckResult judge_hm3(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  feed(f, hm3_outcomes(ev));
  if (f.empty()) {
    bool any_path = ev.targets.size() > 1;
    std::string why = any_path ? "no unsupported method to send (every probed path documents TRACE)" : "no documented path probed";
    if (!ev.not_probed.empty()) why = nothing_to_send(ev, "no unsupported method to send", "TRACE");
    return {ref.id, Verdict::skip, why, {}};
  }
  return f.result("unsupported methods are answered 405 with an Allow header");
}

}  // namespace

// 2.2.0's /core/http-methods is functional: what HM-0..HM-3 would have judged
// becomes hints, never a verdict. Each outcome that would fail or warn is one
// hint; the ones that would pass are counted.
std::vector<std::string> http_methods_hints(const Evidence& ev) {
  std::vector<std::string> out;
  if (ev.doc()) {
    std::vector<std::string> outside;
    for (const auto& p : ev.paths)
      for (const auto& m : p.methods)
        if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE") outside.push_back(m + " " + p.template_path);
    if (!outside.empty())
      out.push_back(fmt::format("HM-0: documented operations outside get/put/post/delete/patch: {} (RFC 9110 methods are "
                                "allowed; check that each keeps its RFC 9110 semantics)",
                                join(outside, ", ", kShown)));
  }
  struct Family {
    const char* id;
    std::vector<Outcome> outcomes;
    const char* why;     // appended to a finding
    const char* passed;  // "{n} ..." for the outcomes that would pass
  };
  Family families[] = {
      {"HM-1", hm1_outcomes(ev), "; RFC 9110 §9.1: GET and HEAD MUST be supported", "GET and HEAD"},
      {"HM-2", hm2_outcomes(ev), "", "their documented optional methods without 405"},
      {"HM-3", hm3_outcomes(ev), "", "undocumented methods with 405 and a fitting Allow"},
  };
  std::size_t findings = 0, more = 0;
  for (auto& fam : families) {
    std::set<int> failed;
    std::set<std::string> passed, not_passed;  // targets (URL paths)
    std::size_t errors = 0;
    for (const auto& o : fam.outcomes) {
      if (o.exchange == 0) continue;  // not sent: nothing to show
      if (o.error) {
        ++errors;
        not_passed.insert(o.target);
        continue;
      }
      if (o.verdict == Verdict::pass) {
        passed.insert(o.target);
        continue;
      }
      not_passed.insert(o.target);
      if (!failed.insert(o.exchange).second) continue;
      if (findings++ < kShown) out.push_back(fmt::format("{}: {}{} (exchange #{})", fam.id, o.message, fam.why, o.exchange));
      else ++more;
    }
    for (const auto& t : not_passed) passed.erase(t);
    if (!passed.empty()) out.push_back(fmt::format("{}: {} {} {}", fam.id, plural(passed.size(), "path", "paths"),
                                                    passed.size() == 1 ? "answers" : "answer", fam.passed));
    if (errors) out.push_back(fmt::format("{}: {} without a response", fam.id, plural(errors, "request", "requests")));
  }
  if (more) out.push_back(fmt::format("and {} more findings like these", more));
  return out;
}

extern const Check hm0{
    .id = "HM-0",
    .needs = document,
    .title = "Document uses only standard methods",
    .sends = "nothing (static); reads the operations in {oas}.paths",
    .passes = "only get, post, put, patch, delete: pass; head, options or trace operations warn (outside the rule's method table)",
    .judge = judge_hm0};
extern const Check hm1{
    .id = "HM-1",
    .needs = requests,
    .title = "GET and HEAD are not answered 405",
    .sends = "GET and HEAD to the base URL and every probed path with a GET operation (test case 1)",
    .passes = "neither is 405: pass; any 405 fails, naming method and path; warn where it would pass when every probed documented path answered GET with 404 (is the base URL right?)",
    .per_path = PerPath::with_get,
    .plan_target = plan_hm1,
    .judge = judge_hm1};
extern const Check hm2{
    .id = "HM-2",
    .needs = requests | document,
    .title = "A supported optional method is not answered 405",
    .sends = "per documented path, with or without GET, a method the document lists for it (test case 2); safe mode sends only a documented OPTIONS, other documented methods need --allow-unsafe",
    .passes = "not 405: pass; 405 fail; nothing to send: skip (needs --allow-unsafe when only unsafe methods are documented)",
    .per_path = PerPath::every,
    .plan_target = plan_hm2,
    .judge = judge_hm2};
extern const Check hm3{
    .id = "HM-3",
    .needs = requests | document,
    .title = "An unsupported optional method is answered 405 with Allow",
    .sends = "per documented path, with or without GET, TRACE (skipped on paths that document trace) (test case 3); with --allow-unsafe also undocumented DELETE/PUT/PATCH/POST with an empty body",
    .passes = "405 with an Allow header passes; missing Allow fails; any status other than 405 (404, 501, 200, ...) fails; Allow that omits a method {oas} documents for the path (an empty Allow omits them all), or lists the probed method, warns",
    .per_path = PerPath::every,
    .plan_target = plan_hm3,
    .judge = judge_hm3};

}  // namespace adrprobe::checks
