"""Glory as a server owner installs it: the built wheel in a fresh virtual environment.

The wheel is built from a copy of the sources (what ``pip install .`` or the Dockerfile would
build), installed without dependencies into a new virtual environment that sees this test
environment's packages through a ``.pth`` line (so no download: those are the locked versions
``make test`` installed; ``pip check`` proves they satisfy the wheel's requirements), and then:
``glory --help`` and ``glory --version``; ``glory`` started from a directory that holds only a
``.env`` must connect to the loopback emulator, register its commands by itself, log its
start-up summary, touch its health file, keep its SQLite file in that directory, answer a
command, and stop cleanly on SIGTERM; ``glory sync`` then registers them again and exits. The
build itself prints no warning (setuptools' boxes are what a first-time host sees).

Python does not read ``.pth`` files in directories a ``.pth`` line adds, so this environment's
editable install of Glory is not visible there: ``bot`` is imported from the wheel (checked).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from bot.loopback import Emulator
from bot.process.config import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot", "games", "pyproject.toml", "README.md", "LICENSE")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def run(*argv: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(arg) for arg in argv], capture_output=True, text=True, timeout=180, **kwargs
    )
    assert done.returncode == 0, f"{argv}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its ``bin`` directory."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = base / "dist"
    built = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--wheel-dir", dist, source,
    )  # fmt: skip
    for output in (built.stdout, built.stderr):
        assert "warning" not in output.lower(), output
    (wheel,) = dist.glob("glory-*.whl")
    assert wheel.name.startswith(f"glory-{VERSION}-")

    venv = base / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
                .stdout.strip())  # fmt: skip
    shared = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "locked_packages.pth").write_text("".join(f"{path}\n" for path in sorted(shared)))
    run(
        sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", wheel,
    )  # fmt: skip
    run(python, "-m", "pip", "check")
    where = run(python, "-c", "import bot; print(bot.__file__)", cwd=base).stdout.strip()
    assert Path(where).is_relative_to(site), f"bot imported from {where}, not from the wheel"
    return venv / "bin"


def test_the_wheel_ships_the_pictures_font_and_its_licence(installed: Path, tmp_path: Path) -> None:
    """Pictures need their font on any host: it is package data, with its licence beside it."""
    check = (
        "from bot.pictures.fonts import BOLD, LICENCE, REGULAR, font\n"
        "assert all(path.is_file() for path in (REGULAR, BOLD, LICENCE)), REGULAR\n"
        "assert 'Bitstream' in LICENCE.read_text()\n"
        "print(font(14, True).getlength('Щит'))\n"
    )
    done = run(installed / "python", "-c", check, cwd=tmp_path, env=clean_environment())
    assert float(done.stdout) > 0


def clean_environment() -> dict[str, str]:
    """This environment without Glory's settings, its source path or a language."""
    names = {name for name, _ in SETTINGS} | {"PYTHONPATH", "LC_ALL", "LC_MESSAGES", "LANG"}
    return {key: value for key, value in os.environ.items() if key not in names}


def test_help_and_version(installed: Path, tmp_path: Path) -> None:
    env = clean_environment()
    help_text = run(installed / "glory", "--help", cwd=tmp_path, env=env).stdout
    assert help_text.startswith("usage: glory ")
    for name, default in SETTINGS:
        assert f"\n  {name}\n" in help_text
        if default is not None:
            assert f"(default: {default})" in " ".join(help_text.split())
    version = run(installed / "glory", "--version", cwd=tmp_path, env=env).stdout
    assert version == f"glory {VERSION}\n"


