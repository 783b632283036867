"""Talking to the live server the end-to-end tests run against (``PEGBOARD_E2E_URL``, set by
.ci/run): a JSON call as a phone makes it, and an API token for a seeded account."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

BASE = os.environ.get("PEGBOARD_E2E_URL", "")


def call(method: str, path: str, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def token_for(username: str, password: str = "cribbage") -> str:
    status, body = call("POST", "/api/auth/token/", {"username": username, "password": password})
    assert status == 200, body
    return body["token"]
