#!/usr/bin/env python3
"""Host side of the bulk-integrity test: an HTTP server on 127.0.0.1 only.

  GET  /blob/<bytes>   streams that many random bytes; remembers their SHA-256
  GET  /sha/last       the SHA-256 (hex) of the last blob fully sent
  POST /upload         reads the body, answers "<sha256 hex> <length>"

and, on a second port, a raw TCP sink: it reads a connection until the client shuts down
its sending side, then answers "<sha256 hex> <length>" (busybox wget cannot post binary data);
and, on a third, a UDP listener that appends every datagram to the file named by argv[1]
(netconsole's output, for the netpoll test).

Guests reach it through QEMU user networking as 10.0.2.2:<port>. Prints "<http port> <sink
port> <udp port>" on stdout, then serves until killed.
"""
import hashlib
import http.server
import os
import socketserver
import sys
import threading

CHUNK = 1 << 16
last_sha = {"hex": "none"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # keep the harness output clean
        pass

    def do_GET(self):
        if self.path.startswith("/blob/"):
            try:
                n = int(self.path[len("/blob/"):])
            except ValueError:
                self.send_error(400)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            h = hashlib.sha256()
            left = n
            while left:
                b = os.urandom(min(CHUNK, left))
                h.update(b)
                self.wfile.write(b)
                left -= len(b)
            self.wfile.flush()
            last_sha["hex"] = h.hexdigest()
        elif self.path == "/sha/last":
            body = (last_sha["hex"] + "\n").encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        h = hashlib.sha256()
        got = 0
        while got < n:
            b = self.rfile.read(min(CHUNK, n - got))
            if not b:
                break
            h.update(b)
            got += len(b)
        body = f"{h.hexdigest()} {got}\n".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class Sink(socketserver.BaseRequestHandler):
    def handle(self):
        h = hashlib.sha256()
        got = 0
        while True:
            b = self.request.recv(CHUNK)
            if not b:
                break
            h.update(b)
            got += len(b)
        self.request.sendall(f"{h.hexdigest()} {got}\n".encode())


class SinkServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


class UdpLog(socketserver.BaseRequestHandler):
    def handle(self):
        data = self.request[0]
        with open(self.server.path, "ab") as f:
            f.write(data)


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    sink = SinkServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    udp = socketserver.UDPServer(("127.0.0.1", 0), UdpLog)
    udp.path = sys.argv[1] if len(sys.argv) > 1 else os.devnull
    threading.Thread(target=udp.serve_forever, daemon=True).start()
    print(srv.server_address[1], sink.server_address[1], udp.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
