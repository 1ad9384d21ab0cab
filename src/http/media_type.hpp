// Media types of a Content-Type value or a content key.
#pragma once
#include <string>
#include <string_view>

namespace adrprobe::http {

// type/subtype, parameters dropped, trimmed, as written
// ("application/problem+json; charset=utf-8" -> "application/problem+json").
std::string media_type(std::string_view value);
// application/json or application/*+json, case-insensitively.
bool is_json_media_type(std::string_view value);

}  // namespace adrprobe::http
