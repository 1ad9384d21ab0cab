// adrprobe register: a batch file from DON's API register (CLI.md, "A register
// from the API register of developer.overheid.nl"). Only the register API is
// asked, and only at --from: page URLs are built from it, a Link is read for
// rel=next and never followed, and no API of the list is contacted.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "batch/don.hpp"
#include "batch/targets.hpp"
#include "cli/command.hpp"
#include "cli/oauth2.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "http/address.hpp"
#include "http/client.hpp"
#include "report/redact.hpp"
#include "util/files.hpp"
#include "util/read_file.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

namespace {

namespace don = batch::don;

struct RegisterArgs {
  std::string from = don::kProductionUrl;
  std::vector<std::string> organisations;
  std::string status = "active";
  std::string merge;
  std::string output;
  ProbeArgs probe;
};

// An answer of the register that cannot be used: exit 2 with the reason.
struct Unusable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> parse_statuses(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& part : split(text, ',')) {
    std::string status = to_lower(trim(part));
    if (status == "retired") throw UsageError("--status: retired APIs are never written");
    const auto& known = don::lifecycles();
    if (std::find(known.begin(), known.end(), status) == known.end())
      throw UsageError(fmt::format("--status '{}': expected lifecycles of active, deprecated, sunset, comma-separated",
                                   escape_control(text)));
    out.push_back(status);
  }
  return out;
}

// What the register answered to one GET: the body of a 200 within the bounds, else Unusable.
const http::Exchange& answer(http::Client& client, http::Result result) {
  const http::Exchange& ex = client.exchange(result.last());
  std::string url = escape_control(mask_url_password(ex.url));
  if (ex.error || !ex.status) throw Unusable(fmt::format("GET {}: {}", url, escape_control(ex.error.value_or("no answer"))));
  if (*ex.status != 200) throw Unusable(fmt::format("GET {}: HTTP {}", url, *ex.status));
  if (ex.body_truncated) throw Unusable(fmt::format("GET {}: larger than {}", url, byte_size(don::kMaxAnswerBytes)));
  return ex;
}

http::Request register_request(const std::string& url, const std::vector<http::Header>& headers, const std::string& purpose) {
  http::Request r;
  r.url = url;
  r.headers = headers;  // every request goes to --from's host: the only one -H is for
  r.body_limit = don::kMaxAnswerBytes;
  r.to_api = false;
  r.purpose = purpose;
  return r;
}

// What GET /apis listed, over every page asked.
struct Listing {
  std::map<std::string, don::Api> apis;  // deduplicated by id
  std::vector<std::string> unreadable;   // why, for the first kMaxUnreadableListed entries
  std::size_t unreadable_count = 0, pages = 0;
};

// Every API GET /apis lists (for one organisation, or all) into `listing`.
// Ends at Total-Pages, a Link without rel=next, an empty page or one with no
// id not seen before (a mock or a paging bug repeating pages).
void list_apis(http::Client& client, const std::string& from, const std::string& organisation,
               const std::vector<http::Header>& headers, Listing& listing) {
  auto& apis = listing.apis;
  for (std::size_t page = 1;; ++page) {
    if (++listing.pages > don::kMaxPages)
      throw Unusable(fmt::format("the register answers more than {} pages (at {} APIs a page)", don::kMaxPages, don::kPerPage));
    std::string url = fmt::format("{}/apis?page={}&perPage={}", from, page, don::kPerPage);
    if (!organisation.empty()) url += "&organisation=" + percent_encode(organisation);
    const http::Exchange& ex = answer(client, client.run_one(register_request(url, headers, "register: list")));
    don::Page listed;
    try {
      listed = don::parse_page(ex.body);
    } catch (const std::runtime_error& e) {
      throw Unusable(fmt::format("GET {}: {}", escape_control(mask_url_password(url)), e.what()));
    }
    std::size_t added = 0;
    for (auto& api : listed.apis) {
      if (apis.count(api.id)) continue;
      if (apis.size() == don::kMaxApis)
        throw Unusable(fmt::format("the register lists more than {} APIs", don::kMaxApis));
      ++added;
      apis.emplace(api.id, std::move(api));
    }
    listing.unreadable_count += listed.unreadable_count;
    for (auto& why : listed.unreadable)
      if (listing.unreadable.size() < don::kMaxUnreadableListed)
        listing.unreadable.push_back(fmt::format("page {}: {}", page, why));
    const std::string* total = ex.header("total-pages");
    const std::string* link = ex.header("link");
    bool last_page = total && std::to_string(page) == trim(*total);
    if (total) {
      char* end = nullptr;
      unsigned long long n = std::strtoull(total->c_str(), &end, 10);
      last_page = last_page || (end != total->c_str() && page >= n);
    }
    if (last_page || (link && !don::link_has_next(*link)) || listed.apis.empty() || added == 0) return;
  }
}

