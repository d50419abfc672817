"""``belote serve`` in a real process: waitress (not Werkzeug's development server), its ``Server``
header, its read timeout, a port already in use, Ctrl+C and ``--proxy``."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
READ_TIMEOUT = 1  # seconds (BELOTE_READ_TIMEOUT): small, so that a stalled request is dropped quickly
START_DEADLINE = 30  # seconds a server may take to answer its first request (a loaded CI machine)


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int
    out: Path
    err: Path

    @property
    def address(self) -> tuple[str, int]:
        return "127.0.0.1", self.port

    def output(self) -> str:
        return self.out.read_text(encoding="utf-8") + self.err.read_text(encoding="utf-8")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(tmp_path: Path, *extra: str, port: int | None = None, name: str = "serve") -> Served:
    """``belote serve`` on a temporary archive; its output goes to files (a full pipe would block it)."""
    port = free_port() if port is None else port
    env = {**os.environ, "BELOTE_SECRET_KEY": "waitress-test", "BELOTE_READ_TIMEOUT": str(READ_TIMEOUT)}
    env.pop("BELOTE_PROXY_FIX", None)  # --proxy alone decides what is trusted here
    out, err = tmp_path / f"{name}.out", tmp_path / f"{name}.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "replayer.cli", "serve", "--db", str(tmp_path / "site.sqlite"),
             "--no-samples", "--port", str(port), *extra],
            stdout=stdout, stderr=stderr, cwd=ROOT, env=env)
    return Served(process, port, out, err)


def wait_until_it_answers(served: Served) -> None:
    deadline = time.monotonic() + START_DEADLINE
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            pytest.fail(f"belote serve exited with {served.process.returncode}: {served.output()}")
        try:
            with socket.create_connection(served.address, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"belote serve did not answer within {START_DEADLINE} s: {served.output()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Always: a server left running would outlive the tests."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Starts ``belote serve`` with the given options and waits until it answers."""
    started: list[Served] = []

    def _serve(*extra: str) -> Served:
        served = start(tmp_path, *extra, name=f"serve{len(started)}")
        started.append(served)
        wait_until_it_answers(served)
        return served

    try:
        yield _serve
    finally:
        for served in started:
            stop(served.process)


def request(address: tuple[str, int], method: str, path: str, body: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, str]:
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode("utf-8")
    finally:
        connection.close()


def test_the_site_is_served_by_a_production_server(serve) -> None:
    served = serve()
    status, headers, _ = request(served.address, "GET", "/")
    assert status == 200
    assert headers.get_all("Server") == ["belote"]  # no software, no version
    assert headers.get("Via") is None
    output = served.output()
    assert f"Serving on http://127.0.0.1:{served.port}/" in output
    assert "development server" not in output and "WARNING" not in output


def test_a_stalled_body_is_dropped_after_the_read_timeout(serve) -> None:
    served = serve()
    with socket.create_connection(served.address, timeout=READ_TIMEOUT + 20) as sock:
        sock.sendall(b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 1000\r\n\r\nhand N AS\n")  # 10 bytes of the 1000, then silence
        started = time.monotonic()
        while sock.recv(65536):  # until the server closes the connection (socket.timeout fails the test)
            pass
    # waitress sweeps idle connections every second: READ_TIMEOUT, a sweep, and a margin
    assert time.monotonic() - started < READ_TIMEOUT + 5
    assert request(served.address, "GET", "/")[0] == 200  # and the server still serves


def test_a_port_in_use_is_one_line_and_exit_status_2(serve, tmp_path: Path) -> None:
    first = serve()
    second = start(tmp_path, port=first.port, name="second")
    try:
        assert second.process.wait(timeout=START_DEADLINE) == 2
    finally:
        stop(second.process)
    assert second.out.read_text(encoding="utf-8") == ""
    assert re.fullmatch(rf"belote serve: error: cannot listen on 127\.0\.0\.1:{first.port}: .+\n",
                        second.err.read_text(encoding="utf-8"))
    assert request(first.address, "GET", "/")[0] == 200  # the first one is untouched


def test_ctrl_c_stops_the_server_cleanly(serve) -> None:
    served = serve()
    served.process.send_signal(signal.SIGINT)
    assert served.process.wait(timeout=15) == 0
    assert "Traceback" not in served.output()


# --- --proxy ---------------------------------------------------------------------------------
# The site builds no absolute URL from the request (its redirects are relative, the API's URLs
# come from SERVER_NAME), so what the forwarded headers change is what it compares and links:
# the CSRF check compares a POST's Origin with the host (X-Forwarded-Host, -Proto) and every
# link starts with the path the proxy mounts the site under (X-Forwarded-Prefix).

FORWARDED = {"X-Forwarded-Host": "club.example", "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
FROM_THE_CLUB = {**FORWARDED, "Origin": "https://club.example", "Content-Type": "text/plain"}
RECORD = (ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8")


def test_behind_a_proxy_a_post_from_the_public_host_passes_the_csrf_check(serve) -> None:
    served = serve("--proxy")
    status, _, body = request(served.address, "POST", "/api/validate", RECORD, FROM_THE_CLUB)
    assert status == 200, body


def test_without_proxy_the_forwarded_host_is_ignored(serve) -> None:
    served = serve()
    status, _, _ = request(served.address, "POST", "/api/validate", RECORD, FROM_THE_CLUB)
    assert status == 403  # the Origin is not 127.0.0.1:<port>, the host the request names


def test_behind_a_proxy_the_links_start_with_the_forwarded_prefix(serve) -> None:
    served = serve("--proxy")
    status, _, page = request(served.address, "GET", "/", headers={**FORWARDED, "X-Forwarded-Prefix": "/belote"})
    assert status == 200
    assert 'href="/belote/submit"' in page and 'href="/submit"' not in page


def test_without_proxy_the_forwarded_prefix_is_ignored(serve) -> None:
    served = serve()
    status, _, page = request(served.address, "GET", "/", headers={**FORWARDED, "X-Forwarded-Prefix": "/belote"})
    assert status == 200
    assert 'href="/submit"' in page and "/belote/" not in page
