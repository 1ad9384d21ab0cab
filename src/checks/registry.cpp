#include <map>

#include "checks/checks.hpp"

namespace adrprobe::checks {

CheckFn find_check(const std::string& id) {
  static const std::map<std::string, CheckFn> registry{
      {"PO-1", po1_public_json}, {"PO-2", po2_cors},           {"PO-3", po3_yaml},
      {"DO-1", do1_openapi_version}, {"DO-2", do2_refs},       {"DO-3", do3_paths},
      {"SV-1", sv1_semver},      {"UV-1", uv1_base_major},     {"UV-2", uv2_servers},
      {"UV-3", uv3_major_matches},
      {"VH-1", vh1_header_present}, {"VH-2", vh2_header_semver}, {"VH-3", vh3_header_matches},
      {"VH-4", vh4_every_response},
      {"NT-1", nt1_static},      {"NT-2", nt2_live},
      {"HM-0", hm0_static},      {"HM-1", hm1_get_head},       {"HM-2", hm2_supported},
      {"HM-3", hm3_unsupported},
      {"TS-1", ts1_tls},         {"TS-2", ts2_protocols},      {"TS-3", ts3_cipher},
      {"TS-4", ts4_certificate}, {"TS-5", ts5_hsts},           {"TS-6", ts6_security_headers},
      {"TS-7", ts7_cors},
      {"CT-1", ct1_contact},
  };
  auto it = registry.find(id);
  return it == registry.end() ? nullptr : it->second;
}

}  // namespace adrprobe::checks
