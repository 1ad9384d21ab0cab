# A Django REST framework API under /v1 in startproject's layout, with an app
# "items" whose urls.py has the router (DRF's tutorial, part 6). Its root is
# /v1/, to which Django's APPEND_SLASH redirects GET /v1 (VH-1 fails); a URL
# no pattern matches gets Django's HTML 404, and a method /v1/items lacks
# DRF's {"detail": ...} (EH-2 fails: handler404 alone does not fix it).
# tests/integration/test_fixes.py replaces each line marked "fix:<check>"
# (settings.py's first) with probes/fixes/django-rest-framework.yaml's text,
# the change it offers for a router in an app's urls.py (stack.json).
import json

from django.conf import settings
from django.http import JsonResponse
from django.urls import include, path

DOC = json.loads((settings.BASE_DIR / "openapi.json").read_text())


def openapi(request):
    response = JsonResponse(DOC)
    response["Access-Control-Allow-Origin"] = "*"
    return response


urlpatterns = [
    path("v1/openapi.json", openapi),
    path("v1/", include("items.urls")),
]
# fix:VH-1

# fix:EH-2
