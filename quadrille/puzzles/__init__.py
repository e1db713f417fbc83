"""Puzzles: positions cut from games where the side to move has one clearly best continuation (docs/puzzles.md).

* `generate.cut(game, options, moves, analysis=None)`: the cutter, for the computer's games and players'
  analysed games alike; `criterion`: when a move is the clearly best one; `themes`: the shared themes (each
  game's own are in games/<name>/puzzles.py, with its material and the source games' options and budgets);
* `source`: the seeded computer games puzzles are cut from;
* `library`: the puzzles that ship (games/<name>/puzzles.json), by game and by id;
* `python -m quadrille.puzzles generate --game G --count N [--seed S] [--out PATH]` writes a game's file.

Pure: no Flask, no database.

Playing them (docs/puzzles.md, "Playing puzzles"): `service` (the next puzzle, the daily one, an attempt
rated once per solver), `lines` (a solver's moves checked on the engine), `ratings` (Glicko-2 of puzzles and
solvers) and `store` (their SQL, the one module here that touches the database); no Flask either.
"""
