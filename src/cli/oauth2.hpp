// OAuth 2.0 client credentials (CLI.md, "Authorisation for APIs that need
// it"): the settings of --oauth2-* and of a batch file's `oauth2:` keys,
// validated in one place, and the token source they give, which every
// command that takes them (check, batch, register) puts on its requests.
//
// The token is fetched in the cli layer before the run starts, so the
// Redactor is made knowing it; a token renewed during the run is handed to
// the Redactor (add_late) before any request carries it.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cli/settings.hpp"
#include "engine/settings.hpp"
#include "http/client.hpp"

namespace adrprobe::cli {

// Validated: the token endpoint https (or http on a loopback host), a client
// id, the secret with ${VAR} read from the environment.
struct OAuth2 {
  std::string token_url, client_id, client_secret, scope;
  bool basic = true;  // client authentication: HTTP Basic, else in the form body
  bool enabled() const { return !token_url.empty(); }
  // Targets of one batch that share it share a token (CLI.md).
  std::string share_key() const { return token_url + '\n' + client_id + '\n' + scope; }
};

// `args` with a batch file's oauth2 keys (batch::oauth2_keys()) over it.
OAuth2Args with_keys(OAuth2Args args, const std::map<std::string, std::string>& keys);

// How errors name a setting: the command's options or the batch file's keys.
enum class OAuth2Names { options, batch_keys };
// UsageError naming the setting, never the secret. Nothing given: disabled.
OAuth2 to_oauth2(const OAuth2Args& args, OAuth2Names names);

// A token endpoint's answer is a small JSON object: more is not one.
inline constexpr std::size_t max_token_answer = 64 * 1024;
// A bearer token longer than this is no token a server means (JWTs are a few KiB).
inline constexpr std::size_t max_token = 16 * 1024;

struct TokenAnswer {
  std::string token;
  std::optional<double> expires_in;  // seconds; none: the endpoint did not say
};
// The token endpoint's answer (RFC 6749 §5.1, §5.2): a JSON object with an
// access_token of visible ASCII (RFC 6750 §2.1) of at most max_token bytes, a
// token_type of Bearer when given, an expires_in of a positive number of
// seconds when given. Else std::runtime_error saying why, with the OAuth
// `error` and `error_description` of a refusal (escaped); `cut`: the body
// was longer than max_token_answer.
TokenAnswer read_token_answer(int status, const std::string& body, bool cut);

// The token endpoint refused or could not be reached: the run stops (exit 2;
// in a batch that target is down). The message names the endpoint, the
// status and the OAuth error, and is masked.
struct TokenError : UsageError {
  using UsageError::UsageError;
};

// One client's token: fetched once, shared by every request (and every
// target of a batch with the same share_key), renewed once when it is about
// to expire during the run. Thread-safe.
class TokenSource {
 public:
  // `client`: the run's timeout, CA file, --insecure, --resolve, User-Agent.
  TokenSource(OAuth2 config, const http::ClientSettings& client);
  // Fetches the first token; TokenError when there is none.
  void fetch();
  const OAuth2& config() const { return config_; }
  int status() const { return status_; }
  // "Bearer <the first token>": what the requests are planned with.
  const std::string& first_authorization() const { return first_; }
  // http::ClientSettings::before_send: the planned Authorization value
  // becomes the token of now, renewed first (once) when it is about to expire.
  void refresh(std::vector<http::Header>& headers);
  // Told each renewed token's header before any request carries it (the
  // Redactor's add_late). Set before the run starts.
  std::function<void(const http::Header&)> on_renewed;

 private:
  struct Token {
    std::string authorization;  // "Bearer <token>"
    std::optional<http::Clock::time_point> renew_at;
  };
  Token request_token();
  std::string current();
  OAuth2 config_;
  http::ClientSettings client_;
  std::mutex mutex_;
  Token token_;
  std::string first_;
  int status_ = 0;
  bool renewed_ = false;
};

// The token on a run's settings: Authorization in its headers, the renewal
// hook on its client, the endpoint and status for the run record, the secret
// for the Redactor. UsageError when the headers give Authorization already.
void authorise(engine::Settings& settings, const std::shared_ptr<TokenSource>& source);
// A command's --oauth2-* (check, register): validated, the token fetched
// and put on `settings` (authorise); nullptr when none is given. UsageError,
// TokenError.
std::shared_ptr<TokenSource> oauth2_token(const OAuth2Args& args, engine::Settings& settings);
// -H Authorization and an OAuth 2.0 token cannot both be sent: UsageError
// naming `where` when the headers hold one.
void check_no_authorization(const std::vector<http::Header>& headers, const std::string& where);

}  // namespace adrprobe::cli
