"""The page's server: static files, the state, a live event stream and the players' actions.

It listens on 127.0.0.1 only, and answers only its own page: a request naming another host
(DNS rebinding), coming from another origin (``Origin``, ``Sec-Fetch-Site``) or posting
anything but JSON (a plain HTML form on another site) is refused with 403, so no web page the
developer visits meanwhile can act in the playground or read it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

import orjson
from aiohttp import web

from bot.ai.autoplay import AI_LEVELS
from bot.i18n import catalog, placeholders, supported_locale, t
from bot.loopback import InteractionRecord, WaitTimeout

from .feed import PageFeed
from .session import PageRefusal, Playground
from .views import ATTACHMENTS_PATH

LOOPBACK = "127.0.0.1"
STATIC_FILES = {
    "index.html": "text/html",
    "playground.css": "text/css",
    "playground.js": "text/javascript",
}
TEXT_PREFIX = "playground.page."
KEEPALIVE_SECONDS = 15.0
SAFE_FETCH_SITES = frozenset({"same-origin", "none"})
PLAYGROUND = web.AppKey("playground", Playground)
FEED = web.AppKey("feed", PageFeed)
ORIGINS = web.AppKey("origins", set)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def page_locale(request: web.Request) -> str:
    """The page's language: ``?lang=``, else the browser's first language we have."""
    asked = request.query.get("lang")
    if asked:
        return supported_locale(asked)
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip()
        if code and supported_locale(code) == code.split("-")[0].lower():
            return supported_locale(code)
    return "en"


def page_texts(locale: str) -> dict[str, str]:
    """Every text the page shows, in ``locale``: references to commands filled in, the other
    ``{placeholders}`` kept for the page to fill."""
    texts = {}
    for key, message in catalog("en").items():
        if key.startswith(TEXT_PREFIX):
            kept = {name: "{" + name + "}" for name in placeholders(message)}
            texts[key[len(TEXT_PREFIX) :]] = t(key, locale, **kept)
    return texts


def json_answer(payload: Any, *, status: int = 200) -> web.Response:
    return web.Response(status=status, body=orjson.dumps(payload), content_type="application/json")


@web.middleware
async def same_origin_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse what did not come from this page (see the module's docstring)."""
    origins: set[str] = request.app[ORIGINS]
    hosts = {origin.split("://", 1)[1] for origin in origins}
    refused = request.host not in hosts
    origin = request.headers.get("Origin")
    if origin is not None and origin not in origins:
        refused = True
    if request.headers.get("Sec-Fetch-Site", "none") not in SAFE_FETCH_SITES:
        refused = True
    if request.method not in ("GET", "HEAD") and request.content_type != "application/json":
        refused = True
    if refused:
        page = sorted(origins)[0] if origins else ""
        text = t("playground.refused.origin", page_locale(request), page=page)
        return web.Response(status=403, text=text)
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def build_app(playground: Playground, feed: PageFeed) -> web.Application:
    app = web.Application(middlewares=[same_origin_only], client_max_size=256 * 1024)
    app[PLAYGROUND] = playground
    app[FEED] = feed
    app[ORIGINS] = set()
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/events", events)
    app.router.add_post("/api/players", add_player)
    app.router.add_post("/api/channels", add_channel)
    app.router.add_post("/api/act", act)
    app.router.add_post("/api/fill", fill)
    app.router.add_get(ATTACHMENTS_PATH + "/{key}/{filename}", attachment)
    return app


class PageServer:
    """The page on ``http://127.0.0.1:port`` (``port=0``: a free one, read ``.port``)."""

    def __init__(self, playground: Playground, port: int) -> None:
        self.playground = playground
        self.feed = PageFeed(playground)
        self.requested_port = port
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/"

    async def start(self) -> None:
        app = build_app(self.playground, self.feed)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, LOOPBACK, self.requested_port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        app[ORIGINS].update({f"http://{LOOPBACK}:{self.port}", f"http://localhost:{self.port}"})
        self.feed.start()

    async def stop(self) -> None:
        await self.feed.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> PageServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()


# -- routes ------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    return _static_file("index.html")


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        raise web.HTTPNotFound()
    return _static_file(name)


