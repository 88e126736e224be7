"""A webhook receiver nobody here wrote the checks of: every delivery is verified by the PyPI
`standardwebhooks` package (Standard Webhooks' reference library for Python), which checks the
signature and that the timestamp is within 5 minutes. The receiver answers as a test scripts it
(500 to the first N attempts, 410 always, a held answer) and records what came."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Delivery:
    def __init__(self, headers, body, status, verified):
        self.at = time.monotonic()
        self.headers = headers
        self.body = body
        self.status = status
        self.verified = verified
        self.id = headers.get("webhook-id")
        self.payload = json.loads(body) if verified else None


class WebhookReceiver:
    """Listens on a free loopback port; `url` is its address. `answer(n)` gives the status of
    the n-th attempt (0-based); `hold` seconds pass before each answer."""

    def __init__(self, secret, answer=lambda n: 200, hold=0.0):
        self.webhook = Webhook(secret)
        self.answer = answer
        self.hold = hold
        self.deliveries = []
        self.condition = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                try:
                    receiver.webhook.verify(body, headers)
                    verified = True
                except WebhookVerificationError:
                    verified = False
                with receiver.condition:
                    status = receiver.answer(len(receiver.deliveries)) if verified else 400
                    receiver.deliveries.append(Delivery(headers, body, status, verified))
                    receiver.condition.notify_all()
                if receiver.hold:
                    time.sleep(receiver.hold)
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else f"answered {status}".encode())

            def log_message(self, *args):
                pass

        class Listener(ThreadingHTTPServer):
            # A batch's 64 connections at once: the default backlog of 5 would drop SYNs.
            request_queue_size = 256

        self.server = Listener(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def successes(self):
        with self.condition:
            return [d for d in self.deliveries if d.verified and 200 <= d.status < 300]

    def wait_for(self, predicate, timeout, message):
        """Waits until predicate(deliveries) holds, at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while not predicate(self.deliveries):
                left = deadline - time.monotonic()
                assert left > 0, f"timed out waiting for {message}: {len(self.deliveries)} deliveries"
                self.condition.wait(min(left, 1))

    def close(self):
        self.server.shutdown()
        self.server.server_close()
