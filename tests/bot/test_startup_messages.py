"""Start-up in words: every setting the bot cannot use is one or two sentences on stderr.

``main`` runs in this process for the settings (they fail before anything connects); the
failures that need a network are in ``tests/loopback/test_startup_failures.py``. The texts are
pinned here word for word: they are what a server owner reads.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as cli
from bot.i18n import t
from bot.process.config import DEFAULT_HEALTH_FILE, SETTINGS, SettingError, Settings
from bot.process.startup import PERMISSIONS, invite_url

ROOT = Path(__file__).resolve().parents[2]
SETTING_NAMES = [name for name, _ in SETTINGS]


@pytest.fixture
def start(monkeypatch, tmp_path, capsys):
    """``main()`` in an empty directory with only ``env`` set; returns (status, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "limit_malloc_arenas", lambda: False)
    for name in [*SETTING_NAMES, "LC_ALL", "LC_MESSAGES", "LANG"]:
        monkeypatch.delenv(name, raising=False)

    def run(env: dict[str, str], argv: list[str] | None = None) -> tuple[int, str]:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        status = cli.main(argv or [])
        captured = capsys.readouterr()
        assert captured.out == ""
        return status, captured.err

    # main() loads .env into os.environ, as it should in a process of its own: undo that here.
    saved = dict(os.environ)
    yield run
    os.environ.clear()
    os.environ.update(saved)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"LOG_LEVEL": "verbose"},
            "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not “verbose”. Fix it "
            "in .env and start again.\n",
        ),
        (
            {"LOBBY_MINUTES": "ten"},
            "LOBBY_MINUTES must be a whole number, not “ten”. Fix it in .env (or leave it empty "
            "for the default) and start again.\n",
        ),
        (
            {"DEV_GUILD_ID": "my server"},
            "DEV_GUILD_ID must be a whole number, not “my server”. Fix it in .env (or leave it "
            "empty for the default) and start again.\n",
        ),
        (
            {"AI_WORKERS": "1.5"},
            "AI_WORKERS must be a whole number, not “1.5”. Fix it in .env (or leave it empty "
            "for the default) and start again.\n",
        ),
        (
            {"AI_PAUSE_SECONDS": "fast"},
            "AI_PAUSE_SECONDS must be a number such as 1.5, not “fast”. Fix it in .env (or "
            "leave it empty for the default) and start again.\n",
        ),
        (
            {"AI_MAX_MS": "nan"},
            "AI_MAX_MS must be a whole number, not “nan”. Fix it in .env (or leave it empty for "
            "the default) and start again.\n",
        ),
        (
            {"MISSED_TURNS_FOR_TAKEOVER": "0"},
            "MISSED_TURNS_FOR_TAKEOVER must be at least 1, not 0. Fix it in .env and start "
            "again.\n",
        ),
        (
            {"DATABASE_URL": "mysql://glory:secret@db.example/glory"},
            "DATABASE_URL “mysql://glory:***@db.example/glory” is not a database Glory can use. "
            "Glory stores its games in SQLite (sqlite+aiosqlite:///./data/glory.db) or "
            "PostgreSQL\n(postgresql+asyncpg://user:password@host/database): set DATABASE_URL to "
            "one of them in .env and start again.\n",
        ),
        (
            {"DATABASE_URL": "not a url"},
            "DATABASE_URL “not a url” is not a database Glory can use. Glory stores its games in "
            "SQLite (sqlite+aiosqlite:///./data/glory.db) or PostgreSQL\n"
            "(postgresql+asyncpg://user:password@host/database): set DATABASE_URL to one of "
            "them in .env and start again.\n",
        ),
        (
            {"DATABASE_URL": "sqlite+aiosqlite:///:memory:"},
            "DATABASE_URL “sqlite+aiosqlite:///:memory:” names no SQLite file, and a database in "
            "memory would lose every game.\nName a file, e.g. sqlite+aiosqlite:///./data/glory.db, "
            "and start again.\n",
        ),
        (
            {"DISCORD_API_BASE": "http://127.0.0.1:8123/api/v10"},
            "DISCORD_API_BASE and DISCORD_GATEWAY_URL go together: set both (for a "
            "Discord-compatible server) or neither (for discord.com).\n",
        ),
    ],
)
def test_a_setting_the_bot_cannot_use_is_explained(start, env, expected) -> None:
    status, stderr = start({"DISCORD_TOKEN": "x", **env})
    assert (status, stderr) == (2, expected)


