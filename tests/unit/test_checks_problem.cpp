// checks/problem: error responses judged as problem details (EH-2).
#include <doctest/doctest.h>

#include "checks/problem.hpp"

using namespace adrprobe;
using namespace adrprobe::checks;
using adrprobe::http::Exchange;

namespace {
ProblemJudgement judge(int status, const char* content_type, std::string body, bool truncated = false) {
  Exchange e;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/x";
  e.status = status;
  if (content_type) e.response_headers.add("content-type", content_type);
  e.body = std::move(body);
  e.body_truncated = truncated;
  return judge_problem(e, oas::Limits{});
}
}  // namespace

TEST_CASE("problem media types, compared case-insensitively") {
  CHECK(is_problem("Application/Problem+JSON"));
  CHECK(is_problem("application/problem+xml;q=1"));
  CHECK_FALSE(is_problem("application/json"));
}

TEST_CASE("problem+json: status equal to the HTTP status, title and detail strings") {
  CHECK(judge(404, "application/problem+json", R"({"status":404,"title":"t","detail":"d"})").fails.empty());
  CHECK(judge(404, "application/problem+json", R"({"status":"404","title":"t","detail":"d"})").fails ==
        std::vector<std::string>{"status \"404\" is a string"});
  CHECK(judge(404, "application/problem+json", R"({"status":400,"title":"t","detail":"d"})").fails ==
        std::vector<std::string>{"status 400, not 404"});
  CHECK(judge(404, "application/problem+json", R"({"status":404,"title":"t"})").fails == std::vector<std::string>{"no detail"});
  CHECK(judge(404, "application/problem+json", "[1]").fails == std::vector<std::string>{"body is not a JSON object"});
  CHECK(judge(404, "application/problem+json", "{").fails == std::vector<std::string>{"body is not JSON"});
  CHECK(judge(404, "application/problem+json", R"({"status":404,"title":"t","detail":"d","type":1})").fails ==
        std::vector<std::string>{"type is not a string"});
}

TEST_CASE("problem+xml: root problem in urn:ietf:rfc:7807 with status, title, detail") {
  CHECK(judge(405, "application/problem+xml",
              R"(<problem xmlns="urn:ietf:rfc:7807"><status>405</status><title>t</title><detail>d</detail></problem>)")
            .fails.empty());
  CHECK(judge(405, "application/problem+xml",
              R"(<p:problem xmlns:p="urn:ietf:rfc:7807"><p:status>405</p:status><p:title>t</p:title><p:detail>d</p:detail></p:problem>)")
            .fails.empty());
  CHECK(judge(405, "application/problem+xml", R"(<problem><status>405</status><title/><detail/></problem>)").fails.size() == 1);
  CHECK(judge(405, "application/problem+xml", "<problem").fails == std::vector<std::string>{"body is not well-formed XML"});
}

TEST_CASE("the Content-Type, an empty or cut-off body") {
  CHECK(judge(404, nullptr, "x").fails.front() == "no Content-Type");
  CHECK(judge(404, "text/html", "<html>").fails.front() == "Content-Type text/html");
  CHECK(judge(404, "application/problem+json", "").fails == std::vector<std::string>{"empty body"});
  auto cut = judge(404, "application/problem+json", "{\"status\":404", true);
  CHECK(cut.truncated);
  CHECK(cut.fails.empty());
  // Server bytes in a reason are never invalid UTF-8.
  auto bad = judge(404, "text/\xff\xfe", "x");
  CHECK(bad.fails.front().find("\xff") == std::string::npos);
}
