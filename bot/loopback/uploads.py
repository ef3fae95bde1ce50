"""The bytes of the files the bot uploads, kept in memory so a page can show them.

Discord keeps every attachment on its CDN and gives it a URL; the emulator keeps the newest
uploads (bounded by their total size, the oldest dropped first) and serves them at
``/_loopback/attachments/{key}/{filename}``, which is the ``url`` of the attachment in the
messages it returns. The playground (``bot/playground``) shows the pictures from here.

Why bounded by bytes rather than by count: a picture is 5-200 KB, a load benchmark uploads
thousands of them, and the emulator must keep flat memory however long it runs.
"""

from __future__ import annotations

import itertools
import mimetypes
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import quote

from aiohttp import web

ROUTE = "/_loopback/attachments/{key}/{filename}"
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Upload:
    """One uploaded file as the bot sent it."""

    key: str
    filename: str
    data: bytes

    @property
    def content_type(self) -> str:
        guessed, _ = mimetypes.guess_type(self.filename)
        return guessed or "application/octet-stream"


class UploadStore:
    """The newest uploads, at most ``max_bytes`` in all (``0`` keeps nothing)."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.total_bytes = 0
        self.dropped = 0
        """How many uploads were let go to stay within ``max_bytes``."""
        self._uploads: OrderedDict[str, Upload] = OrderedDict()
        self._keys = itertools.count(1)

    def __len__(self) -> int:
        return len(self._uploads)

    def keep(self, filename: str, data: bytes) -> Upload | None:
        """Remember ``data`` under a new key, dropping the oldest uploads to make room;
        ``None`` when one file alone is larger than the whole store."""
        if len(data) > self.max_bytes:
            return None
        upload = Upload(str(next(self._keys)), filename, data)
        self._uploads[upload.key] = upload
        self.total_bytes += len(data)
        while self.total_bytes > self.max_bytes:
            _, oldest = self._uploads.popitem(last=False)
            self.total_bytes -= len(oldest.data)
            self.dropped += 1
        return upload

    def get(self, key: str) -> Upload | None:
        return self._uploads.get(key)

    @staticmethod
    def url(host: str, upload: Upload) -> str:
        """Where the emulator serves ``upload`` (``host`` as the bot addressed the emulator)."""
        return f"http://{host}/_loopback/attachments/{upload.key}/{quote(upload.filename)}"

    @staticmethod
    def key_of(url: str) -> str | None:
        """The key in an attachment URL this store made (``None`` for any other URL)."""
        marker = "/_loopback/attachments/"
        if marker not in url:
            return None
        key = url.split(marker, 1)[1].split("/", 1)[0]
        return key if key.isdigit() else None

    def install(self, app: web.Application) -> None:
        app.router.add_get(ROUTE, self.serve)

    async def serve(self, request: web.Request) -> web.Response:
        """The file, as a CDN serves it; 404 once it was dropped (or never existed)."""
        upload = self.get(request.match_info["key"])
        if upload is None or upload.filename != request.match_info["filename"]:
            return web.Response(status=404, text="gone from the emulator's upload store")
        return web.Response(body=upload.data, content_type=upload.content_type)
