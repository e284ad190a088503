#!/usr/bin/env python3
"""Ferry's scriptable HTTP/1.1 fault server for integration tests.

Start:  python3 fault_server.py --port 0 [--verbose] [--exit-on-stdin-eof]

Binds 127.0.0.1 only. The first line on stdout is ``PORT <n>`` (flushed); nothing else is
ever written to stdout. stderr stays quiet unless --verbose. SIGTERM (or SIGINT) stops the
server; with --exit-on-stdin-eof it also stops when its standard input reaches end of file,
so a test process that dies without stopping it does not leave it behind.

Every endpoint is driven by query parameters and is deterministic. HTTP/1.1 keep-alive is
honoured: every response carries Content-Length unless a fault says otherwise (then the
connection is closed after it). Request bodies are read with Content-Length or
``Transfer-Encoding: chunked``; ``Expect: 100-continue`` gets ``100 Continue`` (except on
/reject). Endpoints that do not use the body still read and discard it before answering.

THE BYTE PATTERN (reproduce it in tests; FerryTestSupport's ``Pattern`` does):
    k       = i >> 11                                      (2 KiB block index)
    h       = ((k XOR (seed * 40503)) * 2654435761) mod 2**32
    byte[i] = (i * 131 + (h >> 24)) mod 256
  Within a 2 KiB block the bytes step by 131 (odd, so any 256 consecutive bytes of a block
  are all different); every block gets its own offset from a multiplicative hash of its
  index, so the stream has no period at power-of-two distances (a misplaced buffer shows).
  seed is a non-negative integer (default 0); only its low 32 bits matter.

ENDPOINTS
  GET|HEAD /bytes/<n>?seed=<s>
      n bytes of the pattern. Content-Type application/octet-stream (``ctype=`` overrides),
      strong ETag "<n>-<seed>" (``etag=<value>`` sends that value verbatim, ``etag=none``
      omits it), Last-Modified "Mon, 02 Jan 2023 03:04:05 GMT" (``lastmod=<HTTP-date>`` or
      ``lastmod=<unix seconds>`` overrides, ``lastmod=none`` omits), Accept-Ranges: bytes.
      ``cd=<Content-Disposition value>`` is sent verbatim (URL-decode it; raw UTF-8 allowed).
      Range: one ``bytes=a-b``, ``bytes=a-`` or ``bytes=-k`` -> 206 with
      ``Content-Range: bytes a-b/n``; a start at or past n -> 416 with
      ``Content-Range: bytes */n``; several ranges or bad syntax -> Range ignored (200).
      If-Range: a quoted entity tag is compared strongly with the ETag, anything else
      exactly with the Last-Modified string; a mismatch -> the full 200.
      Faults:
        ignore_range=1        always 200 with the full body (no Accept-Ranges header).
        drop_after=K          headers (full Content-Length), K body bytes, then close.
        drop_rst=1            with drop_after/stall_after: close with a TCP reset instead
                              of a FIN.
        stall_after=K         K body bytes, then send nothing until ``stall_for=S`` seconds
                              (default 120) pass or the client goes away; then close.
        claim_length=L        Content-Length header is L verbatim (may be larger than the
                              body, negative or not a number); the real body, then close.
        drop_times=M&key=X    drop_after/stall_after/claim_length apply only to the first M
                              requests carrying key X; later ones are served fully.
        drip=B                send at B bytes per second, in small chunks.
        hold=G&hold_after=K   K body bytes (default 0), then nothing until the test opens
                              gate G (POST /_open?gate=G), then the rest: a transfer that
                              ends when the test says. When the client goes away, or
                              ``hold_for=S`` seconds (default 120) pass first, the connection
                              is closed instead.
        no_length=1           no Content-Length; the body ends when the connection closes.
        range_start_offset=D  a lying server: a range request a-b is answered with
                              bytes (a+D)-(b+D) (clamped), and Content-Range says so.
        range_total=T         Content-Range total is T instead of n (also on 416).
        range_200=1           says Accept-Ranges: bytes, yet answers every Range with the full
                              200 (a server whose ranges work on some connections only).
        drip_range=B&key=X    the first request carrying key X with a Range that starts past
                              0 is sent at B bytes per second; the others at full speed.
        ignore_if_range=1     a Range is served as 206 even when If-Range does not match
                              (some servers do: the client must compare the validators).
        partial_unasked=K     a request without Range gets a 206 with bytes K..n-1 and
                              ``Content-Range: bytes K-(n-1)/n`` (an answer to no question).
        huge_header=L         adds a header line ``X-Huge`` whose value is L bytes long.
        bad_chunked=1         the body is sent chunked with a chunk size that is not hex
                              after the first chunk, then the connection is closed.

  ANY /status/<code>?body=<text>&retry_after=<s>&ctype=<type>&location=<url>&header=<N: V>
      That status with that body (default "<code> <reason>\\n", text/plain), Retry-After
      and Location when given; ``header=`` (repeatable) adds a raw header line.

  ANY /redirect/<n>?to=<path or absolute URL>&code=302
      A chain of n redirects (Location /redirect/<n-1>?<same query>) ending at ``to``
      (default /status/200). ``code`` is 301, 302, 303, 307 or 308.
  ANY /redirect-loop?code=302
      Redirects to itself forever.

  GET /digest/<n>?user=U&pass=P&realm=R
      HTTP Digest authentication (RFC 7616, MD5, qop=auth): without a valid
      ``Authorization: Digest`` for U and P, 401 with a ``WWW-Authenticate: Digest``
      challenge; with one, n bytes of the pattern as /bytes/<n> serves them.

  ANY /echo
      JSON {method, path, query (raw string), http_version, headers: [[name, value], ...]
      in arrival order, body_length, body_sha256, body (text when <= 64 KiB and valid
      UTF-8, else null)}.

  PUT|POST /sink
      Streams the body into SHA-256 (1 MiB reads, nothing kept) and replies JSON
      {length, sha256}.

  POST /multipart
      Parses multipart/form-data with Python's email package (BytesParser, policy HTTP)
      and replies JSON {fields: {name: value}, field_list: [[name, value], ...],
      files: [{name, filename, content_type, length, sha256}], parts, boundary}.
      400 with a message when parsing fails, the parser reports a defect, or the body
      length differs from Content-Length. The body is held in memory: use /sink for huge
      bodies.

  ANY /reject/<code>
      Replies at once with that status and ``Connection: close`` without reading the body
      and without ``100 Continue``; afterwards it drains (discards) whatever the client
      still sends for up to 2 s so the client can read the reply instead of a reset.

  Any path, any endpoint: ``key=X&times=M&then=<path?query>`` -> after the first M
  (default 1) requests carrying key X, requests with it are served as if ``then`` had been
  requested (so "503 twice, then the file" is /status/503?key=a&times=2&then=/bytes/100).

  GET /_log?prefix=/bytes
      JSON list of the requests seen so far whose path starts with prefix (default all):
      {seq, method, path (with query), headers: [[name, value], ...], body_read (bytes of
      request body read), body_complete, client_port (the client's TCP port: requests on one
      connection share it)}. Paths starting with /_ are not logged.
  GET /_count?key=X
      JSON {key, count}: how many requests carried key X.
  POST /_open?gate=G
      Opens gate G: requests held on it (``hold=G``) go on, and later ones are not held.
  POST /_reset
      Forgets the log and the key counters.

  -- replies to uploads and server text --
  ANY /reply/<n>?code=200&reason=<text>&ctype=<type>&seed=<s>&chunked=1&body=<text>
      Reads and discards the request body, then answers ``code`` (default 200) with n bytes
      of the pattern, streamed (nothing held in memory), Content-Type ``ctype`` (default
      application/octet-stream). ``reason=`` is the status line's reason phrase, sent
      verbatim (control characters included: a hostile server). ``chunked=1`` sends the
      body with chunked transfer encoding instead of Content-Length. ``body=`` sends that
      text instead of the pattern (n is then ignored).
"""

