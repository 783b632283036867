"""The federation's pages under /federation/."""

from django.urls import path

from federation import views

app_name = "federation"

urlpatterns = [
    path("", views.national, name="national"),
    path("grass-roots/", views.national_gr, name="national_gr"),
    path("invitations/", views.invitations, name="invitations"),
    path("regions/<int:pk>/", views.region, name="region"),
    path("regions/<int:pk>/grass-roots/", views.region_gr, name="region_gr"),
    path("regions/<int:pk>/clubs/", views.region_clubs, name="region_clubs"),
    path("members/<str:acc_number>/", views.member, name="member"),
    path("review/", views.review_queue, name="queue"),
    path("review/<int:pk>/", views.review, name="review"),
    path("review/<int:pk>/portal/", views.portal, name="portal"),
    path("send/<int:pk>/", views.send, name="send"),
    path("events/<int:pk>/books/", views.books, name="books"),
]
