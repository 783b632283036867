"""A player's first visit: the invitation link lets them choose a password (Django's
password-reset view with the invitation's own tokens), then they log in."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from league.services.people import invitation_tokens


class Welcome(auth_views.PasswordResetConfirmView):
    """Choose a password from the invitation. The link works once: after the password is set
    (or when it is too old) the page says so and points to the log-in page."""

    template_name = "organiser/welcome.html"
    token_generator = invitation_tokens
    reset_url_token = "choose-password"

    def get_success_url(self) -> str:
        return reverse("login")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(
            self.request,
            _("Your password is saved. Log in with your user name, %(username)s.")
            % {"username": form.user.get_username()},
        )
        return response


welcome = Welcome.as_view()
