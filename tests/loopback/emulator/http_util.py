"""Response and request helpers shared by the REST routes.

discord.py parses a body as JSON only when ``Content-Type`` is exactly ``application/json``
(aiohttp's ``json_response`` appends a charset, which breaks login), so every JSON answer
goes through ``json_answer``.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

JSON_HEADERS = {"Content-Type": "application/json"}


def json_answer(
    payload: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    return web.Response(
        status=status,
        body=json.dumps(payload).encode(),
        headers={**JSON_HEADERS, **(headers or {})},
    )


def error_answer(status: int, code: int, message: str) -> web.Response:
    return json_answer({"code": code, "message": message}, status=status)


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> dict[str, Any] | list[Any] | None:
    """The request's JSON payload; for multipart uploads, ``payload_json`` plus file names.

    Attachments are recorded as ``{"id", "filename", "size"}`` entries so tests can see
    that a file was sent without the emulator storing its bytes.
    """
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: list[dict[str, Any]] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                data = await part.read()
                files.append({"filename": part.filename or part.name, "size": len(data)})
        if files:
            # An interaction callback declares its message's attachments under "data".
            target = payload["data"] if isinstance(payload.get("data"), dict) else payload
            declared = target.get("attachments") or []
            for index, file in enumerate(files):
                file_id = declared[index].get("id", index) if index < len(declared) else index
                file.update({"id": str(file_id), "url": "", "proxy_url": ""})
            target["attachments"] = files
        return payload
    raw = await request.read()
    return json.loads(raw) if raw else None
