"""Registration's addresses: the public event page, its QR code and flyer, the player's own
page (by the secret in their confirmation) and the director's list in the workspace."""

from django.urls import path

from tournaments.views import registration as views

app_name = "registration"

urlpatterns = [
    path("tournaments/<int:pk>/event/", views.event_page, name="event"),
    path("tournaments/<int:pk>/event/qr.<str:kind>", views.event_qr, name="qr"),
    path("tournaments/<int:pk>/event/flyer/", views.flyer, name="flyer"),
    path("tournaments/registration/<str:token>/", views.registration_page, name="page"),
    path("direct/events/<int:pk>/registration/", views.director_page, name="direct"),
]
