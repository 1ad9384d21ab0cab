// Transport security: TS-1..TS-4 from the TLS handshakes, TS-5..TS-7 from API responses.
// 2.0.0: /core/transport-security; 2.1.0: /core/transport/{tls,security-headers,cors}.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>

#include "checks/base_url.hpp"
#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

Verdict from_level(const Evidence& ev, const std::string& level) {
  std::string v = ev.ncsc ? ev.ncsc->verdict_of(level) : "fail";
  return adrprobe::verdict_from_string(v).value_or(Verdict::fail);
}

std::string pretty_level(const std::string& level) { return replace_all(level, "_", " "); }

// The proxy the handshakes go through refused them: not the API's doing.
std::optional<CheckResult> proxy_error(const Evidence& ev, const std::string& id) {
  if (ev.tls && ev.tls->proxy_failed) return CheckResult{id, Verdict::error, ev.tls->error, {}};
  return std::nullopt;
}

// TS-2..TS-4 need handshake facts; the reason when there are none.
std::optional<CheckResult> no_handshake(const Evidence& ev, const std::string& id) {
  if (!ev.https) return CheckResult{id, Verdict::skip, "no TLS: the base URL is http:// (see TS-1)", {}};
  if (!ev.tls) return CheckResult{id, Verdict::error, "the TLS handshakes did not run", {}};
  if (auto r = proxy_error(ev, id)) return r;
  // A handshake refused only over the client certificate negotiated all the rest.
  if (!ev.tls->handshake_ok && ev.tls->client_cert_refusal.empty())
    return CheckResult{id, Verdict::error, fmt::format("no TLS handshake with {}:{}: {}", ev.tls->host, ev.tls->port, ev.tls->error), {}};
  return std::nullopt;
}

// probes.md: what has not run by the run's deadline is `error` ("deadline reached").
// The versions whose pinned handshake (not accepted: unknown) or enumeration of
// suites (accepted) the deadline cut.
std::vector<std::string> versions_cut(const tls::Facts& t, bool accepted) {
  std::vector<std::string> out;
  for (const auto& p : t.protocols)
    if (p.testable && p.deadline_reached && p.accepted == accepted) out.push_back(p.name);
  return out;
}

// The missing-header verdict: warn, or what the edition sets (2.1.0: missing: fail).
Verdict missing_verdict(const CheckRef& ref) {
  auto it = ref.params.find("missing");
  if (it == ref.params.end()) return Verdict::warn;
  return adrprobe::verdict_from_string(it->second).value_or(Verdict::warn);
}

bool has_token(const std::string& value, const std::string& token) {
  for (const auto& part : split(value, ','))
    if (iequals(trim(part), token)) return true;
  return false;
}

CheckResult judge_ts1(const Evidence& ev, const CheckRef& ref) {
  if (!ev.https) return {ref.id, Verdict::fail, "the base URL is http://: connections must use TLS (https://)", {}};
  if (!ev.tls) return {ref.id, Verdict::error, "the TLS handshakes did not run", {}};
  const auto& t = *ev.tls;
  std::string where = fmt::format("{}:{}", t.host, t.port);
  if (auto r = proxy_error(ev, ref.id)) return *r;
  if (!t.connected || t.silent) return {ref.id, Verdict::error, fmt::format("no TLS answer from {}: {}", where, t.error), {}};
  // A server that wants a client certificate it did not get is doing mutual
  // TLS, not being insecure: error (rerun with --cert/--key), unless what it
  // showed of itself already fails.
  std::string client_cert = !ev.client_cert_stop.empty() ? ev.client_cert_stop
                            : !t.client_cert_refusal.empty() ? t.error
                                                             : "";
  bool negotiated = t.handshake_ok || !t.client_cert_refusal.empty();
  if (!negotiated) return {ref.id, Verdict::fail, fmt::format("TLS handshake with {} failed: {}", where, t.error), {}};
  if (!t.trusted) {
    std::string go_on = ev.settings.insecure ? " (--insecure: the run went on)" : "";
    std::string also = client_cert.empty() ? "" : "; also, " + client_cert;
    return {ref.id, Verdict::fail,
            fmt::format("the certificate of {} is not trusted: {}{}{}", where, t.trust_error, go_on, also), {}};
  }
  if (!client_cert.empty())
    return {ref.id, Verdict::error,
            fmt::format("{} (so far: {} with {}, the certificate verifies for {})", client_cert, t.protocol, where, t.host),
            {}};
  return {ref.id, Verdict::pass, fmt::format("{} handshake with {}; the certificate verifies for {}", t.protocol, where, t.host), {}};
}

