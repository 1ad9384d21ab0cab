#include "engine/evidence.hpp"

#include <fmt/format.h>

#include <fstream>

#include "oas/lines.hpp"
#include "oas/walk.hpp"
#include "util/deflate.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {


const http::Result* Evidence::result(const RequestSpec& spec) const {
  auto it = results.find(spec.key());
  return it == results.end() || it->second.chain.empty() ? nullptr : &it->second;
}

const http::Exchange* Evidence::last(const RequestSpec& spec) const {
  const http::Result* r = result(spec);
  return r ? &ex(r->last()) : nullptr;
}

std::vector<std::optional<int>> Evidence::document_lines(const std::vector<std::string>& pointers) const {
  if (!document.text_deflated.empty()) {
    InflatedStream in(document.text_deflated);
    return oas::lines_of(in, settings.limits.max_document_bytes, pointers);
  }
  if (document.text_exchange > 0) return oas::lines_of(ex(document.text_exchange).body, pointers);
  std::vector<std::optional<int>> none(pointers.size());
  if (document.text_file.empty() || oas::stamp_of(document.text_file) != document.text_stamp) return none;
  std::ifstream in(document.text_file, std::ios::binary);
  if (!in) return none;
  return oas::lines_of(in, settings.limits.max_document_bytes, pointers);
}

const oas::Value* Evidence::published() const {
  if (document.published_other) return &document.published_other->root();
  return document.published_fetch && document.published_fetch->ok() ? doc() : nullptr;
}

CheckResult Evidence::prerequisite(const std::string& id) const {
  return CheckResult{id, document.missing_is_error ? Verdict::error : Verdict::fail,
                     "prerequisite not met: " + document.missing_reason, {}};
}

const oas::Value* Evidence::doc_paths() const {
  const oas::Value* paths = oas::find(doc(), "paths");
  return paths && paths->IsObject() ? paths : nullptr;
}

std::optional<CheckResult> Evidence::without_paths(const std::string& id) const {
  if (!doc()) return prerequisite(id);
  if (!doc_paths()) return CheckResult{id, Verdict::skip, "no paths in the document (see DO-3)", {}};
  return std::nullopt;
}

std::string Evidence::describe(int exchange_id) const {
  const auto& e = ex(exchange_id);
  std::string what = fmt::format("{} {}", e.method, url_path(e.url));
  if (e.error) return fmt::format("{}: {}", what, *e.error);
  return fmt::format("{} → {}", what, e.status.value_or(0));
}

std::optional<CheckResult> Evidence::transport_error(const std::string& id, int exchange_id) const {
  const auto& e = ex(exchange_id);
  if (!e.error) return std::nullopt;
  return CheckResult{id, Verdict::error, describe(exchange_id), {exchange_id}};
}

std::size_t Evidence::all_documented_404() const {
  std::size_t n = 0;
  for (const auto& t : targets) {
    if (t.is_base || !t.has_get()) continue;
    const http::Exchange* e = last(probe_request("GET", t.url));
    if (!e || e->status != 404) return 0;
    ++n;
  }
  return n;
}

std::string Evidence::unreachable() const {
  const auto& f = document.published_fetch;
  if (!settings.live() || !f || !f->transport()) return "";
  const http::Exchange* base_get = last(probe_request("GET", settings.base_url));
  if (base_get && !base_get->error) return "";
  const auto& e = base_get ? *base_get : ex(f->last_exchange());
  return fmt::format("could not reach {}: {}", settings.base_url, transport_cause(e.error.value_or("no response")));
}

std::string transport_cause(const std::string& error) {
  std::string cause = trim(error);  // libcurl ends some with a space ("... in connection to h:443 ")
  // libcurl: "Failed to connect to <host> port <n>: <why>"
  if (cause.rfind("Failed to connect to ", 0) == 0)
    if (auto colon = cause.rfind(": "); colon != std::string::npos) cause = cause.substr(colon + 2);
  // Mid-sentence, an ordinary word loses its capital ("Connection refused");
  // a name keeps its own ("SSL certificate problem", "OpenSSL/3.0.13: ...").
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  std::size_t word = 1;
  while (word < cause.size() && lower(cause[word])) ++word;
  bool name = word < cause.size() && upper(cause[word]);  // a capital inside the word
  if (!cause.empty() && upper(cause[0]) && !name) cause[0] = static_cast<char>(cause[0] - 'A' + 'a');
  return cause;
}

std::optional<std::string_view> info_version(const oas::Value& doc) {
  return oas::string_member(oas::find(doc, "info"), "version");
}

}  // namespace adrprobe::engine
