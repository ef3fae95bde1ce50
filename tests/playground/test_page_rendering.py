"""The page in headless Chromium renders any message from Discord's JSON the way Discord's client
does: Components V2 trees, embeds, markdown, buttons and selects with their styles and disabled
state, pictures, ephemeral messages, timestamps; and its controls act as the chosen player.

The messages are posted through the emulator's REST API as a bot would (so they pass Discord's
validation), not by Glory: the renderer must not depend on Glory's layouts.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.loopback import Emulator
from bot.loopback.model import MESSAGE_FLAG_COMPONENTS_V2, MESSAGE_FLAG_EPHEMERAL
from bot.playground.browser import DESKTOP, PagePlayer, chromium

from .conftest import Served, browser_or_skip

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005fe02fea7d6a5b70000000049454e44ae426082"
)
"""A 1x1 PNG, enough for the browser to load a picture."""
ACCENT = 0xC2A50E


async def post(emulator: Emulator, body: dict[str, Any], files: dict[str, bytes]) -> None:
    """Post in #general through the REST API, with uploads, as discord.py does."""
    form = aiohttp.FormData()
    declared = [{"id": index, "filename": name} for index, name in enumerate(files)]
    form.add_field("payload_json", json.dumps({**body, "attachments": declared}))
    for index, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{index}]", data, filename=name, content_type="image/png")
    url = f"{emulator.api_base}/channels/{emulator.channel.id}/messages"
    async with (
        aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as bot,
        bot.post(url, data=form) as response,
    ):
        assert response.status == 200, await response.text()


def v2_table(soon: int) -> dict[str, Any]:
    return {
        "flags": MESSAGE_FLAG_COMPONENTS_V2,
        "components": [
            {
                "type": 17,
                "accent_color": ACCENT,
                "components": [
                    {
                        "type": 10,
                        "content": f"# Kami\n**alice** decides <t:{soon}:R>\n-# small print\n"
                        "- first\n- second",
                    },
                    {"type": 14, "divider": True, "spacing": 2},
                    {
                        "type": 9,
                        "components": [{"type": 10, "content": "Rules in `short`"}],
                        "accessory": {
                            "type": 2,
                            "style": 2,
                            "label": "Rules",
                            "custom_id": "rules",
                        },
                    },
                    {
                        "type": 12,
                        "items": [
                            {"media": {"url": "attachment://table.png"}, "description": "Table"}
                        ],
                    },
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "Play", "custom_id": "play"},
                            {
                                "type": 2,
                                "style": 4,
                                "label": "Quit",
                                "custom_id": "quit",
                                "disabled": True,
                            },
                            {"type": 2, "style": 5, "label": "Docs", "url": "https://e.xample"},
                        ],
                    },
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "pick",
                                "placeholder": "Pick a card",
                                "options": [
                                    {"label": "Soldier", "value": "s", "description": "1 point"},
                                    {"label": "Spear", "value": "p"},
                                ],
                            }
                        ],
                    },
                ],
            }
        ],
    }


def embed_lobby(alice_id: int) -> dict[str, Any]:
    return {
        "content": "<script>window.hacked = 1</script> & co",
        "embeds": [
            {
                "title": "Lobby",
                "description": f"Host: <@{alice_id}>\n~~old~~ __under__ ||secret|| *lean*",
                "color": 0x5865F2,
                "fields": [
                    {"name": "Seats", "value": "2", "inline": True},
                    {"name": "Turn", "value": "off", "inline": True},
                ],
                "image": {"url": "attachment://hand.png"},
                "footer": {"text": "Game #1"},
            }
        ],
    }


@pytest.fixture
async def player(served: Served) -> AsyncIterator[PagePlayer]:
    executable = browser_or_skip()
    async with chromium(executable) as browser:
        page = await browser.new_page(viewport=DESKTOP)
        player = PagePlayer(page, served.url)
        yield player
        assert player.errors == [], player.errors  # no JavaScript error on the page


