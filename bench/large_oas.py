#!/usr/bin/python3
"""Writes a realistic, ADR-conformant OpenAPI 3.0.3 document with many paths (JSON).

usage: large_oas.py [N_PATHS] > openapi.json        (default 1000; an even number)

Half the paths are collections (`/bouwwerken/gebouwen`: GET with query
parameters `pagina`, `paginaGrootte`, `zoekterm`, `gewijzigdSinds`; POST with a
request body), half are their items (`/bouwwerken/gebouwen/{gebouwId}`: GET,
PUT, DELETE, the path parameter with an `example`). Every resource has its own
schemas in components/schemas (with a shared Adres, Links and Paginering);
success responses carry the API-Version header (components/headers) and errors
are application/problem+json via components/responses (400, 404, 500). info has
a contact and the server URL ends in /v1. Deterministic: the same N gives the
same bytes. Stdlib only.
"""

import json
import sys

DOMAINS = ["bouwwerken", "percelen", "personen", "voertuigen", "vergunningen", "subsidies", "belastingen",
           "onderwijs", "zorgaanbieders", "waterschappen", "wegen", "natuurgebieden", "energie", "afval",
           "monumenten", "evenementen", "bedrijven", "verkiezingen", "rechtspraak", "archieven",
           "openbare-ruimte", "dienstverlening", "meldingen", "sport", "cultuur"]
RESOURCES = ["gebouwen", "adressen", "eigenaren", "inspecties", "aanvragen", "besluiten", "documenten",
             "contactpersonen", "locaties", "metingen", "rapporten", "afspraken", "betalingen", "bezwaren",
             "notities", "statussen", "kenmerken", "categorieen", "gebieden", "registraties"]