CheckResult judge_ts2(const Evidence& ev, const CheckRef& ref) {
  // TS-2 reads only the pinned handshakes: it needs a connection, not a default handshake.
  if (!ev.https) return {ref.id, Verdict::skip, "no TLS: the base URL is http:// (see TS-1)", {}};
  if (!ev.tls) return {ref.id, Verdict::error, "the TLS handshakes did not run", {}};
  if (auto r = proxy_error(ev, ref.id)) return *r;
  const auto& t = *ev.tls;
  bool any_answer = false;  // some handshake got an answer in TLS (even a refusal)
  for (const auto& p : t.protocols) any_answer = any_answer || p.accepted || (p.testable && p.connected && !p.silent);
  if (!any_answer)
    return {ref.id, Verdict::error, fmt::format("no TLS answer from {}:{}: {}", t.host, t.port, t.error), {}};
  Findings f(ref.id);
  std::vector<std::string> accepted, untestable;
  bool modern = false;
  for (const auto& p : t.protocols) {
    if (!p.testable) {
      untestable.push_back(p.name);
      continue;
    }
    if (!p.accepted) continue;
    accepted.push_back(p.name);
    std::string level = ev.ncsc ? ev.ncsc->protocol_level(p.name) : "insufficient";
    Verdict v = from_level(ev, level);
    if (p.name == "TLSv1.2" || p.name == "TLSv1.3") modern = true;
    if (v != Verdict::pass) f.add(v, fmt::format("{} accepted ({})", p.name, pretty_level(level)));
    else f.add(Verdict::pass, "");
  }
  // A version the deadline left unknown may be accepted: TS-2 is not judged, unless a fail already stands.
  auto unknown = versions_cut(t, false);
  bool modern_unknown =
      std::any_of(unknown.begin(), unknown.end(), [](const auto& n) { return n == "TLSv1.2" || n == "TLSv1.3"; });
  if (!unknown.empty())
    f.add(Verdict::error, fmt::format("deadline reached before {} could be probed", join(unknown, ", ")));
  if (!modern && !modern_unknown) f.add(Verdict::fail, "neither TLS 1.2 nor TLS 1.3 is accepted");
  std::string tail = untestable.empty() ? "" : fmt::format(" ({} not testable with this OpenSSL build)", join(untestable, ", "));
  CheckResult r = f.result(fmt::format("accepts {}", accepted.empty() ? "nothing" : join(accepted, ", ")));
  if (r.verdict != Verdict::pass) r.message += fmt::format("; accepted: {}", accepted.empty() ? "none" : join(accepted, ", "));
  r.message += tail;
  return r;
}

// The negotiated suite alone: facts without an enumeration of every accepted suite.
CheckResult judge_ts3_negotiated(const Evidence& ev, const CheckRef& ref) {
  if (ev.https && ev.tls && !ev.tls->handshake_ok && ev.tls->client_cert_refusal.empty() &&
      !ev.tls->fallback_cipher.empty()) {
    // The default handshake failed, a pinned one (offered every cipher) did not.
    const auto& t = *ev.tls;
    std::string level = ev.ncsc ? ev.ncsc->cipher_level(t.fallback_cipher) : "insufficient";
    return {ref.id, from_level(ev, level),
            fmt::format("{} negotiated {}: {} after the NCSC guidelines (the default handshake failed: {})",
                        t.fallback_protocol, t.fallback_cipher, pretty_level(level), t.error),
            {}};
  }
  if (auto r = no_handshake(ev, ref.id)) return *r;
  const auto& t = *ev.tls;
  std::string level = ev.ncsc ? ev.ncsc->cipher_level(t.cipher) : "insufficient";
  Verdict v = from_level(ev, level);
  std::string message = fmt::format("{} negotiated {}: {} after the NCSC guidelines", t.protocol, t.cipher, pretty_level(level));
  // The key exchange group has its own NCSC level; the worse of the two counts.
  if (!t.group.empty()) {
    std::string group_level = ev.ncsc ? ev.ncsc->group_level(t.group) : "insufficient";
    v = worst(v, from_level(ev, group_level));
    message += fmt::format("; key exchange {}: {}", t.group, pretty_level(group_level));
  }
  return {ref.id, v, message, {}};
}

