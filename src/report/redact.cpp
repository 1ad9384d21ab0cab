#include "report/redact.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::report {
namespace {

// A value as it stands inside a JSON pointer (RFC 6901: '~' as ~0, '/' as ~1):
// a document path that carries a secret becomes a check's location.
std::string as_in_pointer(const std::string& value) {
  return replace_all(replace_all(value, "~", "~0"), "/", "~1");
}

// Base64 in the URL-safe alphabet (RFC 4648 §5): '-' and '_' for '+' and '/'.
std::string base64_url_safe(std::string b64) {
  std::replace(b64.begin(), b64.end(), '+', '-');
  std::replace(b64.begin(), b64.end(), '/', '_');
  return b64;
}

// The parts of base64(x + value + y) that depend on value alone, for x of 0, 1
// and 2 bytes (every alignment value can have in encoded data) and any y: the
// characters whose six bits all come from value. Those of at least
// min_base64_part characters.
std::vector<std::string> base64_aligned_parts(const std::string& value) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < 3; ++k) {
    std::string encoded = base64_encode(std::string(k, '\0') + value + std::string(3, '\0'));
    std::size_t from = (8 * k + 5) / 6;            // the first character after x's bits
    std::size_t to = 8 * (k + value.size()) / 6;   // the last one before y's
    if (to > from && to - from >= Redactor::min_base64_part) out.push_back(encoded.substr(from, to - from));
  }
  return out;
}

// Whether a code point an escape names is a Unicode scalar value (no
// surrogate, at most U+10FFFF): the only ones a text can hold.
bool scalar_value(long cp) { return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF); }

// `digits` hex digits of text at i as a number; -1 when they are not all hex.
long hex_at(std::string_view text, std::size_t i, std::size_t digits) {
  if (i + digits > text.size()) return -1;
  long v = 0;
  for (std::size_t k = i; k < i + digits; ++k) {
    int d = hex_digit(text[k]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// The escape syntaxes one reading of a text undoes: JSON's (\/ \" \\ \b \f \n
// \r \t \uXXXX, a surrogate pair as one), a URL's %XX, a form's (%XX, and '+'
// for a space), HTML's character references (&#47; &#x2F; and the named ones
// a server's escaping writes).
enum Escapes : unsigned { escape_json = 1, escape_url = 2, escape_form = 4, escape_html = 8 };

// The escape at text[i] of one of `escapes`, if any: how many bytes it takes
// and what it stands for.
std::size_t escape_at(std::string_view text, std::size_t i, unsigned escapes, std::string& decoded) {
  char c = text[i];
  if (c == '+' && (escapes & escape_form)) {
    decoded = " ";
    return 1;
  }
  if (c == '%' && (escapes & (escape_url | escape_form))) {
    long v = hex_at(text, i + 1, 2);
    if (v < 0) return 0;
    decoded = std::string(1, static_cast<char>(v));
    return 3;
  }
  if (c == '\\' && (escapes & escape_json) && i + 1 < text.size()) {
    static constexpr std::string_view from = "/\"\\bfnrt", to = "/\"\\\b\f\n\r\t";
    if (auto k = from.find(text[i + 1]); k != std::string_view::npos) {
      decoded = std::string(1, to[k]);
      return 2;
    }
    if (text[i + 1] != 'u') return 0;
    long cp = hex_at(text, i + 2, 4);
    if (cp < 0) return 0;
    std::size_t used = 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && text.substr(i + 6, 2) == "\\u") {
      long low = hex_at(text, i + 8, 4);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        used = 12;
      }
    }
    if (!scalar_value(cp)) return 0;
    decoded.clear();
    append_utf8(decoded, static_cast<char32_t>(cp));
    return used;
  }
  if (c == '&' && (escapes & escape_html)) {
    std::size_t semi = text.find(';', i + 1);
    if (semi == std::string_view::npos || semi - i > 12) return 0;
    std::string_view ref = text.substr(i + 1, semi - i - 1);
    long cp = -1;
    if (ref.size() > 2 && (ref[1] == 'x' || ref[1] == 'X') && ref[0] == '#') {
      cp = hex_at(ref, 2, ref.size() - 2);
    } else if (ref.size() > 1 && ref[0] == '#') {
      cp = 0;
      for (char d : ref.substr(1)) cp = d >= '0' && d <= '9' && cp < 0x110000 ? cp * 10 + (d - '0') : -1;
    } else {
      static const std::pair<std::string_view, char> named[] = {
          {"amp", '&'},  {"lt", '<'},     {"gt", '>'},    {"quot", '"'},   {"apos", '\''}, {"sol", '/'},
          {"plus", '+'}, {"equals", '='}, {"colon", ':'}, {"percnt", '%'}, {"num", '#'},   {"commat", '@'}};
      for (const auto& [name, ch] : named)
        if (ref == name) cp = static_cast<unsigned char>(ch);
    }
    if (!scalar_value(cp)) return 0;
    decoded.clear();
    append_utf8(decoded, static_cast<char32_t>(cp));
    return semi + 1 - i;
  }
  return 0;
}

// text with every escape of `escapes` undone, and for each byte of it the
// offset in text of what it came from (one more entry: text's size). nullopt
// when text has none to undo.
struct Unescaped {
  std::string text;
  std::vector<std::size_t> from;
};
std::optional<Unescaped> unescape(std::string_view text, unsigned escapes) {
  Unescaped u;
  u.text.reserve(text.size());
  u.from.reserve(text.size() + 1);
  bool any = false;
  std::string decoded;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t used = escape_at(text, i, escapes, decoded);
    if (used == 0) {
      u.text += text[i];
      u.from.push_back(i++);
      continue;
    }
    any = true;
    for (char d : decoded) {
      u.text += d;
      u.from.push_back(i);
    }
    i += used;
  }
  if (!any) return std::nullopt;
  u.from.push_back(text.size());
  return u;
}

