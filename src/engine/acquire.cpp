#include "engine/acquire.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstdlib>

#include "oas/parse.hpp"
#include "util/deflate.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {

RequestSpec published_document(const Settings& settings) { return document_request(settings.base_url + "/openapi.json"); }

DocumentFetch judge_fetch(const std::deque<http::Exchange>& exchanges, const http::Result& result,
                          const oas::Limits& limits, bool json_only, oas::DocPtr* out) {
  DocumentFetch f;
  f.chain = result.chain;
  f.redirects = static_cast<int>(result.chain.size()) - 1;
  const auto& e = exchanges.at(static_cast<std::size_t>(f.last_exchange() - 1));
  f.final_url = e.url;
  std::string req =
      fmt::format("GET {}", url_path(exchanges.at(static_cast<std::size_t>(result.chain.front() - 1)).url));
  if (e.error) {
    f.outcome = DocumentFetch::Outcome::transport_error;
    f.message = fmt::format("{}: {}", req, *e.error);
    if (f.redirects > 0) {  // a hop failed (or was not fetched): say where it went
      const auto& before = exchanges.at(static_cast<std::size_t>(f.chain[f.chain.size() - 2] - 1));
      f.message = fmt::format("{} → {} → {}: {}", req, before.status.value_or(0), e.url, *e.error);
    }
    return f;
  }
  if (e.is_redirect()) {
    f.outcome = DocumentFetch::Outcome::too_many_redirects;
    f.message = fmt::format("{} → {}: still redirecting after {}", req, *e.status,
                            plural(f.redirects, "redirect", "redirects"));
    return f;
  }
  if (!e.is_success()) {
    f.outcome = DocumentFetch::Outcome::http_status;
    f.message = fmt::format("{} → {}", req, *e.status);
    return f;
  }
  if (e.body_truncated) {
    f.outcome = DocumentFetch::Outcome::too_large;
    f.message = fmt::format("{} → {}, but the document is larger than {} bytes", req, *e.status, limits.max_document_bytes);
    return f;
  }
  auto parsed = json_only ? oas::parse_json_document(e.body, limits) : oas::parse_any_document(e.body, limits);
  const char* format = json_only ? "JSON" : "JSON or YAML";
  if (!parsed.ok) {
    f.outcome = DocumentFetch::Outcome::not_json;
    f.message = fmt::format("{} → {}, but the body is not {} ({})", req, *e.status, format, parsed.error);
    return f;
  }
  if (!parsed.doc->root().IsObject()) {
    f.outcome = DocumentFetch::Outcome::not_object;
    f.message = fmt::format("{} → {}, but the body is {} {}, not an object", req, *e.status,
                            json_only ? "JSON" : "a document:", oas::type_name(parsed.doc->root()));
    return f;
  }
  f.outcome = DocumentFetch::Outcome::ok;
  f.message = fmt::format("{} → {}, a JSON object", req, *e.status);
  if (out) *out = std::move(parsed.doc);
  return f;
}

