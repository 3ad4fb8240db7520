"""``tableref serve``: the service with uvicorn; with no configuration, a demo table."""

from __future__ import annotations

import argparse

from tableref.errors import UserError


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise UserError("the service needs the 'serve' extra: pip install 'tableref[serve]'") from None
    from tableref.api.app import create_app
    from tableref.api.settings import Settings, resolve_token

    settings = Settings.from_env(host=args.host, port=args.port, data_dir=args.data_dir)
    app = create_app(settings)
    token = resolve_token(settings)
    print(f"tableref: serving on http://{settings.host}:{settings.port}/  (data in {settings.data_dir})")
    print(f"tableref: referee tablet: http://{settings.host}:{settings.port}/#token={token}")
    # No per-message deflate: each tablet's connection would compress every message on its own
    # (zlib per message per client), about a fifth of the server's CPU with 200 tablets on a LAN
    # where the small JSON messages gain nothing from it.
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning",
                ws_max_size=settings.max_message_bytes * 4, ws_per_message_deflate=False)
    return 0