async def test_starts_from_a_directory_with_only_a_env_file(
    installed: Path, tmp_path: Path
) -> None:
    home = tmp_path / "glory-home"
    home.mkdir()
    log_path = tmp_path / "glory.log"
    async with Emulator(token="installed-token") as emulator:
        (home / ".env").write_text(
            "DISCORD_TOKEN=installed-token\n"
            f"DISCORD_API_BASE={emulator.api_base}\n"
            f"DISCORD_GATEWAY_URL={emulator.gateway_url}\n"
            "HEALTH_FILE=alive\n"
        )
        with log_path.open("wb") as log:
            process = await asyncio.create_subprocess_exec(
                installed / "glory",
                cwd=home,
                env=clean_environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )

        def output() -> str:
            return log_path.read_text(errors="replace")

        def ready() -> bool:
            if process.returncode is not None:
                raise AssertionError(f"glory exited with {process.returncode}:\n{output()}")
            return "ready as" in output()

        try:
            await emulator.wait_for(ready, timeout=30, what="glory to be ready")
            alive = home / "alive"
            await emulator.wait_for(alive.exists, timeout=5, what="the health file")
            alice = emulator.add_actor("alice")
            answer = await (await alice.slash("table")).settled()
            assert answer is not None
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            status = await asyncio.wait_for(process.wait(), timeout=15)
        commands_put = command_puts(emulator)
        after_sync = await glory_sync(installed, home, emulator)
    text = output()
    assert status == 0, text
    assert "stopped cleanly on SIGTERM" in text
    summary = re.search(r"INFO bot: (Glory .*)", text)
    assert summary is not None, text
    assert summary.group(1) == (
        f"Glory {VERSION} ready as {emulator.bot_user.name} (id {emulator.bot_user.id}) in 1 "
        "server; games: Call to Glory, Kami, Clans and Glory; "
        "database: sqlite+aiosqlite:///./data/glory.db; "
        "commands: 18 registered globally (uploaded now); "
        f"invite: https://discord.com/oauth2/authorize?client_id={emulator.bot_user.id}"
        "&scope=bot+applications.commands&permissions=274878024704"
    )
    assert (home / "data" / "glory.db").is_file()
    # Quiet at the default level: no migration chatter, no voice warnings, no traceback.
    for noise in ("alembic", "voice will NOT be supported", "Traceback"):
        assert noise not in text, text
    assert len(commands_put) == 1  # a new database: registered at the first start
    assert after_sync == (0, 2, "Registered 18 slash commands for every server.\n")


def command_puts(emulator: Emulator) -> list[object]:
    return [call for call in emulator.calls("PUT") if call.path.endswith("/commands")]


async def glory_sync(installed: Path, home: Path, emulator: Emulator) -> tuple[int, int, str]:
    """``glory sync`` in ``home``: its exit status, the commands registered so far, its output
    (it must not connect to the gateway)."""
    identifies = emulator.gateway.stats.identifies
    sync = await asyncio.create_subprocess_exec(
        installed / "glory", "sync", cwd=home, env=clean_environment(),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(sync.communicate(), timeout=60)
    assert "Traceback" not in err.decode(), err.decode()
    assert emulator.gateway.stats.identifies == identifies
    return sync.returncode or 0, len(command_puts(emulator)), out.decode()


def _pins(lock: Path) -> dict[str, str]:
    """``name → version`` of a lock file's ``name==version`` lines (markers aside)."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in lock.read_text().splitlines():
        requirement = line.split("#")[0].split(";")[0].strip()
        if "==" in requirement:
            name, version = requirement.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


@pytest.mark.parametrize(
    ("lock", "extra"), [("requirements.lock", None), ("requirements-dev.lock", "dev")]
)
def test_the_lock_files_pin_every_dependency_within_its_range(lock: str, extra: str | None) -> None:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    if extra:
        wanted += project["optional-dependencies"][extra]
    pins = _pins(ROOT / lock)
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} lacks {requirement.name}: run make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {name}=={pins[name]}, outside {requirement.specifier}: run make lock"
        )


def test_procfile_platforms_install_the_lock() -> None:
    assert (ROOT / "Procfile").read_text().split() == ["worker:", "python", "-m", "bot"]
    lines = [
        line for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]  # fmt: skip
    assert lines == ["-r requirements.lock"]
