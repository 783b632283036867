"""The API docs page works under the production Content-Security-Policy: no inline script or
style for the CSP to block (it did, and the page was blank), every script from our own site."""

from __future__ import annotations

import re

import pytest
from django.test import Client

PRODUCTION_CSP = {
    "default-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "style-src": ["'self'"],
    "script-src": ["'self'"],
    "frame-ancestors": ["'none'"],
}


@pytest.fixture
def with_csp(settings):
    settings.CSP = PRODUCTION_CSP
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "config.csp.ContentSecurityPolicyMiddleware"]


@pytest.mark.django_db
def test_the_api_docs_page_has_nothing_inline_for_the_csp_to_block(with_csp):
    page = Client().get("/api/docs/")
    assert page.status_code == 200
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    html = page.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts, "Swagger UI's scripts are missing"
    for attributes, body in scripts:
        assert body.strip() == "", "an inline script, which the CSP blocks"
        source = re.search(r'src="([^"]+)"', attributes).group(1)
        assert source.startswith("/"), source  # our own site, allowed by 'self'
    assert "<style" not in html and " style=" not in html


@pytest.mark.django_db
def test_the_api_docs_scripts_are_served_by_the_site(with_csp):
    html = Client().get("/api/docs/").content.decode()
    for source in re.findall(r'<script src="([^"]+)"', html):
        answer = Client().get(source)
        assert answer.status_code == 200, source
        assert "javascript" in answer["Content-Type"], source
    start = Client().get("/api/docs/?script=").content.decode()
    assert "/api/schema/" in start  # Swagger UI is told where the schema is
