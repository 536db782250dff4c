"""The local web server of ``continual-arc view``: Starlette and uvicorn (the ``view`` extra).

Routes (every one a read of the catalog, but the two that play):

===============================  =====================================================================
``GET /``                        the page (``static/index.html``)
``GET /static/<file>``           the page's CSS and JavaScript, by name from the package's files only
``GET /mode.js``                 tells the page a server answers (playing is available)
``GET /api/<name>``              a document of [`Site`][continual_arc.view.site.Site] (the index, a
                                 run, its diagnostics, its memory, an instance's replay, a protocol)
``POST /api/play``               open a fresh instance to play: ``{"track", "task", "phase"}``
``POST /api/play/<token>``       one action on it: ``{"action": "submit", "grid": [[...]]}``,
                                 ``{"action": "request_demos"}`` or ``{"action": "give_up"}``
===============================  =====================================================================

The server binds 127.0.0.1 only, answers only requests addressed to that host (a page elsewhere
cannot reach it through a name that resolves here), sends a content security policy that allows
nothing from another origin, and never writes to the directories it was given.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..core.jsonable import as_json
from ..core.records import JSONObject
from .assets import CONTENT_TYPES, mode_script, static_files
from .play import PlayError, PlaySessions
from .site import NotFound, Site

__all__ = ["HOST", "ServerThread", "create_app", "serve"]

HOST = "127.0.0.1"
_HOSTS = ("127.0.0.1", "localhost")
_SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_MAX_BODY = 256 * 1024


def _json(value: object, status: int = 200) -> Response:
    body = json.dumps(value, separators=(",", ":"), allow_nan=False, default=as_json)
    return Response(body, status, headers=_SECURITY, media_type="application/json")


def _error(message: str, status: int) -> Response:
    return _json({"error": message}, status)


def _file(body: bytes | str, name: str) -> Response:
    suffix = "." + name.rsplit(".", 1)[-1]
    return Response(body, 200, headers=_SECURITY, media_type=CONTENT_TYPES[suffix])


async def _body(request: Request) -> JSONObject:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise PlayError("send JSON (content-type: application/json)")
    raw = await request.body()
    if len(raw) > _MAX_BODY:
        raise PlayError("the request is too large")
    try:
        value = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        raise PlayError("the request is not valid JSON") from None
    if not isinstance(value, dict):
        raise PlayError("the request must be a JSON object")
    body: JSONObject = value
    return body


def create_app(
    site: Site, sessions: PlaySessions | None = None, *, allowed_hosts: Sequence[str] = _HOSTS
) -> Starlette:
    """The viewer's application over ``site`` (playing through ``sessions``)."""
    files = static_files()
    plays = sessions or PlaySessions()

    def page(request: Request) -> Response:
        return _file(files["index.html"], "index.html")

    def mode(request: Request) -> Response:
        return _file(mode_script(live=True, runs=bool(site.catalog.runs)), "mode.js")

    def static(request: Request) -> Response:
        name = str(request.path_params["name"])
        if name not in files:
            return _error("not found", 404)
        return _file(files[name], name)

    def api(request: Request) -> Response:
        try:
            return _json(site.document(str(request.path_params["name"])))
        except NotFound as err:
            return _error(str(err), 404)

    async def start(request: Request) -> Response:
        try:
            body = await _body(request)
            return _json(plays.start(str(body.get("track")), str(body.get("task")), str(body.get("phase"))))
        except PlayError as err:
            return _error(str(err), 400)

    async def act(request: Request) -> Response:
        try:
            return _json(plays.act(str(request.path_params["token"]), await _body(request)))
        except PlayError as err:
            return _error(str(err), 400)

    routes = [
        Route("/", page),
        Route("/index.html", page),
        Route("/mode.js", mode),
        Route("/static/{name:path}", static),
        Route("/api/play", start, methods=["POST"]),
        Route("/api/play/{token}", act, methods=["POST"]),
        Route("/api/{name:path}", api),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    return Starlette(routes=routes, middleware=middleware)


def serve(site: Site, port: int, sessions: PlaySessions | None = None) -> None:
    """Serve the viewer on ``127.0.0.1:<port>`` until interrupted (playing through ``sessions``)."""
    uvicorn.run(create_app(site, sessions), host=HOST, port=port, log_level="warning")


class ServerThread:
    """The viewer served from a background thread (for tests and the benchmark); ``url`` once started.

    Args:
        site: what to serve.
        port: the port (0: any free one).
    """

    def __init__(self, site: Site, port: int = 0, sessions: PlaySessions | None = None) -> None:
        self.sessions = sessions or PlaySessions()
        config = uvicorn.Config(create_app(site, self.sessions), host=HOST, port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="continual-arc-view")
        self.url = ""

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the viewer's server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://{HOST}:{port}/"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
