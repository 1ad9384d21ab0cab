#include "util/url.hpp"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "util/curl_url.hpp"
#include "util/strings.hpp"

namespace adrprobe {

std::string Url::origin() const {
  bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return default_port ? fmt::format("{}://{}", scheme, h) : fmt::format("{}://{}:{}", scheme, h, port);
}

std::vector<std::string> Url::segments() const {
  std::vector<std::string> out;
  for (auto& s : split(path, '/'))
    if (!s.empty()) out.push_back(s);
  return out;
}

std::optional<Url> parse_url(const std::string& text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<Url> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (text.empty()) return fail("empty URL");
  for (unsigned char c : text)
    if (c <= 0x20 || c == 0x7f) return fail("URL contains spaces or control characters");
  UrlHandle u;
  // CURLU_PATH_AS_IS keeps "/v1/x/" and dot segments exactly as given.
  CURLUcode rc = curl_url_set(u.h, CURLUPART_URL, text.c_str(), CURLU_NON_SUPPORT_SCHEME | CURLU_PATH_AS_IS);
  if (rc != CURLUE_OK) return fail(fmt::format("not an absolute URL ({})", curl_url_strerror(rc)));
  Url url;
  url.scheme = to_lower(u.get(CURLUPART_SCHEME).value_or(""));
  if (url.scheme != "file") {
    auto host = u.get(CURLUPART_HOST);
    if (!host || host->empty()) return fail("URL has no host");
    url.host = *host;
    if (url.host.size() > 2 && url.host.front() == '[') url.host = url.host.substr(1, url.host.size() - 2);
    auto port = u.get(CURLUPART_PORT, CURLU_DEFAULT_PORT);
    try {
      url.port = port ? std::stoi(*port) : 0;
    } catch (...) {
      return fail("URL has an invalid port");
    }
  }
  url.user = u.get(CURLUPART_USER).value_or("");
  url.password = u.get(CURLUPART_PASSWORD).value_or("");
  url.path = u.get(CURLUPART_PATH).value_or("/");
  if (url.path.empty()) url.path = "/";
  url.query = u.get(CURLUPART_QUERY).value_or("");
  url.full = u.get(CURLUPART_URL).value_or(text);
  return url;
}

std::optional<std::string> resolve_url(const std::string& base, const std::string& reference) {
  UrlHandle u;
  if (curl_url_set(u.h, CURLUPART_URL, base.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) return std::nullopt;
  // Setting a relative URL on a handle that holds an absolute one resolves it.
  if (curl_url_set(u.h, CURLUPART_URL, reference.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  auto out = u.get(CURLUPART_URL);
  // libcurl (7.88) renders the root of a file: URL as "file://(nil)".
  if (out && out->rfind("file://(nil)", 0) == 0) *out = "file:///" + out->substr(12);
  return out;
}

bool same_origin(const std::string& a, const std::string& b) {
  auto x = parse_url(a), y = parse_url(b);
  return x && y && to_lower(x->origin()) == to_lower(y->origin());
}

bool under_base(const std::string& url, const std::string& base) {
  // The common case without parsing (a run asks for every request): the URL
  // is the base's text followed by a path, query or fragment with nothing a
  // parse would rewrite (dot segments, percent-encoding, a backslash).
  if (!base.empty() && base.back() != '/' && url.size() >= base.size() && url.compare(0, base.size(), base) == 0 &&
      base.find("://") != std::string::npos) {
    std::string_view rest = std::string_view(url).substr(base.size());
    if (rest.empty()) return true;
    if ((rest.front() == '/' || rest.front() == '?' || rest.front() == '#') &&
        rest.find("/.") == std::string_view::npos && rest.find('%') == std::string_view::npos &&
        rest.find('\\') == std::string_view::npos)
      return true;
  }
  auto x = parse_url(url), y = parse_url(base);
  if (!x || !y || to_lower(x->origin()) != to_lower(y->origin())) return false;
  std::string prefix = y->path;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  if (x->path.compare(0, prefix.size(), prefix) != 0) return false;
  return x->path.size() == prefix.size() || x->path[prefix.size()] == '/';
}

std::string strip_trailing_slash(std::string url) {
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

std::string mask_url_password(std::string text) {
  // Every "scheme://" in the text: the authority runs to the first '/', '?',
  // '#' or space; its userinfo ends at the last '@' in it.
  for (std::size_t at = text.find("://"); at != std::string::npos; at = text.find("://", at + 3)) {
    std::size_t start = at + 3;
    std::size_t end = text.find_first_of("/?# \t\r\n'\"", start);
    if (end == std::string::npos) end = text.size();
    std::size_t last_at = text.rfind('@', end == 0 ? 0 : end - 1);
    if (last_at == std::string::npos || last_at < start) continue;
    std::size_t colon = text.find(':', start);
    if (colon == std::string::npos || colon > last_at) continue;
    text.replace(colon + 1, last_at - colon - 1, "***");
  }
  return text;
}

std::optional<std::string> plain_url_path(std::string_view url) {
  std::string_view rest;
  if (url.substr(0, 7) == "http://") rest = url.substr(7);
  else if (url.substr(0, 8) == "https://") rest = url.substr(8);
  else return std::nullopt;
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("-._~/!$&'()*+,;=:@?#").find(c) != std::string_view::npos;
  };
  if (!std::all_of(rest.begin(), rest.end(), plain)) return std::nullopt;
  auto end = std::min(rest.size(), rest.find_first_of("/?#"));
  std::string_view authority = rest.substr(0, end), tail = rest.substr(end);
  std::string_view host = authority.substr(0, authority.find(':'));
  auto host_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'; };
  if (host.empty() || !std::all_of(host.begin(), host.end(), host_char)) return std::nullopt;
  if (host.size() < authority.size()) {
    std::string_view port = authority.substr(host.size() + 1);
    if (port.empty() || port.size() > 5 || port.front() == '0' ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(std::string(port)) > 65535)
      return std::nullopt;
  }
  tail = tail.substr(0, tail.find('#'));
  auto mark = tail.find('?');
  std::string_view path = tail.substr(0, mark);
  std::string_view query = mark == std::string_view::npos ? std::string_view() : tail.substr(mark + 1);
  std::string out(path.empty() ? std::string_view("/") : path);
  if (!query.empty()) {
    out += '?';
    out += query;
  }
  return out;
}

std::string url_path(const std::string& url) {
  if (auto plain = plain_url_path(url)) return std::move(*plain);
  auto parsed = parse_url(url);
  if (!parsed) return url;
  return parsed->query.empty() ? parsed->path : parsed->path + "?" + parsed->query;
}

}  // namespace adrprobe