// Why an API is not asked for, or "".
std::string filtered(const don::Api& api, const std::vector<std::string>& statuses,
                     const std::vector<std::string>& organisations) {
  if (api.lifecycle == "retired") return "retired";
  if (std::find(statuses.begin(), statuses.end(), api.lifecycle) == statuses.end())
    return fmt::format("lifecycle '{}' is not in --status", escape_control(api.lifecycle));
  if (!organisations.empty() &&
      std::find(organisations.begin(), organisations.end(), api.organisation_uri) == organisations.end())
    return "another organisation than --organisation names";
  return "";
}

// A host batch would probe though it is not public: named in the file.
std::string address_note(const std::string& host) {
  if (iequals(host, "localhost") || (host.size() > 10 && iequals(host.substr(host.size() - 10), ".localhost")))
    return "its server is on this machine (localhost)";
  if (auto kind = http::classify(host); kind && !http::is_public(*kind))
    return fmt::format("its server is at a {} address ({})", http::to_string(*kind), escape_control(host));
  return "";
}

// What the register answered, masked: a register that echoes a request's
// header (-H, the OAuth 2.0 token) or the client secret into a title, a URL or
// an error shows "***" in the file and the messages, as every report does.
void mask_answers(const report::Redactor& redactor, don::WriteInput& input) {
  auto mask = [&](std::string& text) { text = redactor.apply(std::move(text)); };
  for (auto& api : input.apis) {
    for (std::string* text : {&api.id, &api.title, &api.organisation_uri, &api.organisation_label, &api.lifecycle, &api.why})
      mask(*text);
    for (auto& server : api.servers) mask(server);
    for (auto& auth : api.auth) mask(auth);
    if (api.oas_url) mask(*api.oas_url);
  }
  for (auto& why : input.unreadable) mask(why);
}

