"""The players' pages: the account page (sign up, log in, password, API tokens, delete), "my games" (with
the challenges inbox and the challenge form), a player's profile (ratings drawn as an SVG chart, recent
games) and the leaderboards. Server-rendered; their scripts call players_api with the session's CSRF token."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, g, render_template

from ..catalog import installed_games
from .pages import dialog_data, lobby_games
from .players_api import profile_of
from .rating_chart import rating_chart
from .sessions import current_account

bp = Blueprint("player_pages", __name__)


def game_titles() -> dict[str, str]:
    return {game.name: game.title for game in installed_games()}


@bp.get("/account")
def account_page():
    g.carries_token = True  # the page carries the session's CSRF token: never cached
    return render_template("account.html", account=current_account(required=False), with_csrf=True)


@bp.get("/me")
def my_games_page():
    g.carries_token = True
    account = current_account(required=False)
    entries = lobby_games() if account else []  # the challenge's dialog is the lobby's new-game dialog
    return render_template("my_games.html", account=account, games=[g for g in entries if g["playable"]],
                           games_data=dialog_data(entries), with_csrf=True)


@bp.get("/players/<name>")
def profile_page(name):
    accounts = current_app.extensions["quadrille.accounts"]
    account = accounts.by_name(name)
    if account is None:
        abort(404)
    profile = profile_of(account)
    titles = game_titles()
    charts = {game: rating_chart(points, titles.get(game, game)) for game, points in profile["history"].items()}
    return render_template("player.html", profile=profile, charts=charts, titles=titles,
                           rule=current_app.extensions["quadrille.ratings"].rule, me=current_account(required=False))


@bp.get("/players")
def leaderboards_page():
    ratings = current_app.extensions["quadrille.ratings"]
    boards = [{"game": name, "title": title, "players": ratings.leaderboard(name)}
              for name, title in game_titles().items()]
    return render_template("leaderboard.html", boards=boards, rule=ratings.rule, me=current_account(required=False))
