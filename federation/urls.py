"""The federation's pages under /federation/."""

from django.urls import path

from federation import views

app_name = "federation"

urlpatterns = [
    path("", views.national, name="national"),
    path("regions/<int:pk>/", views.region, name="region"),
    path("members/<str:acc_number>/", views.member, name="member"),
    path("review/", views.review_queue, name="queue"),
    path("review/<int:pk>/", views.review, name="review"),
    path("send/<int:pk>/", views.send, name="send"),
]
