// adrprobe demo: start the built-in reference API on 127.0.0.1, probe it, report, stop it.
// demo --serve: only serve it (a target for check or batch) until SIGINT or SIGTERM.
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/options.hpp"
#include "demo/reference_api.hpp"
#include "engine/run.hpp"
#include "util/files.hpp"
#include "util/temp_file.hpp"

namespace adrprobe::cli {
namespace {

// A word a POSIX shell reads back as itself: as it is when it is plain, else in single quotes.
std::string demo_shell_word(const std::string& s) {
  bool plain = !s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                 "0123456789_./:=@%+,-") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A YAML double-quoted scalar (JSON's escapes, which YAML reads too).
std::string demo_yaml_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// The CA file of --ca-out: written (util/files.hpp's write_file, never through
// a symbolic link) and removed when the server stops.
class DemoCaOut {
 public:
  DemoCaOut(std::string path, const std::string& pem) : path_(std::move(path)) { write_file(path_, pem); }
  ~DemoCaOut() { std::remove(path_.c_str()); }
  DemoCaOut(const DemoCaOut&) = delete;
  DemoCaOut& operator=(const DemoCaOut&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct DemoServeArgs {
  bool serve = false;
  int port = 0;
  std::string ca_out;
};

// Serves until SIGINT or SIGTERM. Both signals are blocked before the server's
// threads start (they inherit the mask) and taken here with sigtimedwait, so
// no handler runs in the middle of the server's work.
int demo_serve(const DemoServeArgs& s, demo::Profile profile, const std::string& profile_name) {
  bool https = profile == demo::Profile::conformant;
  if (!s.ca_out.empty()) {
    if (!https) throw UsageError("demo --ca-out: the broken profile serves plain HTTP, it has no CA");
    struct stat st {};
    if (::lstat(s.ca_out.c_str(), &st) == 0)
      throw UsageError("demo --ca-out " + s.ca_out +
                       ": the file exists; the CA file is removed when the server stops, so name a new file");
    if (std::string problem = write_problem(s.ca_out); !problem.empty())
      throw UsageError("demo --ca-out " + s.ca_out + ": " + problem);
  }

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  demo::ReferenceApi api(profile);
  std::string base;
  try {
    base = api.start(s.port);
  } catch (const demo::PortUnavailable& e) {
    throw UsageError(std::string("demo --port: ") + e.what());
  }

  std::optional<TempFile> ca_temp;
  std::optional<DemoCaOut> ca_named;
  std::string ca_path;
  if (https) {
    try {
      if (s.ca_out.empty()) {
        ca_temp.emplace("adrprobe-demo-ca-", api.ca_pem());
        ca_path = ca_temp->path();
      } else {
        ca_named.emplace(s.ca_out, api.ca_pem());
        ca_path = ca_named->path();
      }
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("demo: the CA certificate: ") + e.what());
    }
    std::error_code ec;
    auto absolute = std::filesystem::absolute(ca_path, ec);
    if (!ec) ca_path = absolute.string();
  }

  // One line each, "key: value", for scripts; ca_file only for HTTPS.
  fmt::print("base_url: {}\n", base);
  if (https) fmt::print("ca_file: {}\n", ca_path);
  fmt::print("check: adrprobe check {}{}\n", base, https ? " --ca-file " + demo_shell_word(ca_path) : "");
  fmt::print("register: {{targets: [{{name: demo, base_url: {}{}}}]}}\n", demo_yaml_string(base),
             https ? ", ca_file: " + demo_yaml_string(ca_path) : "");
  std::fflush(stdout);
  fmt::print(stderr, "adrprobe demo: reference API ({}) serving at {} until interrupted (Ctrl-C or SIGTERM)\n",
             profile_name, base);

  int caught = 0;
  while (caught <= 0) {
    timespec tick{1, 0};
    caught = sigtimedwait(&stop_signals, nullptr, &tick);
    if (caught < 0 && errno != EAGAIN && errno != EINTR) throw std::runtime_error("demo: waiting for a signal failed");
    if (caught < 0 && !api.running()) throw std::runtime_error("demo: the reference API stopped on its own");
  }
  api.stop();
  fmt::print(stderr, "adrprobe demo: stopped ({}){}\n", caught == SIGINT ? "SIGINT" : "SIGTERM",
             https ? ", the CA file removed" : "");
  return Exit::ok;  // the CA file goes with ca_temp / ca_named
}

}  // namespace

Command demo_command(CLI::App& parent) {
  struct Args {
    std::string profile = "conformant";
    OutputArgs out;
    DemoServeArgs serve;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "demo", "Start the built-in reference API on 127.0.0.1, probe it, report, stop it; or, with --serve, only serve it");
  cmd->add_option("--profile", a->profile, "conformant (default) or broken: a deliberately non-conformant API")
      ->check(CLI::IsMember({"conformant", "broken"}))
      ->capture_default_str();
  cmd->add_flag("--serve", a->serve.serve,
                "Only serve the reference API until SIGINT/SIGTERM, a target for check or batch: prints base_url:, "
                "ca_file: (the CA to trust, HTTPS), check: and register: lines on stdout; removes the CA file when it "
                "stops. Takes --port, --profile and --ca-out, no report option");
  cmd->add_option("--port", a->serve.port, "With --serve: the port on 127.0.0.1 (default 0: a free one)")
      ->transform(decimal<int>())  // a port is decimal (0x50 is no port 80); checked before the range
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--ca-out", a->serve.ca_out,
                  "With --serve: write the CA certificate to this new file (default: a file in $TMPDIR, else /tmp)");
  add_output_options(cmd, a->out);
  return {cmd, [a, cmd] {
            demo::Profile profile = a->profile == "broken" ? demo::Profile::broken : demo::Profile::conformant;
            if (a->serve.serve) {
              static const std::set<std::string> serve_options{"--serve", "--port", "--profile", "--ca-out", "--help"};
              for (const CLI::Option* opt : cmd->get_options())
                if (opt->count() > 0 && !serve_options.count(opt->get_name()))
                  throw UsageError("demo --serve only serves the reference API: " + opt->get_name() +
                                   " is for the run that probes it (adrprobe check BASE_URL " + opt->get_name() + " ...)");
              return demo_serve(a->serve, profile, a->profile);
            }
            for (const char* name : {"--port", "--ca-out"})
              if (cmd->count(name) > 0) throw UsageError(std::string("demo ") + name + " goes with --serve");
            Output output = to_output(a->out);
            demo::ReferenceApi api(profile);
            std::string base = api.start();
            if (!a->out.quiet) fmt::print(stderr, "adrprobe demo: reference API ({}) serving at {}\n", a->profile, base);
            // Trust the CA made for this run: a file in $TMPDIR (else /tmp), removed however the run ends.
            std::optional<TempFile> ca;
            ProbeArgs probe;
            if (!api.ca_pem().empty()) {
              try {
                ca.emplace("adrprobe-demo-ca-", api.ca_pem());
              } catch (const std::runtime_error& e) {
                throw UsageError(std::string("demo: the CA certificate: ") + e.what());
              }
              probe.ca_file = ca->path();
            }
            int status = run_and_report("demo", engine::run_check, to_settings(probe, base), output);
            api.stop();
            return status;
          }};
}

}  // namespace adrprobe::cli
