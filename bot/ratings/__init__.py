"""Skill ratings (openskill's Plackett–Luce model) per player, game and server.

- ``model``: the pure rating of one finished game from its results (no database);
- ``tables``: the rating tables (current ratings, every change, the order games were rated in);
- ``ledger``: applying a game's results to the stored ratings inside the transaction that
  stores them, and rebuilding every rating from the stored results (``rebuild``);
- ``queries``: what ``/standings`` and ``/profile`` read; ``board``: their messages and the
  leaderboard's page buttons;
- ``python -m bot.ratings recompute``: the host's command that rebuilds the ratings.

See docs/ratings.md for the rules (teams, ties, AI anchors) and why they are so.
"""
