import json

from django.conf import settings

VERSION = json.loads((settings.BASE_DIR / "openapi.json").read_text())["info"]["version"]


def api_version(get_response):
    def middleware(request):
        response = get_response(request)
        response["API-Version"] = VERSION
        return response
    return middleware
