from rest_framework import viewsets
from rest_framework.response import Response


class ItemViewSet(viewsets.ViewSet):
    def list(self, request):
        return Response([{"id": 1}])
