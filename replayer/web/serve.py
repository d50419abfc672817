"""``belote serve``: run the site on the default archive (the samples are loaded on first run)."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="Archive file (default: belote.sqlite in the instance folder, or $BELOTE_DB).")
@click.option("--no-samples", is_flag=True, help="Do not load the samples into an empty archive.")
@click.option("--debug", is_flag=True, help="Flask debug mode (reloader and debugger): never on a public host.")
def serve_command(host: str, port: int, db_path: str | None, no_samples: bool, debug: bool) -> None:
    """Serve the archive and replay site (Werkzeug's server: for a single user or a small club)."""
    from . import create_app

    config: dict[str, object] = {}
    if db_path:
        config["DB"] = db_path
    if no_samples:
        config["LOAD_SAMPLES"] = False
    app = create_app(config)
    click.echo(f"Archive: {app.config['DB']}")
    click.echo(f"Serving on http://{host}:{port}/ (Ctrl+C to stop)")
    app.run(host=host, port=port, debug=debug, use_reloader=debug)