// "A (TLSv1, TLSv1.2), B (TLSv1.2)": names in first-seen order with what they
// came with, at most `shown` of them.
class Listing {
 public:
  void add(const std::string& name, const std::string& with) {
    auto it = std::find_if(items_.begin(), items_.end(), [&](const auto& i) { return i.first == name; });
    if (it == items_.end()) items_.push_back({name, {with}});
    else if (std::find(it->second.begin(), it->second.end(), with) == it->second.end()) it->second.push_back(with);
  }
  bool empty() const { return items_.empty(); }
  std::string str(std::size_t shown = 8, std::size_t shown_with = 5) const {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < items_.size() && i < shown; ++i) {
      const auto& with = items_[i].second;
      std::vector<std::string> first(with.begin(), with.begin() + static_cast<long>(std::min(with.size(), shown_with)));
      if (with.size() > shown_with) first.push_back(fmt::format("{} more", with.size() - shown_with));
      parts.push_back(fmt::format("{} ({})", items_[i].first, join(first, ", ")));
    }
    if (items_.size() > shown) parts.push_back(fmt::format("and {} more", items_.size() - shown));
    return join(parts, ", ");
  }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> items_;
};

// probes.md TS-3: every accepted suite per accepted version, each with its level
// and the key exchange the server chose for it; the worst counts.
CheckResult judge_ts3_suites(const Evidence& ev, const CheckRef& ref) {
  const auto& t = *ev.tls;
  auto cipher_level = [&](const std::string& n) { return ev.ncsc ? ev.ncsc->cipher_level(n) : std::string("insufficient"); };
  auto group_level = [&](const std::string& n) { return ev.ncsc ? ev.ncsc->group_level(n) : std::string("insufficient"); };
  Verdict v = Verdict::pass;
  // by level: the suites, and the key exchanges (with the suites they came with)
  std::map<std::string, Listing> suites_at, kx_at;
  std::vector<std::string> counts, incomplete, kx_seen;
  std::size_t total = 0;
  for (const auto& p : t.protocols) {
    if (!p.accepted) continue;
    if (!p.suites_complete && !p.deadline_reached) incomplete.push_back(p.name);  // the deadline's are said apart
    counts.push_back(fmt::format("{} {}", p.name, p.suites.size()));
    for (const auto& suite : p.suites) {
      ++total;
      std::string level = cipher_level(suite.name);
      Verdict sv = from_level(ev, level);
      v = worst(v, sv);
      if (sv != Verdict::pass) suites_at[level].add(suite.name, p.name);
      if (suite.kx.empty()) continue;
      std::string kl = group_level(suite.kx);
      Verdict kv = from_level(ev, kl);
      v = worst(v, kv);
      if (kv != Verdict::pass) kx_at[kl].add(suite.kx, p.name + " " + suite.name);
      if (std::find(kx_seen.begin(), kx_seen.end(), suite.kx) == kx_seen.end()) kx_seen.push_back(suite.kx);
    }
  }
  std::string message;
  bool negotiated = t.handshake_ok || !t.client_cert_refusal.empty();
  if (negotiated && !t.cipher.empty())
    message = fmt::format("{} negotiated {}: {}", t.protocol, t.cipher, pretty_level(cipher_level(t.cipher)));
  else
    message = fmt::format("the default handshake failed ({})", t.error);
  message += fmt::format("; {} accepted ({})", total == 1 ? "1 suite" : fmt::format("{} suites", total), join(counts, ", "));
  if (v == Verdict::pass) {
    message += "; every one good or sufficient after the NCSC guidelines";
    if (!kx_seen.empty()) message += fmt::format(", key exchange {} too", join(kx_seen, ", "));
  } else {
    for (const char* level : {"insufficient", "phase_out"}) {
      if (auto it = suites_at.find(level); it != suites_at.end())
        message += fmt::format("; {}: {}", pretty_level(level), it->second.str());
      if (auto it = kx_at.find(level); it != kx_at.end())
        message += fmt::format("; key exchange {}: {}", pretty_level(level), it->second.str(4, 3));
    }
    // Levels a table may have beyond the usual four (a verdict other than pass).
    for (const auto& [level, listing] : suites_at)
      if (level != "insufficient" && level != "phase_out") message += fmt::format("; {}: {}", pretty_level(level), listing.str());
    message += " (NCSC guidelines)";
  }
  if (!incomplete.empty())
    message += fmt::format(
        "; the enumeration of {} stopped early (a handshake got no answer in time): more suites may be accepted",
        join(incomplete, ", "));
  // probes.md: suites this OpenSSL cannot offer are named as not tested.
  if (ev.ncsc && !t.offered.empty()) {
    std::vector<std::string> untested;
    for (const auto& [name, level] : ev.ncsc->ciphers)
      if (std::find(t.offered.begin(), t.offered.end(), name) == t.offered.end()) untested.push_back(name);
    if (!untested.empty())
      message += fmt::format("; not tested (this OpenSSL cannot offer them): {}", join(untested, ", "));
  }
  return {ref.id, v, message, {}};
}