int run_register(const RegisterArgs& a) {
  // Everything is validated before the first request.
  std::string from = parse_base_url(a.from);
  std::vector<std::string> statuses = parse_statuses(a.status);
  for (const auto& organisation : a.organisations)
    if (organisation.empty()) throw UsageError("--organisation: give the organisation's URI");
  engine::Settings settings = to_settings(a.probe, from);
  don::WriteInput input;
  if (!a.merge.empty()) {
    try {
      input.merge_text = read_file(a.merge, batch::max_register_bytes);
      input.merge_file = a.merge;
      batch::parse_targets(input.merge_text, a.merge);
    } catch (const ReadFileError& e) {
      throw UsageError(fmt::format("--merge {}: {}", a.merge, e.what()));
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("--merge: {}", e.what()));
    }
  }
  if (!a.output.empty() && a.output != "-")
    if (std::string problem = write_problem(a.output); !problem.empty()) throw UsageError(problem);

  // The register API behind OAuth 2.0: the token before the first page, on
  // every request to --from (the only host asked), renewed once during a long run.
  auto token = oauth2_token(a.probe.oauth2, settings);
  report::Redactor redactor(settings.headers);
  add_run_secrets(redactor, settings);
  if (token) token->on_renewed = [&redactor](const http::Header& renewed) { redactor.add_late(renewed); };

  http::ClientSettings client_settings = settings.client;
  client_settings.deadline = http::Clock::now() + std::chrono::duration_cast<http::Clock::duration>(
                                                      std::chrono::duration<double>(settings.deadline_s));
  http::Client client(client_settings);
  Listing listing;
  try {
    std::vector<std::string> organisations = a.organisations.empty() ? std::vector<std::string>{""} : a.organisations;
    for (const auto& organisation : organisations) list_apis(client, from, organisation, settings.headers, listing);
  } catch (const Unusable& e) {
    throw UsageError(redactor.apply(fmt::format("the register's answer is unusable: {}", e.what())));
  }
  std::map<std::string, don::Api>& listed = listing.apis;
  input.unreadable = std::move(listing.unreadable);
  if (listing.unreadable_count > input.unreadable.size())
    input.unreadable.push_back(fmt::format("{} more entries of the pages could not be read (the first {} are listed)",
                                           listing.unreadable_count - input.unreadable.size(), input.unreadable.size()));

  // The detail of every API asked for, within --rate, --concurrency and the deadline.
  std::vector<http::Request> requests;
  std::vector<don::Api*> asked;
  for (auto& [id, api] : listed) {
    api.why = filtered(api, statuses, a.organisations);
    if (!api.why.empty()) {
      api.state = don::Api::State::filtered;
      continue;
    }
    requests.push_back(register_request(from + "/apis/" + percent_encode(id), settings.headers, "register: API"));
    asked.push_back(&api);
  }
  std::vector<http::Result> results = client.run(std::move(requests));
  std::size_t unfetched = 0;
  for (std::size_t i = 0; i < asked.size(); ++i) {
    don::Api& api = *asked[i];
    try {
      don::read_detail(answer(client, results[i]).body, api);
    } catch (const std::runtime_error& e) {
      api.state = don::Api::State::unfetched;
      api.why = e.what();
      ++unfetched;
      continue;
    }
    // The detail has the last word on the lifecycle.
    if (api.why = filtered(api, statuses, a.organisations); !api.why.empty()) api.state = don::Api::State::filtered;
  }

  for (auto& [id, api] : listed) input.apis.push_back(std::move(api));
  mask_answers(redactor, input);
  input.source = mask_url_password(from);
  input.address_note = address_note;
  don::Written written;
  try {
    written = don::write_register(input);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (written.targets == 0)
    throw UsageError(fmt::format("the register lists no API to write ({} listed; {})", input.apis.size(),
                                 written.left_out.empty() ? "none" : "left out: " + escape_control(join(written.left_out, "; ", 5))));
  if (a.output.empty() || a.output == "-") {
    std::fwrite(written.yaml.data(), 1, written.yaml.size(), stdout);
  } else {
    try {
      write_file(a.output, written.yaml);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  }
  fmt::print(stderr, "adrprobe register: {} listed on {}, {} written ({} new from DON, {} absent from DON), {} left out{}\n",
             plural(input.apis.size(), "API", "APIs"), plural(listing.pages, "page", "pages"),
             plural(written.targets, "target", "targets"), written.from_don, written.absent, written.left_out.size(),
             unfetched ? fmt::format("; {} could not be fetched (listed in the file's closing comment)", unfetched) : "");
  return unfetched ? Exit::incomplete : Exit::ok;
}

}  // namespace

Command register_command(CLI::App& parent) {
  auto a = std::make_shared<RegisterArgs>();
  auto* cmd = parent.add_subcommand("register", "Write a batch file (TARGETS.yaml) from DON's API register");
  cmd->add_option("--from", a->from, "The register API's base URL")->capture_default_str();
  cmd->add_option("--organisation", a->organisations, "Only this organisation's APIs, by its URI (repeatable)");
  cmd->add_option("--status", a->status,
                  "Lifecycles to write, comma-separated: active, deprecated, sunset (retired APIs never are)")
      ->capture_default_str();
  cmd->add_option("--merge", a->merge,
                  "A register to merge into: its defaults and its targets' own settings are kept (matched by don_id, "
                  "else base_url), its targets DON does not list are kept labelled don: absent");
  cmd->add_option("-o,--output", a->output, "Write the register to this file (default stdout)");
  add_header_options(cmd, a->probe);
  add_pace_options(cmd, a->probe);
  add_transport_options(cmd, a->probe);
  add_oauth2_options(cmd, a->probe.oauth2);
  cmd->footer(
      "Exit status: 0 written; 2 usage error or an unusable register answer (nothing written); 3 written, but some "
      "GET /apis/{id} failed (listed in the file's closing comment).");
  return {cmd, [a] { return run_register(*a); }};
}

}  // namespace adrprobe::cli
