// JSON Pointer (RFC 6901), including its URI-fragment form.
#pragma once
#include "oas/doc.hpp"
#include "oas/json.hpp"
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::oas {

// "/paths/~1gebouwen" -> {"paths", "/gebouwen"}; nullopt when malformed.
std::optional<std::vector<std::string>> pointer_tokens(const std::string& pointer);
// A fragment as it stands in a $ref ("/paths/~1a%20b"): percent-decoded, then split.
std::optional<std::vector<std::string>> fragment_tokens(const std::string& fragment);
std::string escape_token(std::string_view token);
std::string make_pointer(const std::vector<std::string>& tokens);
// The value at tokens, or nullptr when there is none.
const json* lookup(const json& doc, const std::vector<std::string>& tokens);
const Value* lookup(const Value& doc, const std::vector<std::string>& tokens);

}  // namespace adrprobe::oas