CheckResult judge_ts3(const Evidence& ev, const CheckRef& ref) {
  if (auto r = proxy_error(ev, ref.id)) return *r;
  bool enumerated = ev.https && ev.tls &&
                    std::any_of(ev.tls->protocols.begin(), ev.tls->protocols.end(),
                                [](const auto& p) { return p.accepted && !p.suites.empty(); });
  CheckResult r = enumerated ? judge_ts3_suites(ev, ref) : judge_ts3_negotiated(ev, ref);
  if (!ev.https || !ev.tls || r.verdict == Verdict::error) return r;  // an error says its own reason
  // Suites the deadline left unknown may be worse than those found: not a pass
  // (a fail found stands, as the worst verdict).
  auto enumerating = versions_cut(*ev.tls, true), probing = versions_cut(*ev.tls, false);
  std::vector<std::string> cut;
  if (!enumerating.empty()) cut.push_back(fmt::format("the enumeration of {} did not finish", join(enumerating, ", ")));
  if (!probing.empty()) cut.push_back(fmt::format("{} could not be probed", join(probing, ", ")));
  if (cut.empty()) return r;
  std::string said = fmt::format("deadline reached: {}, more suites may be accepted", join(cut, "; "));
  r.verdict = worst(r.verdict, Verdict::error);
  // the verdict's reason first
  r.message = r.verdict == Verdict::error ? said + "; " + r.message : r.message + "; " + said;
  return r;
}

