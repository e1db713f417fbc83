"""The JSON door of analysis (quadrille/analysis/): a match's analysis asked for and read, and one position
evaluated for the analysis board. Open to anyone, as the records are; the costly part runs on the computer's
worker processes, and each address has its budgets (web/rate_limits.py: ANALYSIS_POSITION_RATE; the service:
ANALYSIS_QUEUE_PER_ADDRESS)."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from .clients import client_address
from .http_api import json_body

bp = Blueprint("analysis_api", __name__, url_prefix="/api")


def analyses():
    return current_app.extensions["quadrille.analysis"]


@bp.post("/matches/<match_id>/analysis")
def request_analysis(match_id):
    """202 {"match", "status", "progress"} while it waits or runs; 200 with the whole analysis once done."""
    answer, status = analyses().request(match_id, client_address())
    return jsonify(answer), status


@bp.get("/matches/<match_id>/analysis")
def read_analysis(match_id):
    """{"status", "progress", "plies", "summary", ...} (docs/api.md, "Analysis")."""
    return jsonify(analyses().view(match_id))


@bp.post("/analysis/position")
def analyse_position():
    """{"game", "options", "moves"} -> {"eval", "evals", "best", "line", "scale"}."""
    body = json_body()
    return jsonify(analyses().position(body.get("game"), body.get("options"), body.get("moves"), client_address()))
