"""Persistence: SQLModel tables, the engine factory, migrations and the store (``repository``).

Everything that matters lives here, never only in memory, so a restart (or a second process
handling a DM click) continues exactly where the last commit left off.
"""
