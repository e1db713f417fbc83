"""The moderators' page (/moderation) and the players' report form (/report), server-rendered forms.

/moderation is for accounts marked as moderators (`python -m quadrille admin moderator NAME`); anyone else gets
404, as for a page that is not there. Each of its forms posts to /moderation/<action> with the session's CSRF
token (sessions.py checks it for this blueprint), does what the command line's command of the same name does
(quadrille/moderation/service.py), and comes back to the page with what happened, or why nothing did.

/report?account=NAME or ?match=ID: a logged-in player's report, with a reason from a short list and optional
words; the profile and match pages link to it ("Report").
"""
from __future__ import annotations

import time

from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from flask_babel import gettext

from ..i18n import translated
from ..i18n.words import N_
from ..errors import ServiceError
from ..moderation import REASONS
from ..moderation.decisions import MAX_NOTE, MAX_TEXT
from .moderation_api import moderation, moderator
from .player_pages import game_titles
from .sessions import current_account

bp = Blueprint("moderation_pages", __name__)

# each form's action: the service's method and the form fields it takes, in order
ACTIONS = {
    "close": ("close", ("match", "note")),
    "delete": ("delete", ("match", "note")),
    "ban": ("ban", ("name", "note")),
    "unban": ("unban", ("name", "note")),
    "mute": ("mute", ("name", "note")),
    "unmute": ("unmute", ("name", "note")),
    "free-name": ("free_name", ("match_name",)),
    "reset-rating": ("reset_rating", ("name", "game")),
    "dismiss-report": ("dismiss", ("report",)),
}
DONE = {"close": N_("Closed match %(match)s."), "delete": N_("Deleted match %(match)s."),
        "ban": N_("Banned %(name)s."), "unban": N_("Unbanned %(name)s."), "mute": N_("Muted %(name)s."),
        "unmute": N_("Unmuted %(name)s."), "free-name": N_("Freed the match name '%(match_name)s'."),
        "reset-rating": N_("Reset %(name)s's %(game)s rating."), "dismiss-report": N_("Dismissed report #%(report)s.")}


@bp.app_template_filter("moderation_time")
def moderation_time(at: float) -> str:
    """A time in the moderators' lists: UTC, to the minute."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


@bp.get("/moderation")
def moderation_page():
    me = moderator()
    g.carries_token = True  # the page carries the session's CSRF token: never cached
    service = moderation()
    return render_template("moderation.html", me=me, matches=service.under_way(), players=service.reported_players(),
                           reports=service.open_reports(), accounts=service.sanctioned(), journal=service.journal(50),
                           games=game_titles(), with_csrf=True,
                           max_note=MAX_NOTE, reasons=REASONS)


@bp.post("/moderation/<action>")
def moderation_action(action):
    me = moderator()
    if action not in ACTIONS:
        flash(gettext("There is no such action."), "error")
        return redirect(url_for(".moderation_page"))
    method, fields = ACTIONS[action]
    values = {field: request.form.get(field, "").strip() or None for field in fields}
    if "report" in values:
        values["report"] = int(values["report"]) if (values["report"] or "").isdigit() else -1
    try:
        getattr(moderation(), method)(me.name, *values.values())
    except ServiceError as exc:
        flash(gettext("Nothing was changed: %(why)s", why=translated(exc.reason)), "error")
    else:
        flash(gettext(DONE[action], **values), "good")
    return redirect(url_for(".moderation_page") + "#" + ("matches" if "match" in values else "accounts"))


@bp.route("/report", methods=["GET", "POST"])
def report_page():
    g.carries_token = True
    me = current_account(required=False)
    account, match = request.values.get("account") or None, request.values.get("match") or None
    sent, error = None, None
    if request.method == "POST" and me is not None:
        try:
            sent = moderation().report(me, account, match, request.form.get("reason"), request.form.get("text"))
        except ServiceError as exc:
            error = exc.reason
    return render_template("report.html", me=me, account=account, match=match, reasons=REASONS, sent=sent,
                           error=error, max_text=MAX_TEXT, chosen=request.form.get("reason"),
                           text=request.form.get("text", ""), with_csrf=True), (400 if error else 200)

