"""Replays of ended games: positions rebuilt from the seed and the move log by the engine.

- ``rebuild``: a ``Replay`` made from a ``GameRecord`` (the stored game, its seats and its
  moves), with checkpoints so that any position costs a few engine steps; it says when the
  stored game no longer replays (a rules change) instead of showing a wrong position;
- ``source``: reading a game's record from the store, and the bounded cache of replays;
- ``export``: the game as a JSON document (seed, options, players, moves);
- ``view``: the replay message (the public table after a move, with its log line, and the
  hands when the server allows) and its buttons (``bot/replays/controls.py``).
"""
