"""What each hand DM shows, so that a DM is not edited into what it already shows.

Why: every edit of a DM is a request of the bot's token, and Discord allows a token about 50
a second in all (``budget.py``). A waiting player's DM leaves out everything that changes with
other players' moves, and a move edits the DMs whose private part changed; but the part the
engine calls private is wider than what the DM shows (in Kami every player's line of cards is
private as soon as it holds one face-down card, while the DM shows only the hand): in a
three-player Kami game one move in three edited a DM whose only change was the move number in
its footer. The courier now compares what it would show with what the DM shows and skips the
edit when they are the same but for that footer.

What a DM shows is known from what this process itself last made it show, by a courier's
edit or a click's answer (``Answer.update``), and only if no other change of it was in flight
at the same time (their order at Discord is unknown). A restart forgets it all (memory only),
and with a shared database the comparison is off altogether (another process may answer a
click in the DM). Unknown means edited, as before.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

import discord

KEPT = 8192
"""DMs remembered at most (the oldest are forgotten first: they are then edited as before)."""


def digest(content: dict[str, Any]) -> bytes:
    """What ``content`` (a hand DM's edit: ``embed``, ``view``, ``attachments``) shows,
    less the embeds' footers (the game and the move number)."""
    parts: list[Any] = []
    embeds = list(content.get("embeds") or ())
    if content.get("embed") is not None:
        embeds.insert(0, content["embed"])
    for embed in embeds:
        shown = embed.to_dict() if isinstance(embed, discord.Embed) else dict(embed)
        shown.pop("footer", None)
        parts.append(shown)
    view = content.get("view")
    parts.append(view.to_components() if view is not None else None)
    parts.append(content.get("content"))
    parts.append("attachments" in content)  # (none named: an edit keeps the message's files)
    hashed = hashlib.blake2b(json.dumps(parts, sort_keys=True, default=str).encode())
    for file in content.get("attachments") or ():
        hashed.update(f"\0{file.filename}\0{file.description}\0".encode())
        fp = getattr(file, "fp", None)
        if fp is not None and hasattr(fp, "getvalue"):
            hashed.update(fp.getvalue())
        else:
            hashed.update(str(id(file)).encode())  # unknown bytes: never the same
    return hashed.digest()


class ShownHands:
    """Per hand DM (message id), the digest of what it shows, when that is known.

    Every change of a DM, the courier's edits and the clicks' answers alike, is bracketed by
    ``begin`` and ``end``: what a change showed is known only if no other change of the
    message overlapped it (two requests in flight at once land in an order nobody knows).
    """

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._shown: OrderedDict[int, bytes] = OrderedDict()
        self._changing: dict[int, list[int]] = {}
        """Per DM being changed: changes begun in this bout of changes, changes in flight."""
        self.skipped = 0
        """Edits left out because the DM showed that already (tests, benchmarks)."""

    def same(self, message_id: int, content: dict[str, Any]) -> bool:
        """Whether the DM is known to show ``content`` already (but for its footers)."""
        shown = self._shown.get(message_id)
        return shown is not None and shown == digest(content)

    def begin(self, message_id: int) -> tuple[int, bool]:
        """A change of the DM starts: what it shows is unknown until it ``end``s."""
        self._shown.pop(message_id, None)
        changing = self._changing.setdefault(message_id, [0, 0])
        alone = changing[1] == 0
        changing[0] += 1
        changing[1] += 1
        return changing[0], alone

    def end(
        self, message_id: int, change: tuple[int, bool], content: dict[str, Any] | None
    ) -> None:
        """The change begun as ``change`` is over: the DM shows ``content`` if it went through
        (``None``: it failed, or its effect is unknown) and no other change overlapped it."""
        changing = self._changing.get(message_id)
        if changing is None:
            return
        changing[1] -= 1
        number, alone = change
        if content is not None and alone and changing[0] == number:
            self._shown[message_id] = digest(content)
            self._shown.move_to_end(message_id)
            while len(self._shown) > self.kept:
                self._shown.popitem(last=False)
        else:
            self._shown.pop(message_id, None)
        if changing[1] <= 0:
            del self._changing[message_id]