import argparse
import email.parser
import email.policy
import email.utils
import hashlib
import json
import os
import re
import select
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

VERBOSE = False
STOPPING = threading.Event()

# --- the byte pattern --------------------------------------------------------------------

BLOCK = 2048
_BASE = bytes((j * 131) & 0xFF for j in range(BLOCK))
_BLOCKS = [_BASE.translate(bytes((b + c) & 0xFF for b in range(256))) for c in range(256)]


def block_offset(k, seed):
    """The offset added to every byte of block k (see the module docstring)."""
    return (((k ^ (seed * 40503)) * 2654435761) & 0xFFFFFFFF) >> 24


def pattern_chunks(start, length, seed, chunk=256 * 1024):
    """Yields the pattern bytes [start, start+length) in chunks of about `chunk` bytes."""
    pos, end = start, start + length
    parts, size = [], 0
    while pos < end:
        k, j = pos >> 11, pos & (BLOCK - 1)
        take = min(BLOCK - j, end - pos)
        block = _BLOCKS[block_offset(k, seed)]
        parts.append(block if take == BLOCK else block[j:j + take])
        size += take
        pos += take
        if size >= chunk:
            yield b"".join(parts)
            parts, size = [], 0
    if parts:
        yield b"".join(parts)


# --- shared state ------------------------------------------------------------------------