CheckResult judge_ts4(const Evidence& ev, const CheckRef& ref) {
  if (auto r = proxy_error(ev, ref.id)) return *r;
  bool pinned_chain = ev.https && ev.tls && !ev.tls->handshake_ok && !ev.tls->chain.empty();
  if (!pinned_chain)
    if (auto r = no_handshake(ev, ref.id)) return *r;
  const auto& t = *ev.tls;
  if (t.chain.empty()) return {ref.id, Verdict::error, "the server sent no certificate", {}};
  const auto& c = t.chain.front();
  int warn_days = ev.ncsc ? ev.ncsc->expiry_warn_days : 14;
  std::string facts = fmt::format("subject {}, issuer {}, {}, {}", c.subject, c.issuer, c.key, c.signature);
  // NCSC: RSA keys below the minimum and SHA-1/MD5 signatures are insufficient
  // (the leaf and intermediates; a root's self-signature is not relied upon).
  // 2025-05 (2.2.0) adds phase-out bands: RSA below 3072 bits, EC on P-224, SHA-224: warn;
  // and an EC key on a named curve the guidelines do not list is insufficient.
  std::vector<std::string> weak, phase_out;
  if (ev.ncsc) {
    const auto& n = *ev.ncsc;
    auto has_digest = [](const std::string& signature, const std::string& digest) {
      return to_lower(signature).find(digest) != std::string::npos;
    };
    for (std::size_t i = 0; i < t.chain.size(); ++i) {
      const auto& cert = t.chain[i];
      bool self_signed = cert.subject == cert.issuer && i > 0;
      if (cert.key_type == "RSA" && cert.key_bits < n.rsa_min_bits)
        weak.push_back(fmt::format("{}: RSA {} bits (below {})", cert.subject, cert.key_bits, n.rsa_min_bits));
      else if (cert.key_type == "RSA" && cert.key_bits < n.rsa_phase_out_below)
        phase_out.push_back(fmt::format("{}: RSA {} bits (below {})", cert.subject, cert.key_bits, n.rsa_phase_out_below));
      auto listed = [&](const std::vector<std::string>& curves) {
        return std::find(curves.begin(), curves.end(), cert.curve) != curves.end();
      };
      if (cert.key_type == "EC" && listed(n.phase_out_ec_curves))
        phase_out.push_back(fmt::format("{}: EC key on {}", cert.subject, cert.curve));
      else if (cert.key_type == "EC" && n.ec_curve_otherwise == "insufficient" && !listed(n.good_ec_curves))
        weak.push_back(cert.curve.empty()
                           ? fmt::format("{}: EC key on an unnamed curve (explicit parameters of no named curve)", cert.subject)
                           : fmt::format("{}: EC key on {} (a curve the guidelines do not name)", cert.subject, cert.curve));
      if (self_signed) continue;
      bool insufficient = false;
      for (const auto& digest : n.insufficient_signatures)
        if (!insufficient && has_digest(cert.signature, digest)) {
          weak.push_back(fmt::format("{}: signed with {}", cert.subject, cert.signature));
          insufficient = true;
        }
      for (const auto& digest : n.phase_out_signatures)
        if (!insufficient && has_digest(cert.signature, digest)) {
          phase_out.push_back(fmt::format("{}: signed with {}", cert.subject, cert.signature));
          break;
        }
    }
  }
  std::string also = phase_out.empty() ? "" : fmt::format("phase out after the NCSC guidelines: {}; ", join(phase_out, "; "));
  if (!weak.empty())
    return {ref.id, Verdict::fail, fmt::format("insufficient after the NCSC guidelines: {}; {}{}", join(weak, "; "), also, facts), {}};
  if (c.days_left < 0)
    return {ref.id, Verdict::warn, fmt::format("expired {} days ago ({}); {}{}", -c.days_left, c.not_after, also, facts), {}};
  if (c.days_left < warn_days)
    return {ref.id, Verdict::warn, fmt::format("expires in {} days ({}); {}{}", c.days_left, c.not_after, also, facts), {}};
  if (!phase_out.empty())
    return {ref.id, Verdict::warn, fmt::format("{}valid until {} ({} days left); {}", also, c.not_after, c.days_left, facts), {}};
  return {ref.id, Verdict::pass, fmt::format("valid until {} ({} days left); {}", c.not_after, c.days_left, facts), {}};
}

CheckResult judge_ts5(const Evidence& ev, const CheckRef& ref) {
  int id = base_get_id(ev);
  if (!id) return {ref.id, Verdict::error, "GET {base} was not sent", {}};
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const auto& e = ev.ex(id);
  Verdict missing = missing_verdict(ref);
  const std::string* hsts = e.header("strict-transport-security");
  if (!hsts) return {ref.id, missing, ev.describe(id) + " without Strict-Transport-Security", {id}};
  static const std::regex max_age(R"re((?:^|;)\s*max-age\s*=\s*"?([0-9]+)"?)re", std::regex::icase);
  std::smatch m;
  std::string hsts_value = hsts->substr(0, 1024);
  if (!std::regex_search(hsts_value, m, max_age))
    return {ref.id, missing, fmt::format("Strict-Transport-Security: {} has no max-age", *hsts), {id}};
  long long age = m[1].length() > 12 ? 999999999999LL : std::stoll(m[1].str());
  if (age < 31536000)
    return {ref.id, missing, fmt::format("Strict-Transport-Security max-age={} is less than a year (31536000)", age), {id}};
  return {ref.id, Verdict::pass, fmt::format("Strict-Transport-Security: {}", *hsts), {id}};
}

