"""Addresses given out to people (invite links, the embed snippet): built from the configured public URL,
never from the request's Host header, which any client may set to anything."""
from __future__ import annotations

from flask import current_app, url_for


def public_url(endpoint: str, **values) -> str:
    return current_app.config["PUBLIC_URL"].rstrip("/") + url_for(endpoint, **values)
