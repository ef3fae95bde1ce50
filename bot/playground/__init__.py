"""Glory in the browser, without Discord: ``glory playground`` (docs/playground.md).

The real bot process plays against the loopback emulator (``bot/loopback``), and a small page
served on 127.0.0.1 shows the server's channel and every player's DMs the way Discord shows
them, and lets one person act as any player.

- ``session.py``: the emulator, the bot process and the players (``Playground``).
- ``feed.py``: what changed, as server-sent events for the page.
- ``views.py``: the messages as Discord's JSON, plus what a client knows beside it.
- ``web.py``: the page's server, answering only its own page.
- ``static/``: the page itself, rendering any embed, Components V2 tree, button and select.
- ``cli.py``: the command line. ``browser.py`` and ``shots.py``: the page in headless
  Chromium, for the tests and for the screenshots in docs/pictures/playground (development
  only: they need Playwright and a Chromium).
"""