def _static_file(name: str) -> web.Response:
    body = resources.files("bot.playground").joinpath("static", name).read_bytes()
    return web.Response(
        body=body,
        content_type=STATIC_FILES[name],
        headers={
            "Cache-Control": "no-cache",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
            "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        },
    )


async def state(request: web.Request) -> web.Response:
    locale = page_locale(request)
    levels = [{"value": level, "label": t(f"ai.level.{level}", locale)} for level in AI_LEVELS]
    return json_answer(
        {
            **request.app[FEED].snapshot(),
            "texts": page_texts(locale),
            "locale": locale,
            "ai_levels": levels,
        }
    )


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: a snapshot first, then every change as it happens."""
    feed = request.app[FEED]
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    )
    await response.prepare(request)
    queue = feed.subscribe()
    try:
        await _send(response, [("snapshot", feed.snapshot())])
        while True:
            try:
                batch = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                await response.write(b": keepalive\n\n")
                continue
            await _send(response, batch)
    except ConnectionResetError:
        pass  # the page was closed
    finally:
        feed.unsubscribe(queue)
    return response


async def _send(response: web.StreamResponse, batch: list[tuple[str, dict[str, Any]]]) -> None:
    chunks = [b"event: %s\ndata: %s\n\n" % (n.encode(), orjson.dumps(d)) for n, d in batch]
    await response.write(b"".join(chunks))


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = orjson.loads(await request.read())
    except orjson.JSONDecodeError:
        raise PageRefusal("playground.refused.request") from None
    if not isinstance(body, dict):
        raise PageRefusal("playground.refused.request")
    return body


async def _answer(
    request: web.Request, work: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
) -> web.Response:
    """Run an action; a refusal becomes a 400 with its text in the page's language."""
    try:
        return json_answer(await work(await _body(request)))
    except PageRefusal as refusal:
        text = t(refusal.key, page_locale(request), **refusal.values)
        return json_answer({"error": text}, status=400)


async def add_player(request: web.Request) -> web.Response:
    playground = request.app[PLAYGROUND]

    async def work(body: dict[str, Any]) -> dict[str, Any]:
        actor = playground.add_player(str(body.get("name", "")), str(body.get("locale", "en-US")))
        return {"id": str(actor.user.id)}

    return await _answer(request, work)


async def add_channel(request: web.Request) -> web.Response:
    playground = request.app[PLAYGROUND]

    async def work(body: dict[str, Any]) -> dict[str, Any]:
        channel = await playground.add_channel(str(body.get("name", "")))
        return {"id": str(channel.id)}

    return await _answer(request, work)


async def act(request: web.Request) -> web.Response:
    """A slash command, a button click or a select choice by one player."""
    playground = request.app[PLAYGROUND]

    async def work(body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("kind")
        user = body.get("user_id")
        if kind == "slash":
            options = body.get("options") or {}
            if not isinstance(options, dict):
                raise PageRefusal("playground.refused.request")
            record = await playground.slash(
                user, str(body.get("command", "")), options, body.get("channel_id")
            )
        elif kind == "click":
            record = await playground.click(
                user, body.get("message_id"), str(body.get("custom_id", ""))
            )
        elif kind == "select":
            values = body.get("values")
            if not isinstance(values, list):
                raise PageRefusal("playground.refused.request")
            record = await playground.select(
                user, body.get("message_id"), str(body.get("custom_id", "")), values
            )
        else:
            raise PageRefusal("playground.refused.request")
        return await _answered(playground, record)

    return await _answer(request, work)


async def _answered(playground: Playground, record: InteractionRecord) -> dict[str, Any]:
    """Wait (within Discord's deadline) for the bot's answer, and say where the page will
    show it: the message the callback created or updated, and its revision then."""
    with contextlib.suppress(WaitTimeout):
        await record.response(timeout=playground.answer_timeout)
    message = record.response_message
    return {
        "interaction_id": str(record.id),
        "acknowledged": record.acknowledged,
        "response_message_id": None if message is None else str(message.id),
        "revision": 0 if message is None else len(message.history),
    }


async def fill(request: web.Request) -> web.Response:
    playground = request.app[PLAYGROUND]

    async def work(body: dict[str, Any]) -> dict[str, Any]:
        try:
            count = int(body.get("count", 1))
        except (TypeError, ValueError):
            raise PageRefusal("playground.refused.fill") from None
        seated, lobby = await playground.fill_with_ai(
            body.get("user_id"), body.get("channel_id"), count, str(body.get("level", ""))
        )
        return {
            "seated": seated,
            "response_message_id": str(lobby.id),
            "revision": len(lobby.history),
        }

    return await _answer(request, work)


async def attachment(request: web.Request) -> web.Response:
    upload = request.app[PLAYGROUND].emulator.uploads.get(request.match_info["key"])
    if upload is None or upload.filename != request.match_info["filename"]:
        raise web.HTTPNotFound()
    return web.Response(
        body=upload.data,
        content_type=upload.content_type,
        headers={"Cache-Control": "max-age=86400, immutable"},
    )
