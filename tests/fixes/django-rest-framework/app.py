# A Django REST framework API under /v1 in one file. DRF's DefaultRouter
# registers "items/" with a trailing slash, so GET /v1/items/ is served (NT-2
# fails); its root is /v1/, to which Django's APPEND_SLASH redirects GET /v1
# (VH-1 fails), and every method on /v1/items to /v1/items/, TRACE included
# (HM-3 fails); a URL no pattern matches gets Django's HTML 404 (EH-2 fails).
# tests/integration/test_fixes.py replaces each line marked
# "fix:<check>" with probes/fixes/django-rest-framework.yaml's text for that check.
import json
import os
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIServer, make_server

from django.conf import settings

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = json.load(open(os.path.join(HERE, "openapi.json")))

settings.configure(
    DEBUG=os.environ.get("DJANGO_DEBUG") == "1",  # startproject's DEBUG = True; handler404 is called only without it
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    SECRET_KEY="a key for this test app only",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    MIDDLEWARE=["__main__.api_version", "django.middleware.common.CommonMiddleware"],
    REST_FRAMEWORK={"UNAUTHENTICATED_USER": None, "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]},
)

import django  # noqa: E402

django.setup()

from django.http import JsonResponse  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import routers, viewsets  # noqa: E402
from rest_framework.response import Response  # noqa: E402


def api_version(get_response):
    def middleware(request):
        response = get_response(request)
        response["API-Version"] = DOC["info"]["version"]
        return response
    return middleware


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


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


if __name__ == "__main__":
    make_server("127.0.0.1", int(sys.argv[1]), get_wsgi_application(), server_class=ThreadingWSGIServer).serve_forever()