def test_settings_are_checked_before_the_token(start) -> None:
    status, stderr = start({"LOG_LEVEL": "loud"})
    assert status == 2 and stderr.startswith("LOG_LEVEL must be")


def test_without_a_token_the_steps_are_given(start) -> None:
    status, stderr = start({})
    assert status == 2
    assert stderr == (
        "DISCORD_TOKEN is not set.\n"
        "1. Create an application at https://discord.com/developers/applications\n"
        "2. Open Bot, press Reset Token and copy the token.\n"
        "3. Put it into a file named .env in the directory you start Glory from (see "
        ".env.example):\n"
        "       DISCORD_TOKEN=your-token\n"
        "4. Start it with `glory` (or `make run`): it registers its slash commands by itself "
        "and logs the link that invites it to a server.\n"
    )


def test_the_env_file_comes_from_the_current_directory(start, tmp_path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nLOBBY_MINUTES=soon\n")
    status, stderr = start({})
    assert status == 2 and stderr.startswith("LOBBY_MINUTES must be a whole number, not “soon”")


def test_the_environment_wins_over_the_env_file(start, tmp_path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nLOBBY_MINUTES=soon\n")
    status, stderr = start({"LOBBY_MINUTES": "later"})
    assert status == 2 and "“later”" in stderr


def test_another_env_file_can_be_named(start, tmp_path) -> None:
    (tmp_path / "glory.env").write_text("DISCORD_TOKEN=x\nAI_MAX_MS=-5\n")
    status, stderr = start({}, ["--env-file", "glory.env"])
    assert (status, stderr) == (
        2,
        "AI_MAX_MS must be at least 1, not -5. Fix it in .env and start again.\n",
    )


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_an_env_file_named_but_missing_is_an_error(start, locale) -> None:
    """A typo in ``--env-file`` used to start the bot without those settings."""
    status, stderr = start(
        {"LANG": f"{locale}_XX.UTF-8", "DISCORD_TOKEN": "x"}, ["--env-file", "/missing/glory.env"]
    )
    assert (status, stderr) == (
        2, t("cli.env_file_missing", locale, path="/missing/glory.env") + "\n"
    )
    assert "/missing/glory.env" in stderr


def test_without_env_file_a_missing_env_in_the_directory_is_fine(start) -> None:
    status, stderr = start({"LOBBY_MINUTES": "soon"})
    assert status == 2 and stderr.startswith("LOBBY_MINUTES must be a whole number")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, DEFAULT_HEALTH_FILE),
        ("", DEFAULT_HEALTH_FILE),
        ("  ", DEFAULT_HEALTH_FILE),
        ("/run/glory/alive", "/run/glory/alive"),
        ("off", None),
        ("OFF", None),
    ],
)
def test_an_empty_health_file_means_the_default(value, expected) -> None:
    """compose's ``env_file:`` passes ``HEALTH_FILE=`` as an empty value, which overrides the
    image's; empty must mean the default the health check reads too, not "none"."""
    env = {"DISCORD_TOKEN": "x"} if value is None else {"DISCORD_TOKEN": "x", "HEALTH_FILE": value}
    assert Settings.from_env(env).health_file == expected


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_glory_sync_says_where_it_registered_or_why_not(capsys, locale) -> None:
    from bot.interactions.command_sync import Registration

    assert cli.registered(Registration(None, 17, uploaded=True), locale) == 0
    assert capsys.readouterr().out == t("cli.synced_global", locale, count=17) + "\n"
    assert cli.registered(Registration(42, 1, uploaded=True), locale) == 0
    said = capsys.readouterr().out
    assert said == t("cli.synced_guild", locale, count=1, guild=42) + "\n" and "42" in said
    refused = Registration(None, 17, uploaded=False, error="HTTP 429: You are being rate limited")
    assert cli.registered(refused, locale) == cli.EXIT_UNREACHABLE
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == t("cli.sync_failed", locale, reason=refused.error) + "\n"


