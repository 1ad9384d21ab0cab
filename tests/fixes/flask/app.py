# A Flask API under /v1 as a blueprint; its index route is '/', so GET /v1
# redirects to /v1/ (VH-1 fails) and /v1/ is served (NT-2 fails in 2.1.0,
# which does not exempt the root resource); jsonify writes a datetime as an RFC 822 date
# ("Fri, 27 Nov 2026 12:00:00 GMT", DT-5 fails); Flask-CORS with
# supports_credentials echoes any Origin with credentials (TS-7 fails).
# tests/integration/test_fixes.py replaces each
# line marked "fix:<check>" with probes/fixes/flask.yaml's text for that check.
import json
import os
import sys
from datetime import datetime, timezone

from flask import Blueprint, Flask, jsonify
from flask_cors import CORS

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = json.load(open(os.path.join(HERE, "openapi.json")))

app = Flask(__name__)
# fix:DT-5
CORS(app, supports_credentials=True)  # fix:TS-7
bp = Blueprint("v1", __name__, url_prefix="/v1")


@bp.get("/")  # fix:VH-1 fix:NT-2
def index():
    return jsonify({"items": "/v1/items"})


@bp.get("/items")
def items():
    return jsonify([{"id": 1, "created": datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)}])


@bp.get("/openapi.json")
def openapi():
    response = jsonify(DOC)
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@app.after_request
def version_header(response):
    response.headers["API-Version"] = DOC["info"]["version"]
    return response


# fix:EH-2

app.register_blueprint(bp)

if __name__ == "__main__":
    host, port = "127.0.0.1", int(sys.argv[1])
    app.run(host=host, port=port)  # fix:TS-1
