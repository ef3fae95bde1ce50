"""The game flows: what a command, a click or a timer does to a game."""