CheckResult judge_ts6(const Evidence& ev, const CheckRef& ref) {
  int id = base_get_id(ev);
  if (!id) return {ref.id, Verdict::error, "GET {base} was not sent", {}};
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const auto& e = ev.ex(id);
  Verdict missing = missing_verdict(ref);
  Findings f(ref.id);
  // A field sent on several lines is judged as one value (RFC 9110 §5.3).
  std::map<std::string, std::optional<std::string>> held;
  auto header = [&](const char* name) -> const std::string* {
    auto& v = held[name];
    v = e.response_headers.joined(name);
    return v ? &*v : nullptr;
  };
  const std::string* cc = header("cache-control");
  if (!cc || !has_token(*cc, "no-store")) f.add(missing, cc ? "Cache-Control: " + *cc + " (no no-store)" : "no Cache-Control: no-store", {id});
  static const std::regex frame_none(R"((^|;)\s*frame-ancestors\s+'none'\s*(;|$))", std::regex::icase);
  // Repeated headers arrive joined with ", ": judge each value.
  auto every = [](const std::string* v, const char* want) {
    if (!v) return false;
    for (const auto& part : split(*v, ','))
      if (!iequals(trim(part), want)) return false;
    return true;
  };
  auto any_policy = [](const std::string* v) {
    if (!v || v->size() > 8192) return false;
    for (const auto& policy : split(*v, ','))
      if (std::regex_search(policy, frame_none)) return true;
    return false;
  };
  const std::string* csp = header("content-security-policy");
  if (!any_policy(csp))
    f.add(missing, csp ? "Content-Security-Policy without frame-ancestors 'none'" : "no Content-Security-Policy (frame-ancestors 'none')", {id});
  const std::string* xcto = header("x-content-type-options");
  if (!every(xcto, "nosniff")) f.add(missing, xcto ? "X-Content-Type-Options: " + *xcto + " (not nosniff)" : "no X-Content-Type-Options: nosniff", {id});
  const std::string* xfo = header("x-frame-options");
  if (!every(xfo, "DENY")) f.add(missing, xfo ? "X-Frame-Options: " + *xfo + " (not DENY)" : "no X-Frame-Options: DENY", {id});
  if (!header("content-type")) f.add(missing, "no Content-Type", {id});
  CheckResult r = f.result(ev.describe(id) + ": Cache-Control no-store, CSP frame-ancestors 'none', nosniff, X-Frame-Options DENY, Content-Type");
  if (r.exchanges.empty()) r.exchanges = {id};
  if (r.verdict != Verdict::pass) r.message = ev.describe(id) + ": " + r.message;
  return r;
}

// TS-7: CORS on an API resource: the first probed documented path with a GET
// that is not the description document, else the base URL; with the run's random Origin.
RequestSpec cors(const engine::Settings& s, const std::vector<Target>& documented, const std::string& origin) {
  std::string url = s.base_url;
  for (const auto& t : documented)
    if (!t.is_base && t.has_get() && t.path.template_path != "/openapi.json" && t.path.template_path != "/openapi.yaml") {
      url = t.url;
      break;
    }
  RequestSpec r = engine::probe_request("GET", url);
  r.extra_headers = {{"Origin", origin}};
  return r;
}

void plan_ts7(Planner& p, const PlanInput& in, const CheckRef& ref) {
  if (in.phase == 2) p.add(cors(in.settings, in.targets, in.origin), ref.id);
}

CheckResult judge_ts7(const Evidence& ev, const CheckRef& ref) {
  const http::Result* r = ev.result(cors(ev.settings, ev.targets, ev.origin));
  if (!r) return {ref.id, Verdict::skip, "no API resource to probe", {}};
  int id = r->last();
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const auto& e = ev.ex(id);
  std::string req = fmt::format("GET {} with Origin: {}", url_path(e.url), ev.origin);
  const std::string* acao = e.header("access-control-allow-origin");
  const std::string* acac = e.header("access-control-allow-credentials");
  bool credentials = acac && trim(*acac) == "true";  // browsers grant credentials only on exactly "true"
  if (!acao) return {ref.id, Verdict::pass, req + " → no Access-Control-Allow-Origin: cross-origin access is not granted", {id}};
  if (trim(*acao) == ev.origin) {
    if (credentials)
      return {ref.id, Verdict::fail,
              req + " → the origin is echoed with Access-Control-Allow-Credentials: true: any site can make credentialed requests",
              {id}};
    return {ref.id, Verdict::pass, req + " → any origin is echoed (as with *, fine for open APIs only)", {id}};
  }
  if (trim(*acao) == "null" && credentials)
    return {ref.id, Verdict::fail,
            req + " → Access-Control-Allow-Origin: null with credentials: any sandboxed page can make credentialed requests",
            {id}};
  if (trim(*acao) == "*")
    return {ref.id, Verdict::pass, req + " → Access-Control-Allow-Origin: * (fine for open APIs only)", {id}};
  return {ref.id, Verdict::pass, fmt::format("{} → only {} is allowed", req, *acao), {id}};
}

}  // namespace