class State:
    """The request log and the per-key counters, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.log = []
        self.counts = {}
        self.gates = {}
        self.seq = 0

    def record(self, method, path, headers, client_port):
        with self.lock:
            self.seq += 1
            entry = {"seq": self.seq, "method": method, "path": path,
                     "headers": [list(h) for h in headers],
                     "body_read": 0, "body_complete": False, "client_port": client_port}
            self.log.append(entry)
            return entry

    def bump(self, key):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]

    def count(self, key):
        with self.lock:
            return self.counts.get(key, 0)

    def gate(self, name):
        with self.lock:
            return self.gates.setdefault(name, threading.Event())

    def entries(self, prefix):
        with self.lock:
            return [dict(e) for e in self.log if urlsplit(e["path"]).path.startswith(prefix)]

    def reset(self):
        with self.lock:
            self.log.clear()
            self.counts.clear()


STATE = State()


class ClientGone(Exception):
    """The client closed the connection (or sent a truncated body)."""


class BadRequest(Exception):
    """The request cannot be understood; answered with 400."""


FIXED_LASTMOD = "Mon, 02 Jan 2023 03:04:05 GMT"
REDIRECT_CODES = {301, 302, 303, 307, 308}


def http_date(seconds):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(seconds))


def reason(code):
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return "Status"


# --- the handler -------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ferry-fault-server/1"
    sys_version = ""
    rbufsize = 64 * 1024
    timeout = 300  # idle keep-alive connections are dropped after this many seconds
    disable_nagle_algorithm = True

    # -- plumbing --

    def version_string(self):
        return self.server_version

    def log_message(self, fmt, *args):
        if VERBOSE:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def handle_expect_100(self):
        if urlsplit(self.path).path.startswith("/reject/"):
            return True  # the early reply must come without 100 Continue
        return super().handle_expect_100()

    def handle_one_request(self):
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline = self.request_version = self.command = ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            self.started = False
            self.body_done = False
            self.log_entry = None
            try:
                self.route(self.path, set(), 0)
                if not self.body_done and self.has_body():
                    self.close_connection = True  # unread body would be taken as a request
            except ClientGone:
                self.close_connection = True
            except BadRequest as error:
                self.fail(400, str(error))
            except (ConnectionError, socket.timeout, TimeoutError):
                self.close_connection = True
            except Exception:  # never let a handler bug kill the server
                if VERBOSE:
                    traceback.print_exc()
                self.fail(500, traceback.format_exc(limit=3))
        except (ConnectionError, socket.timeout, TimeoutError, OSError):
            self.close_connection = True

    def fail(self, code, message):
        self.close_connection = True
        if not self.started:
            try:
                self.respond(code, (message + "\n").encode("utf-8", "replace"), close=True)
            except OSError:
                pass

    def header_raw(self, name, value):
        """Queues one header line; the value is sent verbatim (UTF-8, raw bytes kept)."""
        if not hasattr(self, "_headers_buffer"):
            self._headers_buffer = []
        line = "%s: %s\r\n" % (name, value)
        self._headers_buffer.append(line.encode("utf-8", "surrogateescape"))
        if name.lower() == "connection" and value.lower() == "close":
            self.close_connection = True

    def start(self, code):
        self.started = True
        self.send_response(code, reason(code))

    def respond(self, code, body=b"", ctype="text/plain; charset=utf-8", headers=(),
                close=False):
        self.start(code)
        if ctype is not None:
            self.header_raw("Content-Type", ctype)
        for name, value in headers:
            self.header_raw(name, value)
        bodiless = code < 200 or code in (204, 304)
        if not bodiless:
            self.header_raw("Content-Length", str(len(body)))
        if close:
            self.header_raw("Connection", "close")
        self.end_headers()
        if body and not bodiless and self.command != "HEAD":
            self.wfile.write(body)

    def respond_json(self, value, code=200):
        body = (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8")
        self.respond(code, body, ctype="application/json")

    def abort(self, rst=False):
        """Closes the connection without finishing the response."""
        self.close_connection = True
        try:
            if rst:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
            else:
                self.connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def client_gone(self):
        """True when the client has closed its side (non-blocking check)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            if not readable:
                return False
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    # -- request bodies --

    def has_body(self):
        if self.headers.get("Transfer-Encoding"):
            return True
        length = self.headers.get("Content-Length")
        return bool(length) and length.strip() not in ("", "0")

    def body_chunks(self, bufsize=1 << 20):
        """Yields the request body as memoryviews of a reused buffer (copy to keep)."""
        buf = bytearray(bufsize)
        view = memoryview(buf)
        te = self.headers.get("Transfer-Encoding")
        try:
            if te and te.strip().lower() != "identity":
                if te.split(",")[-1].strip().lower() != "chunked":
                    raise BadRequest("unsupported Transfer-Encoding: %s" % te)
                while True:
                    line = self.rfile.readline(65537)
                    if not line:
                        raise ClientGone()
                    try:
                        size = int(line.split(b";", 1)[0].strip(), 16)
                    except ValueError:
                        raise BadRequest("bad chunk size line %r" % line[:40])
                    if size == 0:
                        while True:  # trailers
                            trailer = self.rfile.readline(65537)
                            if not trailer:
                                raise ClientGone()
                            if trailer in (b"\r\n", b"\n"):
                                break
                        break
                    yield from self._read_exact(size, view)
                    if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                        raise BadRequest("chunk not followed by CRLF")
            else:
                raw = self.headers.get("Content-Length", "0").strip() or "0"
                if not raw.isdigit():
                    raise BadRequest("bad Content-Length %r" % raw)
                yield from self._read_exact(int(raw), view)
        finally:
            del view
        self.body_done = True
        if self.log_entry is not None:
            self.log_entry["body_complete"] = True

    def _read_exact(self, remaining, view):
        while remaining > 0:
            n = self.rfile.readinto1(view[:min(remaining, len(view))])
            if not n:
                raise ClientGone()
            remaining -= n
            if self.log_entry is not None:
                self.log_entry["body_read"] += n
            yield view[:n]

    def drain(self):
        for _ in self.body_chunks():
            pass

    def read_body(self, limit=None):
        parts, total = [], 0
        for chunk in self.body_chunks():
            total += len(chunk)
            if limit is None or total <= limit:
                parts.append(bytes(chunk))
        return b"".join(parts), total

    # -- routing --

    def route(self, target, counted, depth):
        split = urlsplit(target)
        path, raw_query = split.path, split.query
        query = parse_qs(raw_query, keep_blank_values=True, encoding="utf-8",
                         errors="surrogateescape")
        q = {k: v[-1] for k, v in query.items()}
        if depth == 0 and not path.startswith("/_"):
            self.log_entry = STATE.record(self.command, target, self.headers.items(),
                                          self.client_address[1])
        self.key_count = None
        key = q.get("key") if not path.startswith("/_") else None
        if key is not None:
            if key not in counted:
                counted.add(key)
                self.key_count = STATE.bump(key)
            else:
                self.key_count = STATE.count(key)
            if "then" in q and depth < 8 and self.key_count > int(q.get("times", "1")):
                return self.route(q["then"], counted, depth + 1)

        m = re.fullmatch(r"/bytes/(\d+)", path)
        if m:
            return self.do_bytes_endpoint(int(m.group(1)), q)
        m = re.fullmatch(r"/status/(\d{3})", path)
        if m:
            return self.do_status(int(m.group(1)), q, query.get("header", []))
        m = re.fullmatch(r"/redirect/(\d+)", path)
        if m:
            return self.do_redirect(int(m.group(1)), q, raw_query)
        if path == "/redirect-loop":
            return self.do_redirect_loop(q, raw_query)
        m = re.fullmatch(r"/reject/(\d{3})", path)
        if m:
            return self.do_reject(int(m.group(1)))
        m = re.fullmatch(r"/digest/(\d+)", path)
        if m:
            if self.digest_accepted(q, target):
                return self.do_bytes_endpoint(int(m.group(1)), q)
            self.drain()
            challenge = 'Digest realm="%s", qop="auth", algorithm=MD5, nonce="%s"' % (
                q.get("realm", "ferry"), hashlib.md5(os.urandom(16)).hexdigest())
            return self.respond(401, b"401 Unauthorized\n", ctype="text/plain; charset=utf-8",
                                headers=[("WWW-Authenticate", challenge)])
        if path == "/echo":
            return self.do_echo(split)
        if path == "/sink":
            return self.do_sink()
        if path == "/multipart":
            return self.do_multipart()
        if path == "/_log":
            self.drain()
            return self.respond_json(STATE.entries(q.get("prefix", "")))
        if path == "/_count":
            self.drain()
            return self.respond_json({"key": q.get("key", ""), "count": STATE.count(q.get("key", ""))})
        if path == "/_open":
            self.drain()
            STATE.gate(q.get("gate", "")).set()
            return self.respond_json({"opened": q.get("gate", "")})
        if path == "/_reset":
            self.drain()
            STATE.reset()
            return self.respond_json({"reset": True})
        # -- replies to uploads and server text --
        m = re.fullmatch(r"/reply/(\d+)", path)
        if m:
            return self.do_reply(int(m.group(1)), q)
        self.drain()
        self.respond(404, b"no such endpoint\n")

    # -- endpoints --

    def method_not_allowed(self, allowed):
        self.drain()
        self.respond(405, b"method not allowed\n", headers=[("Allow", allowed)])

    def do_bytes_endpoint(self, n, q):
        if self.command not in ("GET", "HEAD"):
            return self.method_not_allowed("GET, HEAD")
        self.drain()
        seed = int(q.get("seed", "0") or "0")
        etag = q.get("etag", '"%d-%d"' % (n, seed))
        etag = None if etag == "none" else etag
        lastmod = q.get("lastmod", FIXED_LASTMOD)
        if lastmod == "none":
            lastmod = None
        elif lastmod.isdigit():
            lastmod = http_date(int(lastmod))
        faults_on = True
        if "drop_times" in q:
            if self.key_count is None:
                raise BadRequest("drop_times needs key=")
            faults_on = self.key_count <= int(q["drop_times"])
        total_claim = q.get("range_total", str(n))

        headers = [("Content-Type", q.get("ctype", "application/octet-stream"))]
        if etag is not None:
            headers.append(("ETag", etag))
        if lastmod is not None:
            headers.append(("Last-Modified", lastmod))
        if "cd" in q:
            headers.append(("Content-Disposition", q["cd"]))
        if q.get("ignore_range") != "1":
            headers.append(("Accept-Ranges", "bytes"))

        status, start, length = 200, 0, n
        wanted = self.parse_range(self.headers.get("Range"), n)
        if wanted is not None and q.get("range_200") == "1":
            wanted = None
        drip = int(q["drip"]) if q.get("drip") else None
        if "drip_range" in q and isinstance(wanted, tuple) and wanted[0] > 0:
            if STATE.bump("drip_range:" + q.get("key", "")) == 1:
                drip = int(q["drip_range"])
        if wanted is not None and q.get("ignore_range") != "1":
            if_range = self.headers.get("If-Range")
            if if_range is not None and not self.if_range_matches(if_range.strip(), etag, lastmod) \
                    and q.get("ignore_if_range") != "1":
                wanted = None
        if wanted is None and self.headers.get("Range") is None and "partial_unasked" in q:
            wanted = (min(int(q["partial_unasked"]), max(n - 1, 0)), n - 1)
        if wanted is not None and q.get("ignore_range") != "1":
            if wanted == "unsatisfiable":
                self.start(416)
                for name, value in headers:
                    if name not in ("Content-Type",):
                        self.header_raw(name, value)
                body = b"416 Range Not Satisfiable\n"
                self.header_raw("Content-Type", "text/plain")
                self.header_raw("Content-Range", "bytes */%s" % total_claim)
                self.header_raw("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return
            first, last = wanted
            shift = int(q.get("range_start_offset", "0"))
            first = min(max(0, first + shift), max(n - 1, 0))
            last = min(max(first, last + shift), n - 1)
            status, start, length = 206, first, last - first + 1
            headers.append(("Content-Range", "bytes %d-%d/%s" % (first, last, total_claim)))

        if "huge_header" in q:
            headers.append(("X-Huge", "h" * int(q["huge_header"])))
        if q.get("bad_chunked") == "1":
            self.start(status)
            for name, value in headers:
                self.header_raw(name, value)
            self.header_raw("Transfer-Encoding", "chunked")
            self.header_raw("Connection", "close")
            self.end_headers()
            first = b"".join(pattern_chunks(start, min(length, 1000), seed))
            self.wfile.write(b"%x\r\n" % len(first) + first + b"\r\n")
            self.wfile.write(b"zz-not-hex\r\nrubbish\r\n")
            self.wfile.flush()
            self.abort()
            return

        close_after = False
        if faults_on and "claim_length" in q:
            headers.append(("Content-Length", q["claim_length"]))
            close_after = True
        elif q.get("no_length") == "1":
            close_after = True
        else:
            headers.append(("Content-Length", str(length)))
        if close_after:
            headers.append(("Connection", "close"))

        self.start(status)
        for name, value in headers:
            self.header_raw(name, value)
        self.end_headers()
        if self.command == "HEAD":
            return

        cut = None
        if faults_on and "drop_after" in q:
            cut = ("drop", int(q["drop_after"]))
        elif faults_on and "stall_after" in q:
            cut = ("stall", int(q["stall_after"]))
        to_send = length if cut is None else min(length, cut[1])
        if "hold" in q:
            held = min(to_send, int(q.get("hold_after", "0")))
            self.send_pattern(start, held, seed, drip)
            self.wfile.flush()
            self.hold(STATE.gate(q["hold"]), float(q.get("hold_for", "120")))
            start, to_send = start + held, to_send - held
        self.send_pattern(start, to_send, seed, drip)
        if cut is not None and cut[1] < length:
            if cut[0] == "stall":
                self.stall(float(q.get("stall_for", "120")))
            self.abort(rst=q.get("drop_rst") == "1")
        elif close_after:
            self.abort()

    @staticmethod
    def parse_range(value, n):
        """(first, last), "unsatisfiable", or None when there is no usable single range."""
        if value is None:
            return None
        m = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", value)
        if not m or (m.group(1) == "" and m.group(2) == ""):
            return None
        if m.group(1) == "":
            suffix = int(m.group(2))
            if suffix == 0 or n == 0:
                return "unsatisfiable"
            return (max(0, n - suffix), n - 1)
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else None
        if last is not None and last < first:
            return None
        if first >= n:
            return "unsatisfiable"
        if last is None:
            last = n - 1
        return (first, min(last, n - 1))

    @staticmethod
    def if_range_matches(value, etag, lastmod):
        if value.startswith('"') or value.startswith("W/"):
            return etag is not None and not etag.startswith("W/") and value == etag
        return lastmod is not None and value == lastmod

    def send_pattern(self, start, length, seed, drip):
        if not drip:
            for chunk in pattern_chunks(start, length, seed):
                self.wfile.write(chunk)
            return
        step = max(1, min(drip // 10, 16384))
        began, sent = time.monotonic(), 0
        for chunk in pattern_chunks(start, length, seed, chunk=step):
            for i in range(0, len(chunk), step):
                piece = chunk[i:i + step]
                self.wfile.write(piece)
                sent += len(piece)
                delay = began + sent / drip - time.monotonic()
                if delay > 0:
                    if STOPPING.wait(delay) or self.client_gone():
                        raise ClientGone()

    def hold(self, gate, seconds):
        deadline = time.monotonic() + seconds
        while not gate.wait(0.1):
            if STOPPING.is_set() or self.client_gone() or time.monotonic() > deadline:
                raise ClientGone()

    def stall(self, seconds):
        deadline = time.monotonic() + seconds
        while not STOPPING.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            try:
                readable, _, _ = select.select([self.connection], [], [], min(0.5, remaining))
                if readable:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return  # the client went away
                    time.sleep(min(0.5, max(0.0, remaining)))
            except OSError:
                return

    def digest_accepted(self, q, target):
        """Whether the request's Authorization is a valid Digest answer for q's user and pass."""
        header = self.headers.get("Authorization", "")
        if not header.startswith("Digest "):
            return False
        fields = dict((k, v.strip('"')) for k, v in re.findall(r'(\w+)=("[^"]*"|[^,\s]+)', header[7:]))
        md5 = lambda text: hashlib.md5(text.encode("utf-8")).hexdigest()
        if fields.get("username") != q.get("user") or fields.get("uri") != target:
            return False
        ha1 = md5("%s:%s:%s" % (q.get("user"), fields.get("realm", ""), q.get("pass")))
        ha2 = md5("%s:%s" % (self.command, target))
        expected = md5(":".join([ha1, fields.get("nonce", ""), fields.get("nc", ""), fields.get("cnonce", ""),
                                 fields.get("qop", ""), ha2]))
        return fields.get("response") == expected

    def do_status(self, code, q, extra_headers):
        self.drain()
        if code < 200 or code > 599:
            raise BadRequest("status must be 200-599")
        body = q.get("body", "%d %s\n" % (code, reason(code)))
        headers = []
        if "retry_after" in q:
            headers.append(("Retry-After", q["retry_after"]))
        if "location" in q:
            headers.append(("Location", q["location"]))
        for line in extra_headers:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        self.respond(code, body.encode("utf-8", "surrogateescape"),
                     ctype=q.get("ctype", "text/plain; charset=utf-8"), headers=headers)

    def redirect_code(self, q):
        code = int(q.get("code", "302"))
        if code not in REDIRECT_CODES:
            raise BadRequest("code must be one of %s" % sorted(REDIRECT_CODES))
        return code

    def do_redirect(self, n, q, raw_query):
        self.drain()
        code = self.redirect_code(q)
        if n > 1:
            location = "/redirect/%d" % (n - 1) + ("?" + raw_query if raw_query else "")
        else:
            location = q.get("to", "/status/200")
        self.respond(code, ("redirect to %s\n" % location).encode("utf-8", "surrogateescape"),
                     headers=[("Location", location)])

    def do_redirect_loop(self, q, raw_query):
        self.drain()
        code = self.redirect_code(q)
        location = "/redirect-loop" + ("?" + raw_query if raw_query else "")
        self.respond(code, b"around we go\n", headers=[("Location", location)])

    def do_reject(self, code):
        if code < 200 or code > 599:
            raise BadRequest("status must be 200-599")
        body = ("%d %s\n" % (code, reason(code))).encode()
        self.respond(code, body, close=True)
        self.body_done = True  # on purpose: the connection closes
        # Lingering close: stop sending, then discard what the client still sends for a
        # while, so that its kernel does not turn our reply into a connection reset.
        try:
            self.connection.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + 2.0
            drained = 0
            while drained < (256 << 20):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                readable, _, _ = select.select([self.connection], [], [], remaining)
                if not readable:
                    break
                data = self.connection.recv(1 << 20)
                if not data:
                    break
                drained += len(data)
        except OSError:
            pass

    def do_echo(self, split):
        hasher = hashlib.sha256()
        kept, total = [], 0
        for chunk in self.body_chunks():
            hasher.update(chunk)
            total += len(chunk)
            if total <= 64 * 1024:
                kept.append(bytes(chunk))
        text = None
        if total <= 64 * 1024:
            try:
                text = b"".join(kept).decode("utf-8")
            except UnicodeDecodeError:
                text = None
        self.respond_json({
            "method": self.command,
            "path": split.path,
            "query": split.query,
            "http_version": self.request_version,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body_length": total,
            "body_sha256": hasher.hexdigest(),
            "body": text,
        })

    def do_sink(self):
        if self.command not in ("PUT", "POST"):
            return self.method_not_allowed("PUT, POST")
        hasher = hashlib.sha256()
        total = 0
        for chunk in self.body_chunks():
            hasher.update(chunk)
            total += len(chunk)
        self.respond_json({"length": total, "sha256": hasher.hexdigest()})

    def do_multipart(self):
        if self.command != "POST":
            return self.method_not_allowed("POST")
        body, total = self.read_body()
        declared = self.headers.get("Content-Length")
        if declared is not None and declared.strip() != str(total):
            return self.respond(400, ("body length %d does not equal Content-Length %s\n"
                                      % (total, declared.strip())).encode())
        ctype = self.headers.get("Content-Type", "")
        try:
            result = parse_multipart(ctype, body)
        except ValueError as error:
            return self.respond(400, ("multipart parse failed: %s\n" % error).encode("utf-8", "replace"))
        self.respond_json(result)


    # -- replies to uploads and server text --

    def do_reply(self, n, q):
        self.drain()
        code = int(q.get("code", "200"))
        if code < 200 or code > 599:
            raise BadRequest("status must be 200-599")
        phrase = q.get("reason", reason(code))
        body = q["body"].encode("utf-8", "surrogateescape") if "body" in q else None
        length = len(body) if body is not None else n
        chunked = q.get("chunked") == "1"
        self.started = True
        self._headers_buffer = [("%s %d %s\r\n" % (self.protocol_version, code, phrase))
                                .encode("utf-8", "surrogateescape")]
        self.header_raw("Server", self.version_string())
        self.header_raw("Content-Type", q.get("ctype", "application/octet-stream"))
        if chunked:
            self.header_raw("Transfer-Encoding", "chunked")
        else:
            self.header_raw("Content-Length", str(length))
        self.end_headers()
        if self.command == "HEAD":
            return
        chunks = [body] if body is not None else pattern_chunks(0, n, int(q.get("seed", "0") or "0"))
        for chunk in chunks:
            if not chunk:
                continue
            if chunked:
                self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            else:
                self.wfile.write(chunk)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

def parse_multipart(content_type, body):
    """Parses a multipart/form-data body with the email package; raises ValueError."""
    if not content_type.lower().startswith("multipart/form-data"):
        raise ValueError("Content-Type is not multipart/form-data: %r" % content_type)
    head = ("Content-Type: %s\r\nMIME-Version: 1.0\r\n\r\n" % content_type).encode("utf-8", "surrogateescape")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    boundary = message.get_boundary()
    if boundary is None:
        raise ValueError("no boundary parameter")
    if not message.is_multipart():
        raise ValueError("body is not multipart")
    defects = [type(d).__name__ for d in message.defects]
    parts = list(message.iter_parts())
    for part in parts:
        defects += [type(d).__name__ for d in part.defects]
    if defects:
        raise ValueError("parser defects: %s" % ", ".join(defects))
    fields, field_list, files = {}, [], []
    missing = object()
    for part in parts:
        disposition = part.get("Content-Disposition")
        if disposition is None or part.get_content_disposition() != "form-data":
            raise ValueError("part without Content-Disposition: form-data")
        name = part.get_param("name", header="content-disposition")
        if name is None:
            raise ValueError("part without a name")
        name = email.utils.collapse_rfc2231_value(name)
        payload = part.get_payload(decode=True) or b""
        filename = part.get_filename(missing)
        if filename is missing:
            try:
                value = payload.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("field %r is not valid UTF-8" % name)
            fields[name] = value
            field_list.append([name, value])
        else:
            files.append({
                "name": name,
                "filename": filename,
                "content_type": part.get("Content-Type"),
                "length": len(payload),
                "sha256": hashlib.sha256(payload).hexdigest(),
            })
    return {"fields": fields, "field_list": field_list, "files": files,
            "parts": len(parts), "boundary": boundary}


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # SIGTERM must not wait for idle keep-alive connections
    allow_reuse_address = True
    request_queue_size = 128

    def server_bind(self):
        # HTTPServer.server_bind would do a reverse DNS lookup; we know who we are.
        socketserver.TCPServer.server_bind(self)
        self.server_name = "127.0.0.1"
        self.server_port = self.server_address[1]

    def handle_error(self, request, client_address):
        if VERBOSE:
            super().handle_error(request, client_address)


def main():
    global VERBOSE
    parser = argparse.ArgumentParser(description="Ferry's HTTP/1.1 fault server (127.0.0.1 only).")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    VERBOSE = args.verbose

    server = Server(("127.0.0.1", args.port), Handler)

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    if args.exit_on_stdin_eof:
        def watch_stdin():
            try:
                while sys.stdin.buffer.read1(4096):
                    pass
            except (OSError, ValueError):
                pass
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()

    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.25)
    except (SystemExit, KeyboardInterrupt):
        pass
    STOPPING.set()
    try:
        server.server_close()
    finally:
        sys.stderr.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