async def test_a_components_v2_message_is_drawn_as_discord_draws_it(
    served: Served, player: PagePlayer
) -> None:
    emulator = served.playground.emulator
    await post(emulator, v2_table(int(time.time()) + 300), {"table.png": PNG})
    await player.open()
    article = player.page.locator("#channel-messages article.message").last
    container = article.locator(".dc-container")
    border = await container.evaluate("n => getComputedStyle(n).borderLeftColor")
    assert border == "rgb(194, 165, 14)"  # the accent colour
    assert await container.locator(".md-h1").inner_text() == "Kami"
    assert await container.locator("strong").first.inner_text() == "alice"
    assert await container.locator("time.dc-timestamp").inner_text() == "in 5 minutes"
    assert await container.locator(".md-subtext").inner_text() == "small print"
    assert await container.locator(".md-list li").all_inner_texts() == ["first", "second"]
    assert await container.locator(".dc-separator.divider.spacing-2").count() == 1
    section = container.locator(".dc-section")
    assert await section.locator(".dc-section-text code").inner_text() == "short"
    assert await section.locator(".dc-section-accessory button").inner_text() == "Rules"
    picture = container.locator(".dc-gallery img")
    assert await picture.get_attribute("alt") == "Table"
    await picture.evaluate("img => img.decode()")  # loaded from the page's server
    assert await picture.evaluate("img => img.naturalWidth") == 1
    play, quit_, docs = await container.locator(".dc-row > button.dc-button").all()
    assert "primary" in await play.get_attribute("class") and await play.is_enabled()
    assert "danger" in await quit_.get_attribute("class") and await quit_.is_disabled()
    assert "link" in await docs.get_attribute("class")
    assert await container.locator(".dc-select-trigger").inner_text() == "Pick a card\n▾"


async def test_clicks_and_choices_act_as_the_chosen_player(
    served: Served, player: PagePlayer
) -> None:
    playground = served.playground
    emulator = playground.emulator
    alice, bob = playground.actors.values()
    await post(emulator, v2_table(int(time.time())), {"table.png": PNG})
    await player.open()
    await player.act_as("bob")
    article = player.page.locator("#channel-messages article.message").last
    await article.locator('button[data-custom-id="play"]').click()
    select = article.locator('.dc-select[data-custom-id="pick"]')
    await select.locator(".dc-select-trigger").click()
    assert await select.locator(".option-description").inner_text() == "1 point"
    await select.locator('.dc-option[data-value="p"]').click()
    await emulator.wait_for(lambda: len(emulator.interactions) == 2)
    clicked, chose = emulator.interactions.values()
    assert (clicked.user_id, clicked.data["custom_id"]) == (bob.user.id, "play")
    assert (chose.user_id, chose.data["values"]) == (bob.user.id, ["p"])
    # Nobody answers here: the client says so to bob (not to alice), as Discord does.
    failed = player.page.locator("#channel-messages .failure")
    await failed.first.wait_for()
    assert await failed.first.inner_text() == "This interaction failed"
    await player.act_as("alice")
    assert await player.page.locator("#channel-messages .failure").count() == 0
    assert alice.user.id not in {record.user_id for record in emulator.interactions.values()}


async def test_an_embed_shows_markdown_mentions_fields_and_its_picture(
    served: Served, player: PagePlayer
) -> None:
    emulator = served.playground.emulator
    alice = next(iter(served.playground.actors.values()))
    await post(emulator, embed_lobby(alice.user.id), {"hand.png": PNG})
    await player.open()
    article = player.page.locator("#channel-messages article.message").last
    content = await article.locator(".content").inner_text()
    assert content == "<script>window.hacked = 1</script> & co"
    assert await player.page.evaluate("() => window.hacked") is None  # text, never markup
    embed = article.locator(".embed")
    assert await embed.evaluate("n => getComputedStyle(n).borderLeftColor") == "rgb(88, 101, 242)"
    assert await embed.locator(".mention").inner_text() == "@alice"
    description = embed.locator(".embed-description")
    assert await description.locator("s").inner_text() == "old"
    assert await description.locator("u").inner_text() == "under"
    assert await description.locator(".spoiler").inner_text() == "secret"
    assert await description.locator("em").inner_text() == "lean"
    assert await embed.locator(".embed-field.inline").count() == 2
    assert await embed.locator(".embed-footer").inner_text() == "Game #1"
    image = embed.locator("img.embed-image")
    await image.evaluate("img => img.decode()")
    # Discord shows an embed's picture within 400 x 300 on a desktop, the column's width on
    # a phone.
    assert await image.evaluate("n => getComputedStyle(n).maxWidth") == "400px"
    await player.phone(True)
    assert await image.evaluate("n => getComputedStyle(n).maxWidth") == "100%"
    assert await player.page.locator("#channel-column").evaluate("n => n.offsetWidth") == 400
    # The picture an embed shows is not shown a second time as a loose file.
    assert await article.locator("img").count() == 1


async def test_an_ephemeral_answer_is_shown_only_to_its_viewer(
    served: Served, player: PagePlayer
) -> None:
    emulator = served.playground.emulator
    _alice, bob = served.playground.actors.values()
    emulator.world.create_message(
        emulator.channel,
        emulator.bot_user,
        {"content": "Your hand: **Soldier**", "flags": MESSAGE_FLAG_EPHEMERAL},
        viewer_id=bob.user.id,
    )
    await player.open()
    messages = player.page.locator("#channel-messages article.message")
    assert await messages.count() == 0
    await player.act_as("bob")
    await messages.first.wait_for()
    assert await messages.first.locator(".ephemeral-note").inner_text() == "👁 Only you can see this"
