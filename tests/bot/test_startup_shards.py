"""The shard settings (``SHARD_COUNT``, ``SHARD_IDS``): read, checked, and given to discord.py.

A process that runs only some of the shards shares the work with other processes, so it needs
PostgreSQL; SQLite stays the one-process default and the start says so, word for word, with
exit status 2 like every setting the bot cannot use (``test_startup_messages.py``).
"""

from __future__ import annotations

import discord
import pytest

from bot.app import GloryBot, ShardedGloryBot, make_bot
from bot.i18n import t
from bot.process.config import SettingError, Settings
from bot.process.startup import summary

from .test_startup_messages import start  # noqa: F401 (the fixture)

POSTGRES = "postgresql+asyncpg://glory:secret@db/glory"


def test_without_shard_settings_the_bot_is_one_unsharded_connection() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "x"})
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert not settings.sharded and settings.runs_every_shard
    bot = make_bot(settings)
    assert type(bot) is GloryBot and not isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count is None


@pytest.mark.parametrize(
    ("env", "count", "ids", "every"),
    [
        ({"SHARD_COUNT": "4"}, 4, None, True),
        ({"SHARD_COUNT": " auto "}, 0, None, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-3"}, 4, (0, 1, 2, 3), True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2,0", "DATABASE_URL": POSTGRES}, 4, (0, 2), False),
        ({"SHARD_COUNT": "6", "SHARD_IDS": "1-2 5", "DATABASE_URL": POSTGRES}, 6, (1, 2, 5), False),
    ],
)
def test_shard_settings_are_read(env, count, ids, every) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "x", **env})
    assert (settings.shard_count, settings.shard_ids) == (count, ids)
    assert settings.sharded and settings.runs_every_shard is every
    assert settings.multi_process is (not every)


def test_a_sharded_bot_is_discord_py_auto_sharded_with_its_shards() -> None:
    split = make_bot(
        Settings.from_env(
            {"DISCORD_TOKEN": "x", "SHARD_COUNT": "3", "SHARD_IDS": "1", "DATABASE_URL": POSTGRES}
        )
    )
    assert isinstance(split, ShardedGloryBot) and isinstance(split, discord.AutoShardedClient)
    assert (split.shard_count, split.shard_ids) == (3, [1])
    every = make_bot(Settings.from_env({"DISCORD_TOKEN": "x", "SHARD_COUNT": "2"}))
    assert (every.shard_count, every.shard_ids) == (2, None)  # discord.py runs 0 and 1
    auto = make_bot(Settings.from_env({"DISCORD_TOKEN": "x", "SHARD_COUNT": "auto"}))
    assert auto.shard_count is None  # discord.py asks GET /gateway/bot


def test_the_ready_line_names_the_shards_only_when_sharded() -> None:
    plain = make_bot(Settings(token="x"))
    assert "shards" not in summary(plain, "1.0")
    split = make_bot(Settings(token="x", database_url=POSTGRES, shard_count=4, shard_ids=(0, 2)))
    assert "; shards: 0,2 of 4; database: postgresql+asyncpg://glory:***@db/glory;" in summary(
        split, "1.0"
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"SHARD_COUNT": "two"},
            "SHARD_COUNT must be a whole number of shards or auto, not “two”. Fix it in .env (or "
            "leave it empty for one connection without shards) and start again.\n",
        ),
        (
            {"SHARD_COUNT": "0"},
            "SHARD_COUNT must be at least 1, not 0. Fix it in .env and start again.\n",
        ),
        (
            {"SHARD_IDS": "0"},
            "SHARD_IDS picks this process's shards out of SHARD_COUNT, so it needs SHARD_COUNT "
            "as a number (auto cannot be divided between processes). Set SHARD_COUNT, or leave "
            "SHARD_IDS empty to run every shard here, and start again.\n",
        ),
        (
            {"SHARD_COUNT": "auto", "SHARD_IDS": "0"},
            "SHARD_IDS picks this process's shards out of SHARD_COUNT, so it needs SHARD_COUNT "
            "as a number (auto cannot be divided between processes). Set SHARD_COUNT, or leave "
            "SHARD_IDS empty to run every shard here, and start again.\n",
        ),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "first"},
            "SHARD_IDS must list shard numbers or ranges such as 0,2 or 0-3, not “first”. Fix it "
            "in .env and start again.\n",
        ),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "3-1"},
            "SHARD_IDS must list shard numbers or ranges such as 0,2 or 0-3, not “3-1”. Fix it "
            "in .env and start again.\n",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "1,2"},
            "SHARD_IDS names shard 2, but with SHARD_COUNT=2 the shards are numbered from 0 to "
            "2 − 1. Fix SHARD_IDS or SHARD_COUNT in .env and start again.\n",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "1"},
            "This process runs shards 1 of 2, so other processes run the rest, but DATABASE_URL "
            "“sqlite+aiosqlite:///./data/glory.db” is SQLite, the embedded database of one "
            "process running every shard.\nProcesses that share the shards share PostgreSQL: "
            "set DATABASE_URL to postgresql+asyncpg://user:password@host/database, or leave "
            "SHARD_IDS empty to run every shard in this one process, and start again.\n",
        ),
    ],
)
def test_a_shard_setting_the_bot_cannot_use_is_explained(start, env, expected) -> None:  # noqa: F811
    status, stderr = start({"DISCORD_TOKEN": "x", **env})
    assert (status, stderr) == (2, expected)


def test_sqlite_runs_every_shard_in_one_process() -> None:
    """SHARD_COUNT alone (or SHARD_IDS naming every shard) is one process: SQLite is fine."""
    for env in ({"SHARD_COUNT": "3"}, {"SHARD_COUNT": "3", "SHARD_IDS": "0,1,2"}):
        settings = Settings.from_env({"DISCORD_TOKEN": "x", **env})
        assert settings.database_url.startswith("sqlite") and settings.runs_every_shard


def test_the_shard_messages_exist_in_every_language() -> None:
    values = {"value": "x", "shard": 2, "count": 2, "shards": "1 of 2", "url": "sqlite:///g"}
    for key in (
        "cli.bad_shard_count",
        "cli.shard_ids_need_count",
        "cli.bad_shard_ids",
        "cli.shard_out_of_range",
        "cli.shards_need_postgres",
    ):
        texts = {locale: t(key, locale, **values) for locale in ("en", "de", "ru")}
        assert len(set(texts.values())) == 3, key
        assert all("SHARD" in text for text in texts.values()), key
    with pytest.raises(SettingError) as raised:
        Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0"})
    assert raised.value.key == "cli.shards_need_postgres"