// The readings of a text worth making: each syntax whose mark it holds on its
// own (a value's own "&#43;" or "%2B" stays as it is in a JSON string), and
// all of them at once where it holds two or more (a JSON body of HTML text).
std::vector<unsigned> readings(std::string_view text) {
  auto has = [&](char c) { return text.find(c) != std::string_view::npos; };
  bool backslash = has('\\'), percent = has('%'), plus = has('+'), amp = has('&');
  std::vector<unsigned> out;
  if (backslash) out.push_back(escape_json);
  if (percent) out.push_back(escape_url);
  if (plus) out.push_back(escape_form);  // '+' as a space, and %XX
  if (amp) out.push_back(escape_html);
  if (int(backslash) + int(percent || plus) + int(amp) >= 2) {
    if (percent) out.push_back(escape_json | escape_url | escape_html);
    if (plus) out.push_back(escape_json | escape_form | escape_html);
  }
  if (backslash && amp && !percent && !plus) out.push_back(escape_json | escape_html);
  return out;
}

std::uint32_t needle_key(char a, char b) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(a)) << 8 | static_cast<unsigned char>(b);
}

}  // namespace

void Redactor::Matcher::build(std::vector<std::pair<std::string, std::string>> needles) {
  // Two-byte keys, and a needle that is its own mask would match forever.
  std::erase_if(needles, [](const auto& n) { return n.first.size() < 2 || n.first == n.second; });
  std::sort(needles.begin(), needles.end(), [](const auto& a, const auto& b) {
    auto ka = needle_key(a.first[0], a.first[1]), kb = needle_key(b.first[0], b.first[1]);
    if (ka != kb) return ka < kb;
    if (a.first.size() != b.first.size()) return a.first.size() > b.first.size();
    return a < b;  // the plain mask ("***") before a partial one ("user:***@")
  });
  needles.erase(std::unique(needles.begin(), needles.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                needles.end());
  needles_ = std::move(needles);
  first_.assign(needles_.empty() ? 0 : 65537, 0);
  if (needles_.empty()) return;
  for (const auto& [needle, with] : needles_) ++first_[needle_key(needle[0], needle[1]) + 1];
  for (std::size_t k = 1; k < first_.size(); ++k) first_[k] += first_[k - 1];
}

const std::pair<std::string, std::string>* Redactor::Matcher::longest_at(std::string_view text, std::size_t i) const {
  std::uint32_t k = needle_key(text[i], text[i + 1]);
  std::size_t left = text.size() - i;
  for (std::uint32_t n = first_[k]; n < first_[k + 1]; ++n) {
    const std::string& needle = needles_[n].first;
    if (needle.size() <= left && std::memcmp(needle.data() + 2, text.data() + i + 2, needle.size() - 2) == 0)
      return &needles_[n];
  }
  return nullptr;
}

std::vector<Redactor::Matcher::Span> Redactor::Matcher::spans(std::string_view text) const {
  std::vector<Span> out;
  if (needles_.empty() || text.size() < 2) return out;
  // The match being extended: [from, to), the needle found at from, and
  // whether later matches overlapping it made it longer (then it is masked
  // whole: no partial mask keeps a part of another secret).
  const std::pair<std::string, std::string>* open = nullptr;
  std::size_t from = 0, to = 0;
  bool merged = false;
  auto close = [&] {
    out.push_back(Span{from, to, merged ? nullptr : &open->second});
    open = nullptr;
  };
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (open && i >= to) close();
    const auto* m = longest_at(text, i);
    if (!m) continue;
    std::size_t end = i + m->first.size();
    if (!open) {
      open = m, from = i, to = end, merged = false;
    } else if (end > to) {
      to = end, merged = true;
    }
  }
  if (open) close();
  return out;
}

