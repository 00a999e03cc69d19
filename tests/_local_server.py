"""An HTTP server for tests: 127.0.0.1 on a free port, served from a daemon thread, and
bounded: it shuts itself down after ``lifetime`` seconds even when a test hangs."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LocalServer:
    def __init__(self, handler: type[BaseHTTPRequestHandler], lifetime: float = 60.0) -> None:
        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:  # a client that gave up
                pass

        self.server = Server(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.killer = threading.Timer(lifetime, self.server.shutdown)
        self.killer.daemon = True

    def start(self):
        self.thread.start()
        self.killer.start()
        return self

    def stop(self) -> None:
        self.killer.cancel()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
