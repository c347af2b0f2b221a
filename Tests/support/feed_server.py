#!/usr/bin/python3
"""A feed server for Herald's tests, on 127.0.0.1 only.

Serves files from a directory with ETag / Last-Modified and answers conditional requests
with 304. Special paths make the failures tests need:
  /status/N              answers HTTP N with an HTML body
  /slow/SECONDS/NAME     waits, then serves NAME
  /redirect/N/NAME       redirects N times, then serves NAME
  /big                   a 2 MiB body
Every request is appended as one JSON line to the log file. The server stops by itself after
--lifetime seconds, so a test that dies never leaves it running.
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import sys
import threading
import time


def make_handler(root, log_path):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def record(self):
            with open(log_path, "a") as log:
                log.write(json.dumps({"path": self.path, "headers": dict(self.headers.items())}) + "\n")

        def send_body(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def serve_file(self, name):
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                return self.send_body(404, b"<html>not found</html>", [("Content-Type", "text/html")])
            with open(path, "rb") as handle:
                body = handle.read()
            etag = '"%s"' % hashlib.sha1(body).hexdigest()
            modified = email.utils.formatdate(os.path.getmtime(path), usegmt=True)
            if self.headers.get("If-None-Match") == etag:
                return self.send_body(304, b"", [("ETag", etag)])
            self.send_body(200, body, [("Content-Type", "application/x-plist"), ("ETag", etag), ("Last-Modified", modified)])

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
            if parts[0] == "big":
                return self.send_body(200, b" " * (2 << 20), [("Content-Type", "application/x-plist")])
            self.serve_file("/".join(parts))

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=600)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(args.root, args.log))
    server.daemon_threads = True
    threading.Timer(args.lifetime, server.shutdown).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