def singular(word):
    for suffix, repl in (("ieen", "ie"), ("ssen", "s"), ("ngen", "ng"), ("en", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + repl
    return word


def camel(*words):
    parts = "-".join(words).split("-")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(*words):
    c = camel(*words)
    return c[:1].upper() + c[1:]


def ref(kind, name):
    return {"$ref": "#/components/%s/%s" % (kind, name)}


def ok(schema_name, description="OK"):
    return {"description": description,
            "headers": {"API-Version": ref("headers", "API-Version")},
            "content": {"application/json": {"schema": ref("schemas", schema_name)}}}


def document(n_paths):
    pairs = [(d, r) for d in DOMAINS for r in RESOURCES]
    count = n_paths // 2
    if count > len(pairs):
        raise SystemExit("at most %d paths" % (2 * len(pairs)))
    paths, schemas = {}, {}
    errors = {"400": ref("responses", "BadRequest"), "500": ref("responses", "ServerError")}
    for i, (domain, resource) in enumerate(pairs[:count]):
        item = singular(resource)
        name = pascal(domain, item)
        id_name = camel(item, "id")
        tag = domain
        schemas[name] = {
            "type": "object",
            "description": "Een %s in het domein %s." % (item, domain),
            "required": ["identificatie", "naam"],
            "properties": {
                "identificatie": {"type": "string", "example": "%04d%08d" % (i, 12345678)},
                "naam": {"type": "string", "maxLength": 200, "example": "%s %d" % (item.capitalize(), i)},
                "omschrijving": {"type": "string", "nullable": True},
                "status": {"type": "string", "enum": ["concept", "actief", "beeindigd"], "example": "actief"},
                "aantal": {"type": "integer", "format": "int32", "minimum": 0, "example": 3},
                "bedrag": {"type": "number", "format": "double", "example": 125.5},
                "ingangsdatum": {"type": "string", "format": "date", "example": "2024-01-01"},
                "tijdstipRegistratie": {"type": "string", "format": "date-time",
                                        "example": "2024-01-01T09:30:00Z"},
                "adres": ref("schemas", "Adres"),
                "_links": ref("schemas", "Links"),
            },
        }
        schemas[name + "Invoer"] = {
            "type": "object",
            "required": ["naam"],
            "properties": {k: schemas[name]["properties"][k] for k in ("naam", "omschrijving", "status", "aantal",
                                                                       "ingangsdatum", "adres")},
        }
        schemas[name + "Lijst"] = {
            "type": "object",
            "properties": {
                "_embedded": {"type": "object", "properties": {
                    camel(resource): {"type": "array", "items": ref("schemas", name)}}},
                "_links": ref("schemas", "Links"),
                "paginering": ref("schemas", "Paginering"),
            },
        }
        collection = "/%s/%s" % (domain, resource)
        paths[collection] = {
            "get": {
                "tags": [tag], "operationId": camel("zoek", domain, resource),
                "summary": "Zoek %s" % resource,
                "parameters": [ref("parameters", "pagina"), ref("parameters", "paginaGrootte"),
                               {"name": "zoekterm", "in": "query", "schema": {"type": "string", "maxLength": 100},
                                "example": "centrum"},
                               {"name": "gewijzigdSinds", "in": "query",
                                "schema": {"type": "string", "format": "date"}, "example": "2024-01-01"}],
                "responses": dict({"200": ok(name + "Lijst")}, **errors),
            },
            "post": {
                "tags": [tag], "operationId": camel("registreer", domain, item),
                "summary": "Registreer een %s" % item,
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": ref("schemas", name + "Invoer")}}},
                "responses": dict({"201": ok(name, "Aangemaakt")}, **errors),
            },
        }
        id_param = {"name": id_name, "in": "path", "required": True,
                    "schema": {"type": "string", "pattern": "^[0-9]{12}$"}, "example": "%04d%08d" % (i, 12345678)}
        paths[collection + "/{%s}" % id_name] = {
            "parameters": [id_param],
            "get": {
                "tags": [tag], "operationId": camel("raadpleeg", domain, item),
                "summary": "Raadpleeg een %s" % item,
                "responses": {"200": ok(name), "404": ref("responses", "NotFound"),
                              "500": ref("responses", "ServerError")},
            },
            "put": {
                "tags": [tag], "operationId": camel("vervang", domain, item),
                "summary": "Vervang een %s" % item,
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": ref("schemas", name + "Invoer")}}},
                "responses": dict({"200": ok(name), "404": ref("responses", "NotFound")}, **errors),
            },
            "delete": {
                "tags": [tag], "operationId": camel("verwijder", domain, item),
                "summary": "Verwijder een %s" % item,
                "responses": {"204": {"description": "Verwijderd",
                                      "headers": {"API-Version": ref("headers", "API-Version")}},
                              "404": ref("responses", "NotFound"), "500": ref("responses", "ServerError")},
            },
        }

    def problem(description):
        return {"description": description,
                "headers": {"API-Version": ref("headers", "API-Version")},
                "content": {"application/problem+json": {"schema": ref("schemas", "Problem")}}}

    schemas.update({
        "Problem": {"type": "object", "required": ["status", "title"], "properties": {
            "type": {"type": "string", "format": "uri", "example": "about:blank"},
            "title": {"type": "string", "example": "Niet gevonden"},
            "status": {"type": "integer", "format": "int32", "example": 404},
            "detail": {"type": "string", "example": "Er is geen resource met deze identificatie."},
            "instance": {"type": "string", "format": "uri"}}},
        "Adres": {"type": "object", "properties": {
            "straatnaam": {"type": "string", "example": "Lange Voorhout"},
            "huisnummer": {"type": "integer", "example": 9},
            "postcode": {"type": "string", "pattern": "^[1-9][0-9]{3}[A-Z]{2}$", "example": "2514EA"},
            "woonplaats": {"type": "string", "example": "Den Haag"}}},
        "Link": {"type": "object", "required": ["href"], "properties": {
            "href": {"type": "string", "format": "uri"}, "title": {"type": "string"}}},
        "Links": {"type": "object", "properties": {
            "self": ref("schemas", "Link"), "next": ref("schemas", "Link"), "prev": ref("schemas", "Link")}},
        "Paginering": {"type": "object", "properties": {
            "pagina": {"type": "integer", "minimum": 1}, "paginaGrootte": {"type": "integer", "minimum": 1},
            "totaal": {"type": "integer", "minimum": 0}}},
    })
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Registers API",
            "description": "Gegenereerd voorbeelddocument voor de benchmark van adrprobe lint.",
            "version": "1.4.0",
            "contact": {"name": "Team Registers", "url": "https://example.org/registers",
                        "email": "registers@example.org"},
        },
        "servers": [{"url": "https://api.example.org/registers/v1", "description": "Productie"}],
        "tags": [{"name": d} for d in DOMAINS],
        "paths": paths,
        "components": {
            "headers": {"API-Version": {"description": "Het volledige versienummer van de API",
                                        "schema": {"type": "string", "example": "1.4.0"}}},
            "parameters": {
                "pagina": {"name": "pagina", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                                        "default": 1}},
                "paginaGrootte": {"name": "paginaGrootte", "in": "query",
                                  "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
            },
            "responses": {
                "BadRequest": problem("Ongeldige invoer"),
                "NotFound": problem("Niet gevonden"),
                "ServerError": problem("Interne fout"),
            },
            "schemas": schemas,
        },
    }


def main(argv):
    n = int(argv[0]) if argv else 1000
    if n < 2 or n % 2:
        raise SystemExit("usage: large_oas.py [N_PATHS]  (an even number >= 2)")
    json.dump(document(n), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