namespace {

bool is_http(const std::string& location) {
  return location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0;
}

// Parsed documents for $ref resolution: over HTTP(S) for a document that came
// from the web, also from disk for one that came from a file.
oas::Fetcher make_fetcher(http::Client& client, const std::string& root_url, const Settings& s) {
  bool root_is_file = root_url.rfind("file:", 0) == 0;
  return [&client, root_is_file, &s](const std::vector<std::string>& urls) {
    std::map<std::string, oas::FetchedDocument> out;
    std::vector<http::Request> requests;
    std::vector<std::string> http_urls;
    for (const auto& url : urls) {
      auto parsed = parse_url(url);
      auto& doc = out[url];
      if (!parsed) {
        doc.error = "not a valid URL";
      } else if (parsed->scheme == "file") {
        if (!root_is_file) {
          doc.error = "refused: a file reference from a document served over HTTP";
          continue;
        }
        auto r = oas::parse_document_file(percent_decode(parsed->path), s.limits);
        doc.ok = r.ok;
        doc.value = std::move(r.doc);
        doc.error = r.error;
      } else if (parsed->scheme == "http" || parsed->scheme == "https") {
        // The SSRF guard of a document request holds (build_request): public
        // addresses, and the hosts the user gave.
        http::Request req = build_request(s, document_request(url));
        req.purpose = "DO-2";
        requests.push_back(std::move(req));
        http_urls.push_back(url);
      } else {
        doc.error = "unsupported scheme '" + parsed->scheme + "'";
      }
    }
    auto results = client.run(requests);
    for (std::size_t i = 0; i < results.size(); ++i) {
      auto& doc = out[http_urls[i]];
      doc.exchanges = results[i].chain;
      for (int id : results[i].chain) doc.bytes += client.exchange(id).body.size();  // the $ref closure's byte cap
      const auto& e = client.exchange(results[i].last());
      std::string where = fmt::format("GET {}", http_urls[i]);
      if (e.error) {
        doc.error = fmt::format("{}: {}", where, *e.error);
        doc.transport_error = true;
      } else if (!e.is_success()) {
        doc.error = fmt::format("{} → {}", where, *e.status);
      } else if (e.body_truncated) {
        doc.error = fmt::format("{}: larger than {} bytes", where, s.limits.max_document_bytes);
      } else {
        auto r = oas::parse_any_document(e.body, s.limits);
        doc.ok = r.ok;
        doc.value = std::move(r.doc);
        if (!r.ok) doc.error = fmt::format("{}: {}", where, r.error);
      }
    }
    return out;
  };
}

// The document the checks read; its text is the body of a fetched
// document's last exchange (text_exchange), which is not copied, or its file's
// (set by read_file).
void use(Evidence& ev, std::string url, oas::DocPtr value, int text_exchange = 0) {
  auto& doc = ev.document;
  doc.url = std::move(url);
  doc.text_exchange = text_exchange;
  doc.docs.emplace(doc.url, std::move(value), ev.settings.limits);
}

void use(Evidence& ev, const DocumentFetch& f, oas::DocPtr value) {
  use(ev, f.final_url, std::move(value), f.last_exchange());
}

// A document from disk: file:// URLs and plain paths.
void read_file(Evidence& ev, const std::string& location) {
  std::string path = location.rfind("file://", 0) == 0 ? percent_decode(location.substr(7)) : location;
  oas::FileStamp stamp;
  auto r = oas::parse_document_file(path, ev.settings.limits, &stamp);
  if (r.ok && r.doc->root().IsObject()) {
    char real[PATH_MAX];
    std::string abs = realpath(path.c_str(), real) ? real : path;
    use(ev, "file://" + abs, std::move(r.doc));
    ev.document.text_file = path;
    ev.document.text_stamp = stamp;
  } else {
    ev.document.missing_reason = r.ok ? path + " is not an object" : r.error;
  }
}

// A document from a URL, JSON or YAML.
void read_url(http::Client& client, Evidence& ev, const http::Result& result) {
  oas::DocPtr value;
  auto f = judge_fetch(client.exchanges(), result, ev.settings.limits, false, &value);
  if (f.ok()) use(ev, f, std::move(value));
  else ev.document.missing_reason = f.message, ev.document.missing_is_error = f.transport();
}

// A large fetched document's text is read again only for the report's line
// numbers: it is kept deflated (15 MB of JSON at 10,000 paths is 0.7 MB) and
// its exchange lets the body go. No check reads a document's 2xx body after
// it is parsed, and the report does not show it (report::slim).
constexpr std::size_t kDeflateFrom = 512 * 1024;
void keep_text_deflated(http::Client& client, Evidence& ev) {
  auto& doc = ev.document;
  if (doc.text_exchange <= 0 || client.exchange(doc.text_exchange).body.size() < kDeflateFrom) return;
  std::string deflated = deflate_text(client.exchange(doc.text_exchange).body);
  if (deflated.empty()) return;  // zlib failed: the body stays as it is
  doc.text_deflated = std::move(deflated);
  client.take_body(doc.text_exchange);
}

void resolve(http::Client& client, Evidence& ev) {
  auto& doc = ev.document;
  if (!doc.docs) return;
  doc.unresolved = doc.docs->resolve_all(make_fetcher(client, doc.url, ev.settings), client.settings().deadline);
  doc.ref_exchanges = doc.docs->exchanges();
}

}  // namespace

void plan_acquire(Planner& planner, const Settings& settings) {
  planner.add(published_document(settings), "document");
  if (settings.openapi && is_http(*settings.openapi)) planner.add(document_request(*settings.openapi), "document");
}

void acquire_for_check(http::Client& client, Evidence& ev) {
  const Settings& s = ev.settings;
  auto& doc = ev.document;
  const http::Result* published = ev.result(published_document(s));
  oas::DocPtr published_json;
  if (published) doc.published_fetch = judge_fetch(client.exchanges(), *published, s.limits, true, &published_json);
  oas::DocPtr with_headers;
  if (doc.published_fetch && !doc.published_fetch->ok() && !doc.published_fetch->transport() && !s.headers.empty()) {
    // It may be behind authentication: ask again with -H (PO-1 says so; the checks may read it).
    RequestSpec spec = published_document(s);
    spec.user_headers = true;
    http::Request r = build_request(s, spec);
    r.purpose = "PO-1 (with -H)";
    http::Result res = client.run_one(r);
    ev.results[spec.key()] = res;
    doc.published_with_headers = judge_fetch(client.exchanges(), res, s.limits, true, &with_headers);
  }
  if (s.openapi) {
    if (is_http(*s.openapi)) {
      if (const http::Result* r = ev.result(document_request(*s.openapi))) read_url(client, ev, *r);
    } else {
      read_file(ev, *s.openapi);
    }
    if (doc.published_fetch && doc.published_fetch->ok()) doc.published_other = std::move(published_json);
  } else if (doc.published_fetch && doc.published_fetch->ok()) {
    use(ev, *doc.published_fetch, std::move(published_json));
  } else if (doc.published_with_headers && doc.published_with_headers->ok()) {
    use(ev, *doc.published_with_headers, std::move(with_headers));
  } else if (doc.published_fetch) {
    doc.missing_reason = doc.published_fetch->message;
    doc.missing_is_error = doc.published_fetch->transport();
  }
  resolve(client, ev);
  keep_text_deflated(client, ev);
}

void acquire_for_lint(http::Client& client, Evidence& ev) {
  const std::string& location = ev.settings.openapi.value_or("");
  if (is_http(location)) {
    RequestSpec spec = document_request(location);
    http::Request r = build_request(ev.settings, spec);
    r.purpose = "document";
    http::Result res = client.run_one(r);
    ev.results[spec.key()] = res;
    read_url(client, ev, res);
  } else {
    read_file(ev, location);
  }
  resolve(client, ev);
  keep_text_deflated(client, ev);
}

}  // namespace adrprobe::engine
