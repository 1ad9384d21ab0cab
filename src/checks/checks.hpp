// Every check function, by rule family. A check reads the Context and returns
// one result; the registry maps check ids (probes.md) to these functions.
#pragma once
#include <string>
#include <vector>

#include "checks/context.hpp"

namespace adrprobe::checks {

using report::CheckResult;
using CheckFn = CheckResult (*)(const Context&, const catalogue::CheckRef&);

// Registry: nullptr for an id this version does not implement.
CheckFn find_check(const std::string& id);
// Hint producers for functional rules ("naming", "language", ...).
std::vector<std::string> hints_for(const std::string& producer, const Context& ctx);

// publish_openapi.cpp
CheckResult po1_public_json(const Context&, const catalogue::CheckRef&);
CheckResult po2_cors(const Context&, const catalogue::CheckRef&);
CheckResult po3_yaml(const Context&, const catalogue::CheckRef&);
// doc_openapi.cpp
CheckResult do1_openapi_version(const Context&, const catalogue::CheckRef&);
CheckResult do2_refs(const Context&, const catalogue::CheckRef&);
CheckResult do3_paths(const Context&, const catalogue::CheckRef&);
// versioning.cpp
CheckResult sv1_semver(const Context&, const catalogue::CheckRef&);
CheckResult uv1_base_major(const Context&, const catalogue::CheckRef&);
CheckResult uv2_servers(const Context&, const catalogue::CheckRef&);
CheckResult uv3_major_matches(const Context&, const catalogue::CheckRef&);
// version_header.cpp
CheckResult vh1_header_present(const Context&, const catalogue::CheckRef&);
CheckResult vh2_header_semver(const Context&, const catalogue::CheckRef&);
CheckResult vh3_header_matches(const Context&, const catalogue::CheckRef&);
CheckResult vh4_every_response(const Context&, const catalogue::CheckRef&);
// trailing_slash.cpp
CheckResult nt1_static(const Context&, const catalogue::CheckRef&);
CheckResult nt2_live(const Context&, const catalogue::CheckRef&);
// http_methods.cpp
CheckResult hm0_static(const Context&, const catalogue::CheckRef&);
CheckResult hm1_get_head(const Context&, const catalogue::CheckRef&);
CheckResult hm2_supported(const Context&, const catalogue::CheckRef&);
CheckResult hm3_unsupported(const Context&, const catalogue::CheckRef&);
// transport.cpp
CheckResult ts1_tls(const Context&, const catalogue::CheckRef&);
CheckResult ts2_protocols(const Context&, const catalogue::CheckRef&);
CheckResult ts3_cipher(const Context&, const catalogue::CheckRef&);
CheckResult ts4_certificate(const Context&, const catalogue::CheckRef&);
CheckResult ts5_hsts(const Context&, const catalogue::CheckRef&);
CheckResult ts6_security_headers(const Context&, const catalogue::CheckRef&);
CheckResult ts7_cors(const Context&, const catalogue::CheckRef&);
// doc_openapi.cpp (edition 2.1.0)
CheckResult ct1_contact(const Context&, const catalogue::CheckRef&);

}  // namespace adrprobe::checks
