# A FastAPI API mounted at /v1. Its generated document gives every operation
# with parameters FastAPI's automatic 422 HTTPValidationError as
# application/json (EH-1 fails) and no contact (CT-1 fails); Starlette
# redirects /v1/items/ to /v1/items (NT-2 fails); an @app.get route answers HEAD with 405
# (HM-1 fails); the generated /v1/openapi.json has no CORS header (PO-2 fails);
# no response carries API-Version (VH-4 warns).
# tests/integration/test_fixes.py replaces each line marked "fix:<check>" with
# probes/fixes/fastapi.yaml's text for that check.
import sys

import uvicorn
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

app = FastAPI(title="Items", version="1.0.0")  # fix:EH-1 fix:EI-1 fix:CT-1
# fix:PO-2
# fix:NT-2


@app.get("/items")  # fix:HM-1
def items(limit: int = 10):
    return [{"id": i} for i in range(min(limit, 3))]


# fix:EH-2


root = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
root.mount("/v1", app)
# fix:VH-4

if __name__ == "__main__":
    host, port = "127.0.0.1", int(sys.argv[1])
    uvicorn.run(root, host=host, port=port, log_level="warning")  # fix:TS-1
