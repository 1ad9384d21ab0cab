#include "checks/problem.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>

#include "oas/parse.hpp"
#include "util/strings.hpp"

namespace adrprobe::checks {

using http::media_type;

bool is_problem(std::string_view value) {
  std::string m = media_type(value);
  return iequals(m, kProblemJson) || iequals(m, kProblemXml);
}

namespace {

std::string shown_value(const oas::json& v) {
  return truncate_utf8(v.dump(-1, ' ', false, oas::json::error_handler_t::replace), 40);
}

void judge_json(const http::Exchange& e, const oas::Limits& limits, ProblemJudgement& j) {
  auto parsed = oas::parse_json(e.body, limits);
  if (!parsed.ok) {
    j.fails.push_back("body is not JSON");
    return;
  }
  const oas::json& body = parsed.value;
  if (!body.is_object()) {
    j.fails.push_back("body is not a JSON object");
    return;
  }
  int status = *e.status;
  auto s = body.find("status");
  if (s == body.end()) j.fails.push_back("no status");
  else if (s->is_string()) j.fails.push_back(fmt::format("status {} is a string", shown_value(*s)));
  else if (!s->is_number()) j.fails.push_back(fmt::format("status {} is not a number", shown_value(*s)));
  else if (s->get<double>() != static_cast<double>(status))
    j.fails.push_back(fmt::format("status {}, not {}", shown_value(*s), status));
  for (const char* m : {"title", "detail"}) {
    auto it = body.find(m);
    if (it == body.end()) j.fails.push_back(fmt::format("no {}", m));
    else if (!it->is_string()) j.fails.push_back(fmt::format("{} is not a string", m));
  }
  for (const char* m : {"type", "instance"}) {
    auto it = body.find(m);
    if (it != body.end() && !it->is_string()) j.fails.push_back(fmt::format("{} is not a string", m));
  }
}

// XML namespaces by hand (pugixml does not resolve them): the namespace an
// element's prefix (or the default namespace) is bound to in scope.
std::string local_name(const pugi::xml_node& n) {
  std::string_view name = n.name();
  auto colon = name.find(':');
  return std::string(colon == std::string_view::npos ? name : name.substr(colon + 1));
}
std::string namespace_of(const pugi::xml_node& n) {
  std::string_view name = n.name();
  auto colon = name.find(':');
  std::string attr = colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(name.substr(0, colon));
  for (pugi::xml_node x = n; x && x.type() == pugi::node_element; x = x.parent())
    if (pugi::xml_attribute a = x.attribute(attr.c_str())) return a.value();
  return "";
}

void judge_xml(const http::Exchange& e, ProblemJudgement& j) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(e.body.data(), e.body.size(), pugi::parse_default);
  std::size_t roots = 0;
  for (pugi::xml_node n : doc.children())
    if (n.type() == pugi::node_element) ++roots;
  if (!parsed || roots != 1) {
    j.fails.push_back("body is not well-formed XML");
    return;
  }
  pugi::xml_node root = doc.document_element();
  if (local_name(root) != "problem" || namespace_of(root) != kProblemNs) {
    std::string ns = namespace_of(root);
    j.fails.push_back(fmt::format("root element {}{} is not problem in {}", truncate_utf8(local_name(root), 40),
                                  ns.empty() ? "" : " in " + truncate_utf8(ns, 60), kProblemNs));
    return;
  }
  auto child = [&](const char* name) -> pugi::xml_node {
    for (pugi::xml_node c : root.children())
      if (c.type() == pugi::node_element && local_name(c) == name && namespace_of(c) == kProblemNs) return c;
    return {};
  };
  if (pugi::xml_node s = child("status")) {
    std::string text = trim(s.text().get());
    bool integer = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!integer) j.fails.push_back(fmt::format("status \"{}\" is not an integer", truncate_utf8(text, 40)));
    else if (text.size() > 3 || std::stoi(text) != *e.status)
      j.fails.push_back(fmt::format("status {}, not {}", truncate_utf8(text, 40), *e.status));
  } else {
    j.fails.push_back("no status");
  }
  for (const char* m : {"title", "detail"})
    if (!child(m)) j.fails.push_back(fmt::format("no {}", m));
}

}  // namespace

ProblemJudgement judge_problem(const http::Exchange& e, const oas::Limits& limits) {
  ProblemJudgement j;
  const std::string* ct = e.header("content-type");
  std::string media = ct ? media_type(*ct) : "";
  bool json = iequals(media, kProblemJson), xml = iequals(media, kProblemXml);
  if (!ct) j.fails.push_back("no Content-Type");
  else if (!json && !xml) j.fails.push_back("Content-Type " + (media.empty() ? "\"\"" : truncate_utf8(media, 60)));
  const std::string& body = e.judged_body();
  if (body.empty() || e.body_truncated) {
    if (body.empty()) j.fails.push_back("empty body");
    else j.truncated = true;
    for (auto& f : j.fails) f = replace_invalid_utf8(f, "\xEF\xBF\xBD");
    return j;
  }
  if (json) judge_json(e, limits, j);
  else if (xml) judge_xml(e, j);
  // Reasons quote server bytes (a media type, an XML text): never invalid UTF-8 in a report.
  for (auto& f : j.fails) f = replace_invalid_utf8(f, "\xEF\xBF\xBD");
  return j;
}

}  // namespace adrprobe::checks
