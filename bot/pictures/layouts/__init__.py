"""One layout per game: how its table and a hand are laid out on a canvas."""
