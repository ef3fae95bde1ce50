"""``bot/outbox/shown.py``: what a hand DM shows is known only after a change of it that no
other change overlapped; the courier skips an edit into what the DM shows already."""

from __future__ import annotations

import io

import discord

from bot.outbox.shown import ShownHands, digest
from bot.pictures.attach import PictureFile


def hand(text: str, move: int, **extra: object) -> dict:
    embed = discord.Embed(title="Alice's hand", description=text)
    embed.set_footer(text=f"Game #3 · move {move}")
    return {"embed": embed, "view": None, **extra}


def test_only_the_footer_differing_is_the_same_dm() -> None:
    assert digest(hand("Your cards: 3, 5", 7)) == digest(hand("Your cards: 3, 5", 9))
    assert digest(hand("Your cards: 3, 5", 7)) != digest(hand("Your cards: 3", 7))


def test_a_picture_counts_by_its_bytes_and_none_named_is_not_none_shown() -> None:
    def with_picture(png: bytes) -> dict:
        return hand("x", 1, attachments=[PictureFile(io.BytesIO(png), "hand.png")])

    assert digest(with_picture(b"one")) == digest(with_picture(b"one"))
    assert digest(with_picture(b"one")) != digest(with_picture(b"two"))
    assert digest(hand("x", 1, attachments=[])) != digest(hand("x", 1))


def test_a_change_alone_is_remembered_and_a_later_same_edit_is_recognised() -> None:
    shown = ShownHands()
    assert not shown.same(10, hand("a", 1))  # never shown by this process: unknown
    change = shown.begin(10)
    shown.end(10, change, hand("a", 1))
    assert shown.same(10, hand("a", 2))
    assert not shown.same(10, hand("b", 2))


def test_overlapping_changes_leave_the_dm_unknown() -> None:
    """A courier's edit and a click's answer in flight at once land in an unknown order."""
    shown = ShownHands()
    courier = shown.begin(10)
    answer = shown.begin(10)
    shown.end(10, answer, hand("sub-menu", 1))
    shown.end(10, courier, hand("top menu", 1))
    assert not shown.same(10, hand("top menu", 1))
    assert not shown.same(10, hand("sub-menu", 1))
    # Once nothing is in flight, the next change alone is known again.
    change = shown.begin(10)
    shown.end(10, change, hand("top menu", 2))
    assert shown.same(10, hand("top menu", 3))


def test_a_failed_change_leaves_the_dm_unknown() -> None:
    shown = ShownHands()
    change = shown.begin(10)
    shown.end(10, change, hand("a", 1))
    failed = shown.begin(10)
    shown.end(10, failed, None)
    assert not shown.same(10, hand("a", 1))


def test_only_the_newest_dms_are_remembered() -> None:
    shown = ShownHands(kept=2)
    for message_id in (1, 2, 3):
        shown.end(message_id, shown.begin(message_id), hand("a", 1))
    assert not shown.same(1, hand("a", 1))
    assert shown.same(2, hand("a", 1)) and shown.same(3, hand("a", 1))
