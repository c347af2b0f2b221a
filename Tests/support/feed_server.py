#!/usr/bin/python3
"""A feed server for Herald's tests, on 127.0.0.1 only.

Serves files from a directory with ETag / Last-Modified and answers conditional requests
with 304. Special paths make the failures tests need:
  /status/N              answers HTTP N with an HTML body
  /slow/SECONDS/NAME     waits, then serves NAME
  /redirect/N/NAME       redirects N times, then serves NAME
  /to/TARGET             redirects to TARGET, a percent-encoded absolute URL (to another server)
  /loop                  redirects to itself, forever
  /loop/N                the same with status N (301, 302, 303, 307 or 308)
  /big                   a 2 MiB body
  /unsized/NAME          serves NAME without a Content-Length: the body ends when the
                         connection closes
A file NAME.status beside NAME, holding a status code, makes NAME answer that status every
time, conditional or not (a misconfigured server or CDN); the file's further lines, each
"Name: value", are headers sent with it (say, "Retry-After: 120" under a 429). Statuses 204
and 304 carry no body.
With --tls CERT KEY it serves https with that certificate (PEM files) instead of plain http.
Every request is appended as one JSON line to the log file ({"path", "headers"}); a TLS
handshake that fails (say, because the client refused the certificate) is logged as
{"tls-error": reason}. Connections time out after 30 s of silence, and the server stops by
itself after --lifetime seconds, so a test that dies never leaves it running.
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

CONNECTION_TIMEOUT = 30
LOG_LOCK = threading.Lock()


def append_log(log_path, entry):
    with LOG_LOCK, open(log_path, "a") as log:
        log.write(json.dumps(entry) + "\n")


def make_handler(root, log_path):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = CONNECTION_TIMEOUT

        def setup(self):
            super().setup()
            if isinstance(self.request, ssl.SSLSocket):
                # In this connection's thread, so a client that stalls or refuses the
                # certificate holds up no one else.
                self.request.do_handshake()

        def log_message(self, *args):
            pass

        def record(self):
            append_log(log_path, {"path": self.path, "headers": dict(self.headers.items())})

        def send_body(self, status, body, headers=(), sized=True):
            if status in (204, 304):
                body = b""
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if sized:
                self.send_header("Content-Length", str(len(body)))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            self.wfile.write(body)

        def serve_file(self, name, sized=True):
            path = os.path.join(root, name)
            if os.path.isfile(path + ".status"):
                with open(path + ".status") as handle:
                    lines = handle.read().strip().split("\n")
                headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
                return self.send_body(int(lines[0]), b"<html><body>answer</body></html>", [("Content-Type", "text/html")] + headers)
            if not os.path.isfile(path):
                return self.send_body(404, b"<html>not found</html>", [("Content-Type", "text/html")])
            with open(path, "rb") as handle:
                body = handle.read()
            etag = '"%s"' % hashlib.sha1(body).hexdigest()
            modified = email.utils.formatdate(os.path.getmtime(path), usegmt=True)
            if self.headers.get("If-None-Match") == etag:
                return self.send_body(304, b"", [("ETag", etag)])
            self.send_body(200, body, [("Content-Type", "application/x-plist"), ("ETag", etag), ("Last-Modified", modified)], sized)

        def do_GET(self):
            self.record()
            parts = self.path.lstrip("/").split("/")
            if parts[0] == "status":
                return self.send_body(int(parts[1]), b"<html><body>error</body></html>", [("Content-Type", "text/html")])
            if parts[0] == "slow":
                time.sleep(min(float(parts[1]), 30))
                return self.serve_file("/".join(parts[2:]))
            if parts[0] == "redirect":
                count = int(parts[1])
                target = "/".join(parts[2:])
                location = "/redirect/%d/%s" % (count - 1, target) if count > 1 else "/" + target
                return self.send_body(302, b"", [("Location", location)])
            if parts[0] == "to" and len(parts) > 1:
                target = urllib.parse.unquote("/".join(parts[1:]))
                return self.send_body(302, b"", [("Location", target)])
            if parts[0] == "loop":
                status = int(parts[1]) if len(parts) > 1 else 302
                return self.send_body(status, b"", [("Location", self.path)])
            if parts[0] == "unsized":
                return self.serve_file("/".join(parts[1:]), sized=False)
            if parts[0] == "big":
                return self.send_body(200, b" " * (2 << 20), [("Content-Type", "application/x-plist")])
            self.serve_file("/".join(parts))

    return Handler


class Server(http.server.ThreadingHTTPServer):
    """Serves each connection on its own thread; with a TLS context, over TLS."""
    daemon_threads = True

    def __init__(self, handler, log_path, context=None):
        super().__init__(("127.0.0.1", 0), handler)
        self.log_path = log_path
        self.context = context

    def get_request(self):
        sock, address = super().get_request()
        if self.context is None:
            return sock, address
        # The handshake happens in the connection's thread (Handler.setup), never here.
        sock.settimeout(CONNECTION_TIMEOUT)
        return self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, (ssl.SSLError, ssl.SSLEOFError)):
            append_log(self.log_path, {"tls-error": getattr(error, "reason", None) or str(error)})
        elif not isinstance(error, (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=600)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate and key (PEM)")
    args = parser.parse_args()
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(args.tls[0], args.tls[1])
        except ssl.SSLError as error:
            if error.reason != "CA_MD_TOO_WEAK":
                raise
            # A certificate signed with SHA-1 on purpose, to see the client refuse it: serve it.
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.load_cert_chain(args.tls[0], args.tls[1])
    server = Server(make_handler(args.root, args.log), args.log, context)
    threading.Timer(args.lifetime, server.shutdown).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
