"""The delivery outbox: everything a committed change must show on Discord, stored with it.

Why an outbox: a move is committed before anything goes to Discord, and Discord may then be
slow, rate-limited or unreachable, or the process may die. Each change therefore writes, in the
same transaction, what it must publish (``entries.Publication``); a courier per game delivers it
(``courier``), retries what Discord refused for a while, and deletes it once shown. A restart
picks up whatever is left. Submodules are imported explicitly (``bot.outbox.entries`` …) so
that the storage layer can use the plain data types without importing the couriers.
"""
