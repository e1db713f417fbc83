"""Trails and Towers: its rules engine (engine.py; its rules in docs/games.md and /rules/trails), the computer's
model (computer.py), its picture, words, tutorial, renderer (static/) and templates."""
from __future__ import annotations

from games.trails.engine import DIRECTIONS, GAME, TrailsBoard, tower_layout

__all__ = ["GAME", "DIRECTIONS", "TrailsBoard", "tower_layout"]
