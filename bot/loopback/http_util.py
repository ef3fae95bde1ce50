"""Response and request helpers shared by the REST routes.

discord.py parses a body as JSON only when ``Content-Type`` is exactly ``application/json``
(aiohttp's ``json_response`` appends a charset, which breaks login), so every JSON answer
goes through ``json_answer``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from aiohttp import web

JSON_HEADERS = {"Content-Type": "application/json"}


def json_answer(
    payload: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    return web.Response(
        status=status,
        body=orjson.dumps(payload),
        headers={**JSON_HEADERS, **(headers or {})},
    )


def error_answer(status: int, code: int, message: str) -> web.Response:
    return json_answer({"code": code, "message": message}, status=status)


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[Any, Any]:
    """``(sent, body)``: the request's JSON payload as sent (for multipart uploads, the
    ``payload_json`` part), and the body the emulator works with, in which a multipart upload's
    attachments are the files that came with it.

    Attachments are recorded as ``{"id", "filename", "size", "url", "proxy_url"}`` entries so
    tests can see that a file was sent without the emulator storing its bytes. ``sent`` is left
    as it was (the contract is checked on it, ``openapi.py``).
    """
    raw = await request.read()
    boundary = _multipart_boundary(request.headers.get("Content-Type", ""))
    if boundary is None:
        body = orjson.loads(raw) if raw else None
        return body, body
    sent: dict[str, Any] = {}
    files: list[dict[str, Any]] = []
    for name, filename, data in _multipart_parts(raw, boundary):
        if name == "payload_json":
            sent = orjson.loads(data)
        else:
            files.append({"filename": filename or name, "size": len(data)})
    if not files:
        return sent, sent
    # An interaction callback declares its message's attachments under "data".
    payload = dict(sent)
    if isinstance(payload.get("data"), dict):
        target = payload["data"] = dict(payload["data"])
    else:
        target = payload
    declared = target.get("attachments") or []
    for index, file in enumerate(files):
        file_id = declared[index].get("id", index) if index < len(declared) else index
        file.update({"id": str(file_id)})
    target["attachments"] = files
    return sent, payload


def _multipart_boundary(content_type: str) -> bytes | None:
    """The boundary of a ``multipart/form-data`` body, or ``None`` for any other body.

    Read by hand: aiohttp parses ``Content-Type`` and every part's headers with the standard
    library's e-mail parser, which took about a quarter of the emulator's CPU in
    ``benchmarks/bot_load.py`` once every table and hand came with a picture."""
    kind, _, parameters = content_type.partition(";")
    if not kind.strip().lower().startswith("multipart/"):
        return None
    for parameter in parameters.split(";"):
        key, _, value = parameter.strip().partition("=")
        if key.lower() == "boundary":
            return value.strip('"').encode()
    raise web.HTTPBadRequest(text="multipart body without a boundary")


def _multipart_parts(body: bytes, boundary: bytes) -> Iterator[tuple[str, str | None, bytes]]:
    """``(name, filename, data)`` of each part of a ``multipart/form-data`` body."""
    delimiter = b"--" + boundary
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            return
        head, separator, data = chunk.partition(b"\r\n\r\n")
        if not separator or not data.endswith(b"\r\n"):
            raise web.HTTPBadRequest(text="malformed multipart part")
        disposition = _header(head, b"content-disposition")
        name = _parameter(disposition, "name")
        if name is None:
            raise web.HTTPBadRequest(text="multipart part without a name")
        yield name, _parameter(disposition, "filename"), data[:-2]
    raise web.HTTPBadRequest(text="multipart body without its closing delimiter")


def _header(head: bytes, wanted: bytes) -> str:
    for line in head.split(b"\r\n"):
        key, _, value = line.partition(b":")
        if key.strip().lower() == wanted:
            return value.strip().decode()
    return ""


def _parameter(header: str, wanted: str) -> str | None:
    for parameter in header.split(";")[1:]:
        key, _, value = parameter.strip().partition("=")
        if key.lower() == wanted:
            return value.strip('"')
    return None
