"""The viewer's server: its documents, what it refuses (path traversal, other hosts), playing, no writes."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from view_support import records, snapshot

pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")
from starlette.testclient import TestClient

from continual_arc.core.environment import EnvSettings
from continual_arc.tracks.registry import get_track
from continual_arc.view.app import ServerThread, create_app
from continual_arc.view.catalog import build_catalog
from continual_arc.view.play import PLAY_SEED_BASE, PlaySessions
from continual_arc.view.site import Site


@pytest.fixture
def client(results: Path) -> TestClient:
    return TestClient(create_app(Site(build_catalog([results]), live=True)), base_url="http://127.0.0.1")


def test_the_page_and_its_documents(client: TestClient, results: Path) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<canvas id="strip"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/mode.js").text.strip() == 'window.CAV_MODE = {"kind": "live", "runs": true};'
    assert client.get("/static/js/strip.js").headers["content-type"].startswith("text/javascript")
    index = client.get("/api/index").json()
    assert index["live"] is True and len(index["runs"]) == 7
    random = next(r for r in index["runs"] if r["label"] == "results/random")
    rows = records(results / "random")
    assert random["budget_used"] == pytest.approx(100 * sum(r["charge"] for r in rows) / (16 * len(rows)))
    replay = client.get(f"/api/run/{random['id']}/i/{rows[2]['step']}").json()
    assert replay["record"]["seed"] == rows[2]["seed"]


def test_an_instance_the_run_does_not_hold_is_404_with_a_json_error(
    client: TestClient, results: Path
) -> None:
    random = next(r for r in client.get("/api/index").json()["runs"] if r["label"] == "results/random")
    missing = 1 + max(r["step"] for r in records(results / "random"))
    reply = client.get(f"/api/run/{random['id']}/i/{missing}")
    assert reply.status_code == 404 and reply.headers["content-type"] == "application/json"
    assert reply.json() == {
        "error": f"run {random['id']} has no instance {missing}: no record and no trajectory"
    }


@pytest.mark.parametrize(
    "url",
    [
        "/api/run/r0/i/..%2F..%2Fmeta",
        "/api/run/r0/i/%2e%2e%2f%2e%2e%2fmeta",
        "/api/run/r0/i/..%2Fi%2F0",
        "/api/run/r0%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/..%2F..%2Fpyproject.toml",
        "/static/..%2F..%2F..%2F..%2Fpyproject.toml",
        "/static/%2e%2e/app.py",
        "/static/viewer.css%00.py",
        "/api/run/r0/i/%2Fetc%2Fpasswd",
        "/api/run/r99",
    ],
)
def test_path_traversal_is_refused(client: TestClient, url: str) -> None:
    reply = client.get(url)
    assert reply.status_code == 404
    assert "root:" not in reply.text and "[project]" not in reply.text


def _raw_get(url: str, path: str, host: str = "127.0.0.1") -> tuple[int, bytes]:
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1]), data


def test_traversal_over_a_real_socket_and_other_hosts(results: Path) -> None:
    with ServerThread(Site(build_catalog([results / "random"]), live=True)) as server:
        assert server.url.startswith("http://127.0.0.1:")
        for path in (
            "/static/../../../../../../etc/passwd",
            "/api/run/r0/i/../../meta",
            "/../pyproject.toml",
        ):
            status, body = _raw_get(server.url, path)
            assert status == 404 and b"root:" not in body, path
        assert _raw_get(server.url, "/api/index")[0] == 200
        assert _raw_get(server.url, "/api/index", host="attacker.example")[0] == 400  # a rebound name


def _answer(start: dict[str, Any]) -> list[list[int]]:
    env: Any = get_track(start["track"]).open(start["phase"], start["task"], start["seed"], EnvSettings())
    return [list(row) for row in env.instance.output]


def test_playing_a_fresh_instance_to_a_win_and_a_loss(results: Path) -> None:
    sessions = PlaySessions()
    client = TestClient(
        create_app(Site(build_catalog([results]), live=True), sessions), base_url="http://127.0.0.1"
    )
    task = records(results / "random")[0]["task_id"]
    start = client.post("/api/play", json={"track": "toy", "task": task, "phase": "stream"}).json()
    assert PLAY_SEED_BASE * 10**15 <= start["seed"] < (PLAY_SEED_BASE + 1) * 10**15 <= 2**53  # exact in JS
    assert set(start) == {"token", "track", "task", "phase", "seed", "kind", "input", "demo_cap", "rules"}
    token = start["token"]
    demo = client.post(f"/api/play/{token}", json={"action": "request_demos"}).json()
    assert demo["feedback"]["spent"] == 1 and len(demo["feedback"]["pair"]) == 2
    wrong = client.post(f"/api/play/{token}", json={"action": "submit", "grid": start["input"]}).json()
    assert wrong["feedback"]["correct"] is False and set(wrong["feedback"]) == {
        "feedback", "correct", "attempts_used", "spent", "done", "invalid"}  # fmt: skip
    right = client.post(f"/api/play/{token}", json={"action": "submit", "grid": _answer(start)}).json()
    assert right["done"] and right["result"]["solved"] and right["result"]["charge"] == 2
    again = client.post(f"/api/play/{token}", json={"action": "give_up"})
    assert again.status_code == 400 and "has ended" in again.json()["error"]
    lost = client.post("/api/play", json={"track": "toy", "task": task, "phase": "stream"}).json()
    assert lost["seed"] != start["seed"]
    gave_up = client.post(f"/api/play/{lost['token']}", json={"action": "give_up"}).json()
    assert gave_up["result"] == {**gave_up["result"], "solved": False, "charge": 16, "end": "gave up"}
    for reply in (start, demo, wrong, right, lost, gave_up):
        assert "output" not in json.dumps(reply)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"track": "nowhere", "task": "x", "phase": "stream"}, "no track named"),
        ({"track": "toy", "task": "no-such-task", "phase": "stream"}, "no-such-task"),
        ({"track": "toy", "task": "toy-d1-c1", "phase": "later"}, "unknown phase"),
    ],
)
def test_plays_that_cannot_be_served(client: TestClient, body: dict[str, str], error: str) -> None:
    reply = client.post("/api/play", json=body)
    assert reply.status_code == 400 and error in reply.json()["error"]


def test_bad_actions(client: TestClient) -> None:
    token = client.post("/api/play", json={"track": "toy", "task": "toy-d1-c1", "phase": "stream"}).json()[
        "token"
    ]
    assert client.post(f"/api/play/{token}", json={"action": "cheat"}).status_code == 400
    assert client.post(f"/api/play/{token}", json={"action": "submit", "grid": "[[1]]"}).status_code == 400
    assert client.post(f"/api/play/{token}", content=b"action=give_up").status_code == 400
    assert client.post("/api/play/not-a-token", json={"action": "give_up"}).status_code == 400
    invalid = client.post(f"/api/play/{token}", json={"action": "submit", "grid": [[1, 2], [3]]}).json()
    assert invalid["feedback"]["correct"] is False and invalid["feedback"]["invalid"]


def test_the_server_never_writes_to_what_it_serves(results: Path) -> None:
    before = snapshot(results)
    catalog = build_catalog([results])
    client = TestClient(create_app(Site(catalog, live=True)), base_url="http://127.0.0.1")
    for name in Site(catalog, live=True).names():
        assert client.get(f"/api/{name}").status_code == 200, name
    assert snapshot(results) == before