namespace {
// text with each span replaced (spans in order, not overlapping).
template <typename Span>
std::string replace_spans(std::string_view text, const std::vector<Span>& spans) {
  std::string out;
  std::size_t copied = 0;  // text before this is in out
  for (const auto& span : spans) {
    out.append(text.substr(copied, span.from - copied));
    out += span.with ? *span.with : std::string(Redactor::mask);
    copied = span.to;
  }
  out.append(text.substr(copied));
  return out;
}
}  // namespace

std::size_t Redactor::Matcher::cut_needle(std::string_view text) const {
  constexpr std::size_t shortest = 4;
  std::size_t longest = 0;
  for (const auto& [needle, with] : needles_)
    for (std::size_t k = std::min(needle.size() - 1, text.size()); k >= shortest && k > longest; --k)
      if (text.substr(text.size() - k) == std::string_view(needle).substr(0, k)) {
        longest = k;
        break;
      }
  return longest;
}

void Redactor::add(std::string needle, std::string replacement) {
  if (needle.size() >= 2) needles_.emplace_back(std::move(needle), std::move(replacement));
  built_.store(false, std::memory_order_release);
}

// A value as given and percent-encoded (%2F as well as %2f): a server may echo
// it in a Location or a query; and each of those as it stands in a JSON pointer.
void Redactor::add_forms(const std::string& value) {
  std::string upper = percent_encode(value);
  for (const std::string& form : {value, upper, to_lower(upper)}) {
    add(form);
    add(as_in_pointer(form));
  }
}

// A value base64-encoded (a gateway that passes a credential on encoded, a
// body that embeds it in encoded JSON), in the standard and the URL-safe
// alphabet: the whole encoding with and without its padding, masked whole
// where it stands alone; and the part of each of the three alignments that
// depends on the value alone, wherever it stands in longer encoded data. Each
// in the forms of add_forms.
void Redactor::add_base64(const std::string& value) {
  std::string encoded = base64_encode(value);
  std::string unpadded = encoded;
  while (!unpadded.empty() && unpadded.back() == '=') unpadded.pop_back();
  std::vector<std::string> forms{encoded, unpadded};
  for (auto& part : base64_aligned_parts(value)) forms.push_back(std::move(part));
  for (const auto& form : forms) {
    add_forms(form);
    add_forms(base64_url_safe(form));
  }
}

// A value as given (long enough to be looked for inside text) and each part a
// header's syntax separates: the space-separated words ("Bearer <token>"), a
// cookie's values ("theme=dark; sid=<value>"), and the segments between '/'
// (a value that stands in a document path is split there: a check may quote
// one segment). A Basic credential is decoded: its user:password and password.
void Redactor::add_value(const std::string& name, const std::string& value) {
  if (value.size() >= min_substring) {
    add_forms(value);
    add_base64(value);
  }
  std::vector<std::string> parts;
  if (name == "cookie") {
    for (const auto& pair : split(value, ';'))
      if (auto eq = pair.find('='); eq != std::string::npos) parts.push_back(trim(pair.substr(eq + 1)));
  } else {
    parts = split(value, ' ');
  }
  for (std::size_t k = 0, n = parts.size(); k < n; ++k)
    for (auto& segment : split(parts[k], '/'))
      if (segment != parts[k]) parts.push_back(std::move(segment));
  for (const auto& part : parts)
    if (part.size() >= min_part && part != value) {
      add_forms(part);
      add_base64(part);
    }
  if ((name == "authorization" || name == "proxy-authorization") && starts_with_ci(value, "basic "))
    if (auto decoded = base64_decode(trim_view(std::string_view(value).substr(6))))
      if (auto colon = decoded->find(':'); colon != std::string::npos)
        add_credentials(decoded->substr(0, colon), decoded->substr(colon + 1));
}

