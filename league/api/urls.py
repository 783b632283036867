"""API routes."""

from django.urls import path

urlpatterns: list = []
