# A Django REST framework API under /v1 in startproject's layout, its router
# in the project's urls.py as DRF's quickstart makes it. DRF's DefaultRouter
# registers "items/" with a trailing slash, so GET /v1/items/ is served (NT-2
# fails); its root is /v1/, to which Django's APPEND_SLASH redirects GET /v1
# (VH-1 fails), and every method on /v1/items to /v1/items/, TRACE included
# (HM-3 fails); a URL no pattern matches gets Django's HTML 404 (EH-2 fails).
# tests/integration/test_fixes.py replaces each line marked "fix:<check>"
# (settings.py's first) with probes/fixes/django-rest-framework.yaml's text.
import json

from django.conf import settings
from django.http import JsonResponse
from django.urls import include, path
from rest_framework import routers, viewsets
from rest_framework.response import Response

DOC = json.loads((settings.BASE_DIR / "openapi.json").read_text())


class ItemViewSet(viewsets.ViewSet):
    def list(self, request):
        return Response([{"id": 1}])


def openapi(request):
    response = JsonResponse(DOC)
    response["Access-Control-Allow-Origin"] = "*"
    return response


router = routers.DefaultRouter()  # fix:NT-2 fix:HM-3
router.register("items", ItemViewSet, basename="item")

urlpatterns = [
    path("v1/openapi.json", openapi),
    path("v1/", include(router.urls)),
]
# fix:VH-1

# fix:EH-2
