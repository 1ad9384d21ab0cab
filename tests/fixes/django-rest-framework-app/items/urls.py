# The app's router, as DRF's tutorial makes it (part 6: the router in the
# app's urls.py), without trailing slashes: /v1/items/ is 404, and a method
# /v1/items lacks gets DRF's own 405 {"detail": ...}.
from django.urls import include, path
from rest_framework import routers

from items import views

router = routers.DefaultRouter(trailing_slash=False)
router.register("items", views.ItemViewSet, basename="item")

urlpatterns = [
    path("", include(router.urls)),
]