Redactor::Redactor(const std::vector<http::Header>& secrets) {
  for (const auto& [name, value] : secrets) {
    names_.push_back(to_lower(name));
    std::string v = trim(value);
    if (!v.empty()) values_.push_back(v);
    add_value(names_.back(), v);
  }
}

void Redactor::add_credentials(const std::string& user, const std::string& password) {
  std::string credentials = user + ":" + password;
  if (credentials.size() >= min_substring) add_forms(credentials);
  add_base64(credentials);
  if (password.size() >= min_substring) {
    add_forms(password);
    add_base64(password);
  }
  // The Basic credentials libcurl sends for them, should a server echo them.
  std::string basic = "Basic " + base64_encode(credentials);
  values_.push_back(basic);
  add_base64(basic);
}

bool Redactor::add_userinfo(const std::string& text) {
  auto url = parse_url(text);
  if (!url || url->password.empty()) return false;
  // The userinfo form is masked whatever the password's length; the
  // password alone (as written and decoded) where it is long enough.
  add(url->user + ":" + url->password + "@", url->user + ":" + mask + "@");
  if (url->password.size() >= min_substring) add_forms(url->password);
  std::string plain = percent_decode(url->password);
  values_.push_back(plain);
  add_credentials(percent_decode(url->user), plain);
  return true;
}

void Redactor::add_credential(const std::string& user, const std::string& secret) {
  if (secret.empty()) return;
  values_.push_back(secret);
  add_credentials(user, secret);
}

void Redactor::add_late(const http::Header& secret) {
  std::unique_lock lock(late_mutex_);
  late_secrets_.push_back(secret);
  late_ = std::make_shared<const Redactor>(late_secrets_);
  has_late_.store(true, std::memory_order_release);
}

std::shared_ptr<const Redactor> Redactor::late() const {
  if (!has_late_.load(std::memory_order_acquire)) return nullptr;
  std::shared_lock lock(late_mutex_);
  return late_;
}

void Redactor::add_url(const std::string& text) {
  if (add_userinfo(text)) url_password_ = true;
}

void Redactor::add_proxy(const std::string& proxy) {
  std::string text = trim(proxy);
  if (text.empty()) return;
  // libcurl takes a proxy without a scheme as http://.
  if (text.find("://") == std::string::npos) text = "http://" + text;
  if (!add_userinfo(text)) return;
  // The header libcurl makes of them is masked whole, whatever its value.
  names_.push_back("proxy-authorization");
}

void Redactor::build() const {
  if (built_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(build_mutex_);
  if (built_.load(std::memory_order_relaxed)) return;
  text_.build(needles_);
  auto lower = needles_;
  for (auto& [needle, with] : lower) {
    needle = to_lower(needle);
    with = to_lower(with);
  }
  lower_.build(std::move(lower));
  built_.store(true, std::memory_order_release);
}

std::string Redactor::apply(const Matcher& matcher, std::string text) {
  // A mask can complete a needle with the text around it (the value "**ab"
  // in "**abab" leaves "***ab", and "*```" in "*`````````" one mask after
  // the other), and a partial mask ("user:***@") keeps text that may hold
  // another value: pass again until a pass masks nothing. Only a needle with
  // a '*' can be completed by a mask, and its mask is shorter than it: every
  // pass after the second shortens the text, so this ends. (Such a value
  // costs a pass per mask it forms, as before; any other value, two passes.)
  bool changed = true;
  for (int pass = 0; changed; ++pass) {
    std::size_t before = text.size();
    auto found = matches(matcher, text);
    changed = !found.empty();
    if (changed) text = replace_spans(text, found);
    if (pass >= 2 && text.size() >= before) break;
  }
  return text;
}

std::vector<Redactor::Matcher::Span> Redactor::matches(const Matcher& matcher, std::string_view text) {
  std::vector<Matcher::Span> found = matcher.spans(text);
  // Each reading of the text with escapes undone: '+' kept (JSON's "\u002B",
  // a URL's "%2B": the secret's own '+') and as a space (a form's encoding of
  // "Bearer <token>"). Its matches are mapped back to where they stand in text.
  for (unsigned escapes : readings(text)) {
    auto u = unescape(text, escapes);
    if (!u) continue;
    for (auto span : matcher.spans(u->text)) {
      // Widened to whole escapes (the bytes of one escape share an origin).
      while (span.from > 0 && u->from[span.from - 1] == u->from[span.from]) --span.from;
      while (span.to < u->text.size() && u->from[span.to] == u->from[span.to - 1]) ++span.to;
      found.push_back(Matcher::Span{u->from[span.from], u->from[span.to], span.with});
    }
  }
  // The matches of every reading as one list: a match inside another is the
  // other's (the plain "user:p%40ss@" keeps its "user:***@"; an escaped value
  // whole hides the segment of it found plain), and matches that overlap
  // otherwise are masked whole, as one.
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.from != b.from ? a.from < b.from : a.to > b.to;
  });
  std::vector<Matcher::Span> merged;
  for (const auto& span : found) {
    if (merged.empty() || span.from >= merged.back().to) {
      merged.push_back(span);
    } else if (span.to > merged.back().to) {
      merged.back().to = span.to;
      merged.back().with = nullptr;
    }
  }
  return merged;
}

