// /core/http-methods (API-03): HM-0 (document), HM-1..HM-3 (live).
#include <fmt/format.h>

#include "checks/check.hpp"
#include "checks/findings.hpp"
#include "http/allow.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

CheckResult judge_hm0(const Evidence& ev, const CheckRef& ref) {
  const oas::json* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  auto paths = doc->is_object() ? doc->find("paths") : doc->end();
  if (!doc->is_object() || paths == doc->end() || !paths->is_object())
    return {ref.id, Verdict::skip, "no paths in the document (see DO-3)", {}};  // as NT-1
  Findings f(ref.id);
  for (const auto& p : ev.paths)
    for (const auto& m : p.methods)
      if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
        f.add(Verdict::warn, fmt::format("{} documents {} (outside the rule's method table)", p.template_path, m));
  return f.result("operations use only GET, POST, PUT, PATCH and DELETE");
}

// HM-1 (test case 1): GET and HEAD on the base URL and every probed path with a GET.
void plan_hm1(Planner& p, const engine::Settings&, const Target& t, const CheckRef& ref) {
  if (!t.has_get()) return;
  p.add(engine::probe_request("GET", t.url), ref.id);
  p.add(engine::probe_request("HEAD", t.url), ref.id);
}

CheckResult judge_hm1(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  std::size_t n = 0;
  for (const auto& t : ev.targets) {
    if (!t.has_get()) continue;
    for (const char* method : {"GET", "HEAD"}) {
      const http::Result* r = ev.result(engine::probe_request(method, t.url));
      if (!r) {
        f.add(Verdict::error, fmt::format("{} {} was not sent", method, url_path(t.url)));
        continue;
      }
      int id = r->last();
      const auto& e = ev.ex(id);
      std::size_t before = f.size();
      if (e.error) f.add_error(e);
      else if (*e.status == 405) f.add(Verdict::fail, fmt::format("{} {} → 405", e.method, url_path(e.url)), {id});
      else f.add(Verdict::pass, "", {id});
      n += f.size() - before;  // a request shared by two targets (a documented '/') counts once
    }
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

CheckResult judge_hm2(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  std::vector<std::string> unsent;
  for (const auto& t : ev.targets) {
    auto methods = supported(ev.settings, t);
    for (const auto& method : methods.sent) {
      const http::Result* r = ev.result(engine::probe_request(method, t.url));
      if (!r) {
        f.add(Verdict::error, fmt::format("{} {} was not sent", method, url_path(t.url)));
        continue;
      }
      int id = r->last();
      const auto& e = ev.ex(id);
      if (e.error) f.add_error(e);
      else if (*e.status == 405)
        f.add(Verdict::fail, fmt::format("{} {} → 405, although the document says it is supported", method, url_path(e.url)),
              {id});
      else f.add(Verdict::pass, "", {id});
    }
    for (const auto& m : methods.unsent) unsent.push_back(m + " " + t.path.template_path);
  }
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

CheckResult judge_hm3(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  for (const auto& t : ev.targets) {
    for (const auto& method : unsupported(ev.settings, t)) {
      const http::Result* r = ev.result(engine::probe_request(method, t.url));
      std::string req = fmt::format("{} {}", method, url_path(t.url));
      if (!r) {
        f.add(Verdict::error, req + " was not sent");
        continue;
      }
      int id = r->last();
      const auto& e = ev.ex(id);
      if (e.error) {
        f.add_error(e);
        continue;
      }
      if (*e.status != 405) {
        f.add(Verdict::fail, fmt::format("{} → {} (expected 405 with Allow)", req, *e.status), {id});
        continue;
      }
      const std::string* allow = e.header("allow");
      if (!allow) {
        f.add(Verdict::fail, req + " → 405 without an Allow header", {id});
        continue;
      }
      auto allowed = http::parse_allow(*allow);
      std::vector<std::string> omitted;
      for (const auto& m : t.path.methods)
        if (!allowed.count(m)) omitted.push_back(m);
      if (allowed.count(method)) f.add(Verdict::warn, fmt::format("{} → 405 but Allow: {} lists {}", req, *allow, method), {id});
      else if (allowed.empty() && !omitted.empty())  // present, but lists no method (RFC 9110), as Apache's TraceEnable Off sends it
        f.add(Verdict::warn, fmt::format("{} → 405 with an empty Allow, which omits documented {}", req, join(omitted, ", ")),
              {id});
      else if (!omitted.empty())
        f.add(Verdict::warn, fmt::format("{} → 405, Allow: {} omits documented {}", req, *allow, join(omitted, ", ")), {id});
      else f.add(Verdict::pass, "", {id});
    }
  }
  if (f.empty()) {
    bool any_path = ev.targets.size() > 1;
    std::string why = any_path ? "no unsupported method to send (every probed path documents TRACE)" : "no documented path probed";
    if (!ev.not_probed.empty()) why = nothing_to_send(ev, "no unsupported method to send", "TRACE");
    return {ref.id, Verdict::skip, why, {}};
  }
  return f.result("unsupported methods are answered 405 with an Allow header");
}

}  // namespace

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
