"""Every interaction is answered in time: the one answer it gets, and when to defer it.

Discord refuses a first answer that reaches it more than 3 s after the interaction was created
("This interaction failed"), and a refused answer cannot be sent again. So, for every click and
every command:

- its own response is the first REST call made for it; nothing else waits in front of it;
- a handler that would queue behind another one (a busy game) defers at once, and any handler
  still working ``DEFER_AFTER`` after the interaction arrived (a slow database, a slow Discord)
  is deferred by a timer, so the acknowledgement reaches Discord in time;
- after a deferral the same ``update`` / ``send`` calls finish the answer through the routes
  that stay open for 15 minutes (editing the original response, follow-ups);
- an answer that Discord refuses anyway (10062: too late; 10008 for an update: the clicked DM
  was deleted meanwhile) is logged and swallowed: the work it
  reports stands, and whatever it would have shown reaches the player another way (the outbox
  refreshes the hand, ``/hand`` shows it).

All of a handler's answers go through its ``Answer`` (``Answer.of(interaction)``), which
serialises them with the timer's deferral, so an interaction is never acknowledged twice.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.pictures.attach import for_new_message

if TYPE_CHECKING:
    from bot.outbox.shown import ShownHands

log = logging.getLogger(__name__)

DEFER_AFTER = 1.0
"""Seconds after an interaction arrived at which a handler that has not answered defers."""
LATE_ARRIVAL = 1.0
"""An interaction older than this when it arrives (a replay after a gateway RESUME, a clogged
event loop) is deferred at once."""
IMPLAUSIBLE_AGE = 60.0
"""An interaction "older" than this says more about the clocks than about the interaction
(Discord's snowflake time against this host's): the normal timer applies."""
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_MESSAGE = 10008
"""An update of the clicked message, refused because the message was deleted meanwhile: a
courier replaced that hand DM by a newer one as the player clicked it (the newer one shows
the game as it is)."""
KEY = "glory.answer"


class AnswerState(enum.Enum):
    OPEN = "open"
    """Nothing sent yet: the next call is the interaction's response."""
    DEFERRED = "deferred"
    """Acknowledged without content; the answer follows through the webhook routes."""
    ANSWERED = "answered"
    FAILED = "failed"
    """Discord refused the response (too late, or another instance answered)."""