std::string Redactor::apply(std::string text) const {
  build();
  text = apply(text_, std::move(text));
  if (auto later = late()) text = later->apply(std::move(text));
  return text;
}

std::string Redactor::apply_cut(std::string text) const {
  build();
  text = apply(text_, std::move(text));
  if (std::size_t cut = text_.cut_needle(text)) text.replace(text.size() - cut, cut, mask);
  if (auto later = late()) text = later->apply_cut(std::move(text));
  return text;
}

void Redactor::apply(Report& r) const {
  if (empty()) return;
  build();
  auto fix = [&](std::string& s) { s = apply(std::move(s)); };
  auto fix_all = [&](std::vector<std::string>& v) {
    for (auto& s : v) fix(s);
  };
  auto whole = [&](const std::string& value) {
    return std::find(values_.begin(), values_.end(), trim(value)) != values_.end();
  };
  fix(r.base_url);
  if (r.openapi_url) fix(*r.openapi_url);
  if (r.name) fix(*r.name);
  fix_all(r.notes);
  fix(r.headline);
  if (r.run) {
    fix(r.run->user_agent);
    fix_all(r.run->header_names);
    fix(r.run->oauth2_token_url);
    fix(r.run->command_line);
  }
  for (auto& rule : r.rules) {
    fix(rule.summary);
    fix_all(rule.hints);
    for (auto& c : rule.checks) {
      fix(c.message);
      fix_all(c.details);
      for (auto& l : c.locations) fix(l.pointer), fix(l.target);
    }
  }
  // Request header lines shared by many records are masked once.
  std::unordered_map<const void*, http::SharedHeaders> masked_sent;
  std::unordered_map<const void*, http::HeaderLines> masked_received;  // likewise the response lines
  for (auto& e : r.exchanges) {
    fix(e.url);
    if (!e.request_headers.empty()) {
      auto [at, fresh] = masked_sent.try_emplace(e.request_headers.identity());
      if (fresh) {
        std::vector<http::Header> sent(e.request_headers.begin(), e.request_headers.end());
        for (auto& [name, value] : sent) {
          if (std::find(names_.begin(), names_.end(), to_lower(name)) != names_.end() || whole(value)) value = mask;
          else fix(value);
          fix(name);
        }
        at->second = http::SharedHeaders(std::move(sent));
      }
      e.request_headers = at->second;
    }
    // A name can carry a value too (a server answering "X-<key>: 1"), lower
    // case. Every line stays a line of its own. Lines shared by many records
    // are masked once, and stay shared.
    if (!e.response_headers.empty()) {
      auto [at, fresh] = masked_received.try_emplace(e.response_headers.identity());
      if (fresh) {
        http::HeaderLines lines = e.response_headers;
        for (auto& [name, value] : lines) {
          // An echoed value is masked whole, however short it is.
          value = whole(value) ? std::string(mask) : apply(value);
          name = apply(lower_, apply(name));
        }
        at->second = std::move(lines);
      }
      e.response_headers = at->second;
    }
    if (e.error) fix(*e.error);
    // A body the report keeps the start of may end inside a secret.
    e.body = e.body_truncated ? apply_cut(std::move(e.body)) : apply(std::move(e.body));
  }
  if (r.tls) {
    auto& t = *r.tls;
    auto fix_chain = [&](std::vector<tls::Certificate>& chain) {
      for (auto& c : chain) {
        fix(c.subject);
        fix(c.issuer);
        fix_all(c.sans);
      }
    };
    for (auto* s : {&t.host, &t.error, &t.trust_error, &t.proxy, &t.client_cert_refusal}) fix(*s);
    fix_chain(t.chain);
    for (auto& p : t.protocols) {
      fix(p.error);
      fix_chain(p.chain);
    }
  }
  // The late secrets' header names and whole values too (apply() above masked them in text).
  if (auto later = late()) later->apply(r);
}

}  // namespace adrprobe::report
