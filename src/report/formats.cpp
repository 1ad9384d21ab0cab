#include "report/formats.hpp"

#include <stdexcept>

#include "util/strings.hpp"

namespace adrprobe::report {

// The renderers, one file each (report/<format>.cpp).
std::string render_text(const Report&, const RenderOptions&);
std::string render_json(const Report&, const RenderOptions&);
std::string render_openmetrics(const Report&, const RenderOptions&);
std::string render_html(const Report&, const RenderOptions&);
std::string render_junit(const Report&, const RenderOptions&);
std::string render_markdown(const Report&, const RenderOptions&);
std::string render_sarif(const Report&, const RenderOptions&);
std::string render_gitlab(const Report&, const RenderOptions&);

const std::vector<Format>& formats() {
  static const std::vector<Format> table{
      {"text", "txt", true, "a person at a terminal", render_text},
      {"json", "json", true, "scripts and baselines (report.schema.json)", render_json},
      {"junit", "xml", true, "CI test reports (GitLab, Jenkins)", render_junit},
      {"html", "html", true, "auditors: one self-contained file", render_html},
      {"markdown", "md", true, "merge-request comments", render_markdown},
      {"sarif", "sarif", true, "code scanning of a document in a repository", render_sarif},
      {"gitlab", "gitlab.json", true, "GitLab Code Quality widget", render_gitlab},
      {"openmetrics", "prom", true, "Prometheus textfile collector", render_openmetrics},
  };
  return table;
}

const Format* find_format(std::string_view name) {
  for (const auto& f : formats())
    if (f.name == name) return &f;
  return nullptr;
}

std::string render(std::string_view format, const Report& report, const RenderOptions& options) {
  const Format* f = find_format(format);
  if (!f || !f->render) throw std::logic_error("no renderer for format " + std::string(format));
  return f->render(report, options);
}

std::string format_names() {
  std::vector<std::string> names;
  for (const auto& f : formats())
    if (f.render) names.emplace_back(f.name);
  return join(names, ", ");
}

}  // namespace adrprobe::report