extern const Check ts1{
    .id = "TS-1",
    .needs = handshake | base_url,
    .title = "HTTPS with a trusted certificate",
    .sends = "TLS handshake to the host of {base}, verified against the system trust store or --ca-file",
    .passes = "https base, successful handshake and a chain that verifies for the host: pass; http base, failed handshake, untrusted, expired or wrong-host certificate: fail (--insecure lets the run go on, the check still fails); a server that requires a client certificate not given (or refuses the one given): error, rerun with --cert and --key; no TLS answer, or a proxy that refuses the tunnel: error",
    .judge = judge_ts1};
extern const Check ts2{
    .id = "TS-2",
    .needs = handshake,
    .title = "Only good TLS protocol versions are accepted",
    .sends = "one handshake per protocol version, OpenSSL pinned to that version (security level lowered for the probe)",
    .passes = "each accepted version by the edition's NCSC table (2.1: TLS 1.3 good, 1.2 sufficient, 1.1/1.0 phase-out warn, SSL 3.0 insufficient fail; 2025-05: TLS 1.1/1.0 insufficient, fail); no TLS 1.2 or 1.3 fail",
    .judge = judge_ts2};
extern const Check ts3{
    .id = "TS-3",
    .needs = handshake,
    .title = "Every accepted cipher suite is acceptable",
    .sends = "per accepted protocol version, handshakes until every accepted suite is known (TLS 1.3: one per suite; "
             "TLS 1.2 and older: shrinking lists, the server's choice taken out each time), with an ordinary client's groups",
    .passes = "the worst accepted suite, and the key exchange the server chose for it, after the edition's NCSC table: good or "
              "sufficient pass; phase-out warn; insufficient fail; the message names the offending suites",
    .judge = judge_ts3};
extern const Check ts4{
    .id = "TS-4",
    .needs = handshake,
    .title = "Certificate does not expire soon",
    .sends = "nothing more; reads the server certificate",
    .passes = "expires within 14 days warn (days left in the message); an RSA key below the NCSC minimum or a SHA-1/MD5 "
              "signature fail; 2025-05 (2.2.0): RSA 2048-3071 bits, EC P-224 or a SHA-224 signature warn (phase out), "
              "an EC key on a curve the guidelines do not name (or on an unnamed one) fail; else pass; the report "
              "always shows expiry date, issuer, subject, key type and size",
    .judge = judge_ts4};
extern const Check ts5{
    .id = "TS-5",
    .needs = requests,
    .title = "HSTS on the base URL",
    .sends = "nothing more; reads the base URL response, whatever its scheme",
    .passes = "Strict-Transport-Security with max-age >= 31536000 passes; else warn",
    .params = {{"missing", {"warn", "fail"}}},
    .plan_run = plan_base_get,
    .judge = judge_ts5,
    .judged_headers = {"strict-transport-security"}};
extern const Check ts6{
    .id = "TS-6",
    .needs = requests,
    .title = "Security headers on the base URL",
    .sends = "nothing more; reads the base URL response, whatever its scheme",
    .passes = "each missing one warns: Cache-Control: no-store, Content-Security-Policy with frame-ancestors 'none', X-Content-Type-Options: nosniff, X-Frame-Options: DENY, a Content-Type",
    .params = {{"missing", {"warn", "fail"}}},
    .plan_run = plan_base_get,
    .judge = judge_ts6,
    .judged_headers = {"cache-control", "content-security-policy", "x-content-type-options", "x-frame-options",
                       "content-type"}};
extern const Check ts7{
    .id = "TS-7",
    .needs = requests,
    .title = "CORS on an API resource does not grant credentialed access to any origin",
    .sends = "a request with a random Origin to the first probed documented path other than openapi.json (the base URL when there is none)",
    .passes = "echoes the origin together with Access-Control-Allow-Credentials: true: fail; * pass with a note (fine for open APIs only); no Access-Control-Allow-Origin pass (cross-origin access not granted)",
    .plan_run = plan_ts7,
    .judge = judge_ts7,
    .judged_headers = {"access-control-allow-origin", "access-control-allow-credentials"}};

}  // namespace adrprobe::checks