def test_the_operators_language_is_used(start) -> None:
    status, stderr = start({"LANG": "de_DE.UTF-8", "DISCORD_TOKEN": "x", "LOG_LEVEL": "laut"})
    assert (status, stderr) == (
        2,
        "LOG_LEVEL muss DEBUG, INFO, WARNING, ERROR oder CRITICAL sein, nicht „laut“. "
        "Korrigiere es in .env und starte neu.\n",
    )
    assert cli.cli_locale({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert cli.cli_locale({"LC_ALL": "C", "LANG": "de_DE"}) == "en"
    assert cli.cli_locale({}) == "en"


def test_every_setting_error_key_exists_in_every_language() -> None:
    for locale in ("en", "de", "ru"):
        error = SettingError("cli.too_small", name="AI_MAX_MS", value="0", minimum=1)
        assert "AI_MAX_MS" in t(error.key, locale, **error.values)


def test_good_settings_are_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "x",
            "LOG_LEVEL": " warning ",
            "LOBBY_MINUTES": "5",
            "AI_WORKERS": "0",
            "AI_PAUSE_SECONDS": "0.25",
            "AI_MAX_MS": "300",
            "MISSED_TURNS_FOR_TAKEOVER": "2",
            "DATABASE_URL": "postgres://glory:secret@db/glory",
        }
    )
    assert settings.log_level == "WARNING" and settings.lobby_minutes == 5
    assert (settings.ai_workers, settings.ai_pause_seconds, settings.ai_max_ms) == (0, 0.25, 300)
    assert settings.missed_turns_for_takeover == 2
    assert settings.database_url == "postgres://glory:secret@db/glory"


def _names_read_by_from_env() -> set[str]:
    """Every upper-case string constant in ``Settings.from_env`` and the helpers it calls."""
    tree = ast.parse((ROOT / "bot" / "process" / "config.py").read_text())
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.isupper()
        and node.value.replace("_", "").isalpha()
        and len(node.value) > 4
        and node.value not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
    }


def test_help_lists_every_setting_with_its_default() -> None:
    assert set(SETTING_NAMES) == _names_read_by_from_env()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"},
    )
    assert done.returncode == 0, done.stderr
    help_text = " ".join(done.stdout.split())
    assert "--version" in help_text and "--env-file" in help_text
    assert "{run,sync,playground}" in help_text
    assert "sync: register the slash commands now" in help_text
    for name, default in SETTINGS:
        meaning = " ".join(t(f"cli.setting.{name}").split())
        assert f"{name} {meaning}" in help_text
        if default is not None:
            assert f"{meaning} (default: {default})" in help_text


def test_version_is_the_installed_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0
    assert done.stdout == f"glory {importlib.metadata.version('glory')}\n"


def test_the_version_is_known_from_the_sources_where_glory_is_not_installed(
    monkeypatch,
) -> None:
    """A Procfile platform installs only the locked dependencies and runs ``python -m bot``
    in the checked-out sources: the version comes from pyproject.toml, not "unknown"."""
    import tomllib

    import bot.process.version

    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    bot.process.version.version.cache_clear()
    try:
        expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
        assert bot.process.version.version() == expected != bot.process.version.UNKNOWN
        monkeypatch.setattr(bot.process.version, "PYPROJECT", ROOT / "no-such-file.toml")
        bot.process.version.version.cache_clear()
        assert bot.process.version.version() == bot.process.version.UNKNOWN
    finally:
        bot.process.version.version.cache_clear()
    assert (ROOT / "Procfile").read_text().strip() == "worker: python -m bot"


def test_the_invite_asks_for_exactly_what_the_bot_needs() -> None:
    assert PERMISSIONS.value == 274878024704
    assert {name for name, on in PERMISSIONS if on} == {
        "read_messages",  # discord.py's name for View Channels
        "send_messages",
        "send_messages_in_threads",
        "embed_links",
        "attach_files",  # the table's picture, uploaded with the table in the channel
        "read_message_history",
    }
    assert invite_url(1234) == (
        "https://discord.com/oauth2/authorize?client_id=1234&scope=bot+applications.commands"
        "&permissions=274878024704"
    )
    # docs/running.md and docs/hosting.md tell the same number.
    for doc in ("running.md", "hosting.md"):
        assert "274878024704" in (ROOT / "docs" / doc).read_text()


def test_pictures_are_on_unless_the_host_turns_them_off() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "x"}).pictures is True
    assert Settings.from_env({"DISCORD_TOKEN": "x", "PICTURES": " OFF "}).pictures is False
    with pytest.raises(SettingError) as refused:
        Settings.from_env({"DISCORD_TOKEN": "x", "PICTURES": "maybe"})
    assert refused.value.key == "cli.bad_switch"
    for locale in ("en", "de", "ru"):
        text = t(refused.value.key, locale, **refused.value.values)
        assert "PICTURES" in text and "maybe" in text
