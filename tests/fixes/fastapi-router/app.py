# A FastAPI API on an APIRouter(prefix="/v1") that the app includes, as the
# tutorial's "Bigger Applications" writes one. Its generated document is at
# FastAPI's /openapi.json, its paths with their /v1 (the test's base URL is
# the server's root, where the document is). The document gives every
# operation with parameters FastAPI's automatic 422 HTTPValidationError (EH-1
# fails) and no contact (CT-1 fails); Starlette redirects /v1/items/ to
# /v1/items (NT-2 fails); a GET route answers HEAD with 405 (HM-1 fails);
# /openapi.json has no CORS header (PO-2 fails); no response carries API-Version
# (VH-4 warns). tests/integration/test_fixes.py replaces each line
# marked "fix:<check>" with probes/fixes/fastapi.yaml's text for that check,
# the change it offers for this shape where it offers one per shape
# (stack.json).
import sys

import uvicorn
from fastapi import APIRouter, FastAPI

app = FastAPI(title="Items", version="1.0.0")  # fix:EH-1 fix:EI-1 fix:CT-1
# fix:PO-2
# fix:NT-2
router = APIRouter(prefix="/v1")


@router.get("/items")  # fix:HM-1
def items(limit: int = 10):
    return [{"id": i} for i in range(min(limit, 3))]


app.include_router(router)
# fix:EH-2
# fix:VH-4

if __name__ == "__main__":
    host, port = "127.0.0.1", int(sys.argv[1])
    uvicorn.run(app, host=host, port=port, log_level="warning")  # fix:TS-1
