"""The JSON door of blocks: whom a player blocks, blocking and unblocking (quadrille/challenges/blocks.py).
Authenticated as the rest of the players' door (a session cookie with its CSRF token, or an API token)."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from .http_api import json_body
from .sessions import current_account

bp = Blueprint("blocks_api", __name__, url_prefix="/api/account/blocks")


def challenges():
    return current_app.extensions["quadrille.challenges"]


@bp.get("")
def list_blocks():
    """{"blocks": [{"name", "since"}]}: the players this account blocks, the latest first."""
    return jsonify({"blocks": challenges().blocks.listing(current_account())})


@bp.post("")
def block():
    """{"name"}: block that player (their challenges are refused, those waiting are declined)."""
    body = json_body()
    return jsonify({"blocks": challenges().block(current_account(), body.get("name"))})


@bp.post("/remove")
def unblock():
    """{"name"}: unblock that player."""
    body, account, blocks = json_body(), current_account(), challenges().blocks
    blocks.unblock(account, body.get("name"))  # nothing waits on an unblock: no challenge to answer
    return jsonify({"blocks": blocks.listing(account)})
