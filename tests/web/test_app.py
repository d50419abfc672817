"""create_app's configuration, the samples loaded on first run, and ``belote serve``."""

from __future__ import annotations

import flask
import pytest
from click.testing import CliRunner
from werkzeug.middleware.proxy_fix import ProxyFix

from replayer.archive import Archive
from replayer.web import MEGABYTE, create_app, resource_dir
from replayer.web.db import sample_files
from replayer.web import serve
from replayer.web.serve import RequestHandler, serve_command

SAMPLE_FILES = 21  # samples/*.belote: 01-classic-round1.belote .. 21-club-coinche.belote
SAMPLE_RECORDS = 59  # the records they hold


def test_config_defaults(app):
    assert app.config["MAX_CONTENT_LENGTH"] == app.config["MAX_FORM_MEMORY_SIZE"] == 2 * MEGABYTE
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["LOAD_SAMPLES"] is True


def test_samples_are_the_valid_ones_only():
    names = [path.name for path in sample_files()]
    assert len(names) == SAMPLE_FILES and names[0] == "01-classic-round1.belote"
    assert names[-1] == "21-club-coinche.belote"
    assert all("invalid" not in str(path) for path in sample_files())
    assert (resource_dir("templates") / "base.html").is_file()
    assert (resource_dir("static") / "site.css").is_file()


def test_environment_and_test_config(tmp_path, monkeypatch):
    monkeypatch.setenv("BELOTE_DB", str(tmp_path / "from-env.sqlite"))
    monkeypatch.setenv("BELOTE_SECRET_KEY", "from-env")
    monkeypatch.setenv("BELOTE_LOAD_SAMPLES", "false")
    app = create_app()
    assert app.config["DB"] == str(tmp_path / "from-env.sqlite")
    assert app.config["SECRET_KEY"] == "from-env"
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == 0  # LOAD_SAMPLES false: an empty archive stays empty
    wins = create_app({"DB": str(tmp_path / "from-test.sqlite"), "SECRET_KEY": "t"})
    assert wins.config["DB"] == str(tmp_path / "from-test.sqlite")


def test_first_run_loads_the_samples_once(tmp_path):
    db = tmp_path / "first.sqlite"
    create_app({"DB": str(db), "SECRET_KEY": "t"})
    create_app({"DB": str(db), "SECRET_KEY": "t"})  # a second start imports nothing again
    with Archive(db) as archive:
        assert archive.count() == SAMPLE_RECORDS


def test_default_archive_and_secret_key_live_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("BELOTE_DB", raising=False)
    monkeypatch.delenv("BELOTE_SECRET_KEY", raising=False)
    monkeypatch.setattr(flask.Flask, "auto_find_instance_path", lambda self: str(tmp_path / "instance"))
    app = create_app({"LOAD_SAMPLES": False})
    assert app.config["DB"] == str(tmp_path / "instance" / "belote.sqlite")
    key = (tmp_path / "instance" / "secret_key").read_text()
    assert app.config["SECRET_KEY"] == key and len(key) == 64
    assert create_app({"LOAD_SAMPLES": False}).config["SECRET_KEY"] == key  # kept across restarts


def test_one_archive_per_request(app):
    from replayer.web.db import get_archive

    with app.test_request_context("/"):
        first = get_archive()
        assert get_archive() is first
    with app.test_request_context("/"):
        assert get_archive() is not first


class FakeServer:
    """What ``listen`` returns, without a socket: ``run`` records that the site was served."""

    def __init__(self, app: flask.Flask, port: int) -> None:
        self.app, self.effective_port, self.ran = app, port, False

    def run(self) -> None:
        self.ran = True


def _no_waitress(monkeypatch) -> list[tuple[str, int, FakeServer]]:
    listened: list[tuple[str, int, FakeServer]] = []

    def listen(app: flask.Flask, host: str, port: int) -> FakeServer:
        listened.append((host, port, FakeServer(app, port)))
        return listened[-1][2]

    monkeypatch.setattr(serve, "listen", listen)
    monkeypatch.setattr(flask.Flask, "run", lambda self, **kwargs: pytest.fail("Werkzeug's server without --debug"))
    return listened


def test_serve_command(tmp_path, monkeypatch):
    listened = _no_waitress(monkeypatch)
    monkeypatch.setenv("BELOTE_SECRET_KEY", "serve-test")
    db = tmp_path / "served.sqlite"
    result = CliRunner().invoke(serve_command, ["--port", "5099", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"Archive: {db}" in result.output
    assert "Serving on http://127.0.0.1:5099/" in result.output
    [(host, port, server)] = listened
    assert (host, port, server.ran, server.app.config["DB"]) == ("127.0.0.1", 5099, True, str(db))
    assert not isinstance(server.app.wsgi_app, ProxyFix)  # --proxy is off by default
    with Archive(db) as archive:
        assert archive.count() == SAMPLE_RECORDS


def test_waitress_options_follow_the_config():
    options = serve.waitress_options({"READ_TIMEOUT": 15, "MAX_CONTENT_LENGTH": 2 * MEGABYTE})
    assert options == {"ident": "belote", "channel_timeout": 15, "cleanup_interval": 1,
                       "clear_untrusted_proxy_headers": False, "max_request_body_size": 4 * MEGABYTE}
    assert serve.waitress_options({"READ_TIMEOUT": 0.5, "MAX_CONTENT_LENGTH": None})["channel_timeout"] == 1


def test_serve_with_proxy_trusts_one_proxy(tmp_path, monkeypatch):
    listened = _no_waitress(monkeypatch)
    monkeypatch.setenv("BELOTE_SECRET_KEY", "serve-test")
    result = CliRunner().invoke(serve_command, ["--db", str(tmp_path / "p.sqlite"), "--no-samples", "--proxy"])
    assert result.exit_code == 0, result.output
    fix = listened[0][2].app.wsgi_app
    assert isinstance(fix, ProxyFix)
    assert (fix.x_for, fix.x_proto, fix.x_host, fix.x_prefix, fix.x_port) == (1, 1, 1, 1, 0)


def test_serve_debug_uses_werkzeugs_server(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(flask.Flask, "run", lambda self, **kwargs: calls.append(kwargs))
    monkeypatch.setattr(serve, "listen", lambda *args: pytest.fail("waitress with --debug"))
    monkeypatch.setenv("BELOTE_SECRET_KEY", "serve-test")
    result = CliRunner().invoke(serve_command, ["--db", str(tmp_path / "d.sqlite"), "--no-samples", "--debug"])
    assert result.exit_code == 0, result.output
    [options] = calls
    handler = options.pop("request_handler")
    assert options == {"host": "127.0.0.1", "port": 5000, "debug": True, "use_reloader": True}
    assert issubclass(handler, RequestHandler) and handler.timeout == 15.0  # READ_TIMEOUT's default


def test_serve_without_samples(tmp_path, monkeypatch):
    listened = _no_waitress(monkeypatch)
    monkeypatch.setenv("BELOTE_SECRET_KEY", "serve-test")
    db = tmp_path / "empty.sqlite"
    result = CliRunner().invoke(serve_command, ["--db", str(db), "--no-samples", "--host", "0.0.0.0"])
    assert result.exit_code == 0 and "Serving on http://0.0.0.0:5000/" in result.output
    assert listened[0][:2] == ("0.0.0.0", 5000)
    with Archive(db) as archive:
        assert archive.count() == 0


def test_bad_port_is_a_usage_error():
    result = CliRunner().invoke(serve_command, ["--port", "70000"])
    assert result.exit_code == 2
