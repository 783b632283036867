"""A player's first visit: the invitation link lets them choose a password (Django's
password-reset view with the invitation's own tokens), and they are signed in. And the way back
in for a player locked out at a shared address: a one-time sign-in link by email."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.lockout import client_ip
from league.services.people import invitation_tokens
from league.services.signin_links import (
    SignInLinkError,
    signin_link_accept,
    signin_link_user,
)
from league.services.signin_links import signin_link_request as signin_link_request_service
from league.services.tokens import sign_out_everywhere as sign_out_everywhere_service


class Welcome(auth_views.PasswordResetConfirmView):
    """Choose a password from the invitation: the player is then signed in, on the home page
    (the link proved who they are, and they just chose the password: asking for it again
    proves nothing more). The link works once: after the password is set (or when it is too
    old) the page says so and points to the log-in page."""

    template_name = "organiser/welcome.html"
    token_generator = invitation_tokens
    reset_url_token = "choose-password"
    post_reset_login = True
    # Django's own backend: the brute-force guard's backend answers only a password check.
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"

    def get_success_url(self) -> str:
        return str(settings.LOGIN_REDIRECT_URL)

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(
            self.request,
            _(
                "Your password is saved and you are signed in. Next time, your user name is "
                "%(username)s."
            )
            % {"username": form.user.get_username()},
        )
        return response


welcome = Welcome.as_view()


@require_http_methods(["GET", "POST"])
def signin_link_request(request: HttpRequest) -> HttpResponse:
    """The locked log-in page's "email me a sign-in link": the same answer whether or not an
    account matches, so the page tells nobody which names or emails have accounts."""
    if request.method == "POST":
        signin_link_request_service(
            identifier=str(request.POST.get("identifier", "")),
            address=client_ip(request),
            link_base=request.build_absolute_uri(reverse("league:signin_link", args=["x"]))[:-2],
        )
        return render(
            request,
            "registration/signin_link_sent.html",
            {"minutes": settings.PEGBOARD_SIGNIN_LINK_MINUTES},
        )
    return render(request, "registration/signin_link_request.html")


@require_http_methods(["GET", "POST"])
def signin_link(request: HttpRequest, token: str) -> HttpResponse:
    """Opening the link shows one button; pressing it signs in. A GET never signs in, so a mail
    scanner that fetches every link in a message cannot use the link up first."""
    if request.method == "POST":
        try:
            user = signin_link_accept(token=token)
        except SignInLinkError as exc:
            return render(
                request, "registration/signin_link.html", {"error": exc.message}, status=400
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("You are signed in. Your password works on this phone now."))
        return redirect(settings.LOGIN_REDIRECT_URL)
    try:
        user = signin_link_user(token)
    except SignInLinkError as exc:
        return render(request, "registration/signin_link.html", {"error": exc.message}, status=400)
    return render(request, "registration/signin_link.html", {"username": user.get_username()})


@require_http_methods(["GET", "POST"])
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    """ "Sign out everywhere": for a lost phone. Every session, app token and device cookie of
    the account ends; this browser lands on the log-in page."""
    if not request.user.is_authenticated:
        return redirect(settings.LOGIN_URL)
    if request.method == "POST":
        sign_out_everywhere_service(user=request.user)  # type: ignore[arg-type]
        logout(request)
        messages.success(request, _("You are signed out on every phone and computer."))
        return redirect(settings.LOGIN_URL)
    return render(request, "registration/sign_out_everywhere.html")
