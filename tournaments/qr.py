"""An event page's address as a QR code (segno: pure Python, nothing fetched): a file to
download (SVG, sharp at any size; PNG) and the SVG to put inside the printable flyer."""

from __future__ import annotations

import io

import segno

KINDS = {"svg": "image/svg+xml", "png": "image/png"}


def qr_file(url: str, kind: str, *, title: str) -> bytes:
    """``url`` as a QR code file of ``kind`` (one of ``KINDS``), with a quiet zone of 4."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    if kind == "svg":
        code.save(out, kind="svg", scale=8, border=4, title=title)
    else:
        code.save(out, kind="png", scale=10, border=4)
    return out.getvalue()


def qr_inline(url: str, *, title: str) -> str:
    """``url`` as SVG markup for a page (segno escapes the title; the rest is its own)."""
    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=8, border=2, title=title, omitsize=True)
