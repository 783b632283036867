"""``{% results_up night %}``: where a closed event's results stand above the club, and the
director's button to send them up. A template tag, so the director's workspace shows it
without the tournaments importing the federation (layers)."""

from __future__ import annotations

from typing import Any

from django import template

from federation import roles, selectors
from federation.models import SubmissionStatus

register = template.Library()


@register.inclusion_tag("federation/_results_up.html", takes_context=True)
def results_up(context: dict[str, Any], night: Any) -> dict[str, Any]:
    user = context["request"].user
    submission = selectors.submission_of(night) if night.stage == "finished" else None
    may_send = (
        night.stage == "finished"
        and roles.may_send_up(user, night)
        and (submission is None or submission.status == SubmissionStatus.RETURNED)
    )
    may_keep_books = night.kind in ("main", "consolation") and roles.may_send_up(user, night)
    return {
        "night": night,
        "submission": submission,
        "may_send": may_send,
        "may_keep_books": may_keep_books,
    }
