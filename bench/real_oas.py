#!/usr/bin/env python3
"""A wide OpenAPI document shaped like the real ones, for benchmarks.

usage: real_oas.py N_PATHS [SOURCE] > openapi.json

SOURCE (default tests/data/don-api-register/api/openapi.json, DON's API register:
OAS 3.1.0, EUPL-1.2, see tests/data/README.md) is a real government document:
operations with parameters, responses and headers by $ref, problem-details
responses, nested object schemas with examples. Its paths are repeated under new
names (copy k of "/apis/{id}" is "/k<k>/apis/{id}") until there are N_PATHS, each
operation keeping its parameters, $refs, schemas and examples (operationId made
unique). Its components are repeated too, once for every GROUP copies of the paths
(names suffixed "_g<g>", and the copies' $refs point to their group's), so the
document holds as many schemas per path as a large real API rather than one
shared set. Security schemes stay shared (requirements name them).
Written as json.dumps writes (", " and ": ", no indentation): 10,000 paths from
the default source are about 15 MB. `servers` is "/v1", as bench/nginx_wide.sh's
bare document has, so the base URL on the command line is the one probed.
Python's standard library only.
"""
import copy
import json
import os
import sys

GROUP = 5
REPEATED = ("schemas", "parameters", "responses", "headers", "examples", "requestBodies")


def renamed(value, group):
    """value with every local $ref to a repeated component pointing to the group's copy."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                parts = item.split("/")
                if len(parts) == 4 and parts[:2] == ["#", "components"] and parts[2] in REPEATED:
                    item = f"{item}_g{group}"
            out[key] = renamed(item, group)
        return out
    if isinstance(value, list):
        return [renamed(item, group) for item in value]
    return value


def build(n_paths, source):
    with open(source, encoding="utf-8") as f:
        src = json.load(f)
    doc = {key: value for key, value in src.items() if key not in ("paths", "components", "servers")}
    doc["servers"] = [{"url": "/v1"}]
    paths = {}
    components = {kind: {} for kind in src.get("components", {})}
    items = list(src["paths"].items())
    k = 0
    while len(paths) < n_paths:
        group = k // GROUP
        if k % GROUP == 0:
            for kind, entries in src.get("components", {}).items():
                for name, entry in entries.items():
                    if kind in REPEATED:
                        components[kind][f"{name}_g{group}"] = renamed(entry, group)
                    elif group == 0:
                        components[kind][name] = copy.deepcopy(entry)
        for path, item in items:
            if len(paths) == n_paths:
                break
            item = renamed(item, group)
            for operation in item.values():
                if isinstance(operation, dict) and "operationId" in operation:
                    operation["operationId"] = f"{operation['operationId']}K{k}"
            paths[f"/k{k}{path}"] = item
        k += 1
    doc["paths"] = paths
    doc["components"] = components
    return doc


def main():
    if len(sys.argv) not in (2, 3) or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: real_oas.py N_PATHS [SOURCE] > openapi.json")
    here = os.path.dirname(os.path.abspath(__file__))
    source = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", "tests", "data", "don-api-register",
                                                                  "api", "openapi.json")
    sys.stdout.write(json.dumps(build(int(sys.argv[1]), source)))


if __name__ == "__main__":
    main()