class Answer:
    """The answer of one interaction: deferral timer, response, follow-ups."""

    __slots__ = ("_defer_task", "_lock", "_timer", "interaction", "public", "state")

    def __init__(self, interaction: discord.Interaction, *, public: bool = False) -> None:
        self.interaction: discord.Interaction | None = interaction
        self.public = public
        """For a slash command: whether a deferral shows a public "thinking…" message (the
        command answers in the channel) or an ephemeral one."""
        self.state = AnswerState.OPEN
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._defer_task: asyncio.Task[None] | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Answer:
        """The interaction's answer (made on first use)."""
        answer = interaction.extras.get(KEY)
        if answer is None:
            answer = interaction.extras[KEY] = cls(interaction)
        return answer

    # ------------------------------------------------------------------ the deadline

    def arm(self) -> None:
        """Defer automatically if no answer has been sent ``DEFER_AFTER`` from now (at once
        for an interaction that arrived late)."""
        if self._timer is not None or self.interaction is None:
            return
        age = time.time() - self.interaction.created_at.timestamp()
        delay = 0.0 if LATE_ARRIVAL < age < IMPLAUSIBLE_AGE else DEFER_AFTER
        self._timer = asyncio.get_running_loop().call_later(delay, self._time_is_up)

    def disarm(self) -> None:
        """The handler is done: no deferral from now on."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def release(self) -> None:
        """Untie the interaction (see ``components.release_interaction``)."""
        self.disarm()
        self.interaction = None

    def _time_is_up(self) -> None:
        self._timer = None
        if self.state is AnswerState.OPEN and self._defer_task is None:
            self._defer_task = asyncio.get_running_loop().create_task(self.defer())

    @property
    def sent(self) -> bool:
        """Something reached Discord (a deferral or an answer)."""
        return self.state in (AnswerState.DEFERRED, AnswerState.ANSWERED)

    async def defer(self) -> None:
        """Acknowledge now and answer later (nothing happens if already acknowledged)."""
        async with self._lock:
            interaction = self.interaction
            if self.state is not AnswerState.OPEN or interaction is None:
                return
            try:
                if interaction.type is discord.InteractionType.application_command:
                    await interaction.response.defer(ephemeral=not self.public, thinking=True)
                else:
                    await interaction.response.defer()
            except discord.HTTPException as error:
                self._refused(error, "deferral")
                return
            self.state = AnswerState.DEFERRED

    # ------------------------------------------------------------------ answering

    async def update(self, **content: Any) -> bool:
        """Show ``content`` in the message whose component was used; True if Discord took it."""
        async with self._lock:
            interaction = self.interaction
            if interaction is None or self.state in (AnswerState.FAILED, AnswerState.ANSWERED):
                return False
            shown = _shown_hands(interaction)
            message_id = interaction.message.id if interaction.message is not None else None
            change = shown.begin(message_id) if shown and message_id else None
            updated = False
            try:
                if self.state is AnswerState.OPEN:
                    await edit_clicked_message(interaction, **content)
                else:
                    await interaction.edit_original_response(**content)
                updated = True
            except discord.HTTPException as error:
                self._refused(error, "update")
                return False
            finally:
                if shown and message_id and change:
                    shown.end(message_id, change, content if updated else None)
            self.state = AnswerState.ANSWERED
            _answered_in(interaction)
            return True

    async def send(
        self, content: str | None = None, *, ephemeral: bool = True, **kwargs: Any
    ) -> int | None:
        """Answer with a new message (ephemeral unless told otherwise); its id if known.

        After a deferral this is a follow-up; after a command's "thinking…" deferral the first
        follow-up takes the place of that message, as on Discord.
        """
        if kwargs.get("view", ...) is None:
            del kwargs["view"]  # discord.py refuses view=None on new messages
        kwargs = for_new_message(kwargs)  # a picture goes as a file on a new message
        async with self._lock:
            interaction = self.interaction
            if interaction is None or self.state is AnswerState.FAILED:
                return None
            try:
                if self.state is AnswerState.OPEN:
                    callback = await interaction.response.send_message(
                        content, ephemeral=ephemeral, **kwargs
                    )
                    message_id = callback.message_id if callback is not None else None
                else:
                    message = await interaction.followup.send(
                        content or discord.utils.MISSING, ephemeral=ephemeral, wait=True, **kwargs
                    )
                    message_id = message.id
            except discord.HTTPException as error:
                self._refused(error, "message")
                return None
            self.state = AnswerState.ANSWERED
            return message_id

    def _refused(self, error: discord.HTTPException, what: str) -> None:
        """Discord did not take the answer: too late, answered elsewhere, or a bad payload."""
        self.state = AnswerState.FAILED
        interaction = self.interaction
        where = interaction.id if interaction is not None else "?"
        expected = (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED)
        if error.code in expected or (what == "update" and error.code == UNKNOWN_MESSAGE):
            log.warning("interaction %s: Discord refused the %s (%s)", where, what, error.code)
        else:
            log.error("interaction %s: Discord refused the %s: %s", where, what, error)


def _shown_hands(interaction: discord.Interaction) -> ShownHands | None:
    """What the courier knows each DM shows (``bot/outbox/shown.py``): an answer that
    updates the clicked message changes it too."""
    outbox = getattr(interaction.client, "outbox", None)
    if outbox is None or interaction.guild_id is not None:
        return None  # (only hand DMs are compared)
    return outbox.delivery.shown


def _answered_in(interaction: discord.Interaction) -> None:
    """The answer updated the clicked message: its token can delete it later (a replaced
    hand DM, ``bot/outbox/click_tokens.py``)."""
    outbox = getattr(interaction.client, "outbox", None)
    if outbox is not None:
        outbox.delivery.clicks.note(interaction)


UPDATE_FIELDS = frozenset({"content", "embed", "embeds", "attachments", "view", "allowed_mentions"})


async def edit_clicked_message(interaction: discord.Interaction, **content: Any) -> None:
    """``interaction.response.edit_message(**content)``, without asking for the message back.

    discord.py asks Discord to send the edited message with the answer (``with_response``)
    and makes a ``Message`` of it, embeds and components included. Nothing of ours reads it,
    and for a hand that parse took about a sixth of a sub-menu click's time in the bot (after
    the answer, but in the way of the next click). Without the question Discord answers 204.
    Otherwise this is discord.py's own ``edit_message``, step by step, on its own helpers
    (tests/bot/test_answers.py fails if a release changes them): what it marks on the
    interaction, the view store, the payload and the route. Anything but a component's
    answer with these fields takes discord.py's path.
    """
    if interaction.type is not discord.InteractionType.component or not UPDATE_FIELDS.issuperset(
        content
    ):
        await interaction.response.edit_message(**content)
        return
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    message_id = interaction.message.id if interaction.message is not None else None
    view = content.get("view", MISSING)
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **content,
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route,
        interaction._session,
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files or None,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    )
    interaction.response._response_type = discord.InteractionResponseType.message_update
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
