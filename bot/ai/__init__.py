"""The bot's side of the AI players: searches in worker processes (``pool``), AI seats and
seats the AI stands in for played through the ordinary move path (``autoplay``).

The search itself is ``games.ai``: pure, no Discord, fed with the state's JSON.
"""
