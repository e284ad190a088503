#!/usr/bin/env python3
"""A real tus 1.0 server for Ferry's upload tests: tuspyserver's FastAPI router on uvicorn.

Start:  python3 tus_server.py --port 0 --files DIR [--verbose] [--exit-on-stdin-eof]
                              [--strict-metadata] [--checksum]

Binds 127.0.0.1 only. The first line on stdout is ``PORT <n>`` (flushed), written once
uvicorn serves on the socket (bound here, before uvicorn starts, so ``--port 0`` has no
race); nothing else is ever written to stdout. stderr stays quiet unless --verbose (then
uvicorn's access log and tuspyserver's own log). SIGTERM (or SIGINT) stops the server;
with --exit-on-stdin-eof it also stops when its standard input reaches end of file, so a
test process that dies without stopping it does not leave it behind.

THE TUS ENDPOINTS (tuspyserver, mounted at /files)
  OPTIONS /files/ or /files Tus-Version, Tus-Resumable, Tus-Extension, Tus-Max-Size.
  POST    /files  or /files/  creation: ``Tus-Resumable: 1.0.0`` and ``Upload-Length`` (or
                            ``Upload-Defer-Length: 1``) -> 201 with an absolute Location
                            ``http://<Host header>/files/<32 hex digits>``; a body is
                            stored as the first bytes (creation-with-upload).
  HEAD    /files/<id>       Upload-Offset, Upload-Length; 404 for an unknown id.
  PATCH   /files/<id>       ``Upload-Offset`` must equal the stored offset (else 409) and
                            ``Content-Type: application/offset+octet-stream``. A body cut
                            short (client gone) is kept: the offset counts what arrived.
  DELETE  /files/<id>       termination -> 204.
  The checksum extension (Upload-Checksum) is not tuspyserver's: it ignores the header. With
  --checksum this server offers it in front of tuspyserver (``Tus-Extension`` gains
  ``checksum``, ``Tus-Checksum-Algorithm: sha1,md5,sha256``): a PATCH with
  ``Upload-Checksum: <algorithm> <base64 digest>`` is read whole first; a digest that does
  not match answers 460 and stores nothing, an unknown algorithm 400, and a PATCH cut short
  stores nothing (its bytes cannot be checked).

  tuspyserver answers HEAD with 400 for an upload created without ``filename`` and
  ``filetype`` in Upload-Metadata (the tus protocol makes metadata optional). Unless
  --strict-metadata is given, this server adds the missing keys to a creation request
  (filename "upload", filetype "application/octet-stream") before tuspyserver sees it.

THE CONTROL ENDPOINTS
  GET /_uploads    JSON list, one entry per upload in the files directory, sorted by id:
                   {id, offset, length (null while deferred), stored (bytes in the data
                   file), sha256 (of the data file: the bytes stored so far), complete
                   (offset == length), metadata}.
  GET /_received   JSON {bytes, patch, post, checksums, mismatches}: request body bytes the
                   tus routes have read since the server started (PATCH bodies, POST
                   creation-with-upload bodies, and their sum), counted as uvicorn hands them
                   to the app; PATCHes whose checksum matched, and those answered 460.
  GET /_corrupt?count=N  (with --checksum) the next N checksummed PATCHes are taken as if a
                   byte had changed on the way: their check fails (460). Answers {corrupt}.
"""

import argparse
import base64
import hashlib
import json
import logging
import os
import socket
import sys
import threading

import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from tuspyserver import create_tus_router

PREFIX = "/files"
DEFAULT_METADATA = {"filename": "upload", "filetype": "application/octet-stream"}


class Counters:
    """Body bytes read by the tus routes; touched only on the event loop thread."""

    def __init__(self):
        self.patch = 0
        self.post = 0
        self.checksums = 0
        self.mismatches = 0
        self.corrupt = 0  # checksummed PATCHes still to fail on purpose (GET /_corrupt)


def is_tus_path(path):
    return path == PREFIX or path.startswith(PREFIX + "/")


def metadata_keys(value):
    keys = set()
    for pair in value.split(","):
        pair = pair.strip()
        if pair:
            keys.add(pair.split(" ", 1)[0])
    return keys


def with_default_metadata(headers):
    """The request's headers with filename and filetype added to Upload-Metadata."""
    existing = b""
    rest = []
    for name, value in headers:
        if name.lower() == b"upload-metadata":
            existing = value
        else:
            rest.append((name, value))
    text = existing.decode("latin-1").strip()
    present = metadata_keys(text)
    added = ["%s %s" % (key, base64.b64encode(value.encode()).decode("ascii"))
             for key, value in DEFAULT_METADATA.items() if key not in present]
    if not added:
        return headers
    merged = ",".join(([text] if text else []) + added)
    return rest + [(b"upload-metadata", merged.encode("latin-1"))]


CHECKSUM_ALGORITHMS = {"sha1": hashlib.sha1, "md5": hashlib.md5, "sha256": hashlib.sha256}


def header(scope, wanted):
    for name, value in scope.get("headers", []):
        if name.lower() == wanted:
            return value.decode("latin-1").strip()
    return None


async def answer(send, status, body=b""):
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"tus-resumable", b"1.0.0"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class TusWrapper:
    """ASGI middleware in front of the tus router: counts the body bytes the tus routes
    read, answers OPTIONS on /files as on /files/, unless strict fills in the metadata
    tuspyserver requires, and with checksums checks each PATCH's Upload-Checksum."""

    def __init__(self, app, counters, strict_metadata, checksum):
        self.app = app
        self.counters = counters
        self.strict_metadata = strict_metadata
        self.checksum = checksum

    def offering_checksums(self, send):
        async def offering(message):
            if message.get("type") == "http.response.start":
                headers = []
                for name, value in message.get("headers", []):
                    if name.lower() == b"tus-extension":
                        value = value + b",checksum"
                    headers.append((name, value))
                headers.append((b"tus-checksum-algorithm", ",".join(CHECKSUM_ALGORITHMS).encode()))
                message = dict(message, headers=headers)
            await send(message)
        return offering

    async def checked_patch(self, scope, receive, send, checksum):
        """Reads the PATCH body whole, checks it against ``checksum`` and hands it on."""
        algorithm, _, digest = checksum.partition(" ")
        make = CHECKSUM_ALGORITHMS.get(algorithm.lower())
        if make is None:
            await answer(send, 400, b"unsupported checksum algorithm")
            return
        chunks = []
        while True:
            message = await receive()
            if message.get("type") == "http.disconnect":
                return  # cut short: nothing can be checked, nothing is stored
            chunks.append(message.get("body", b""))
            self.counters.patch += len(chunks[-1])
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        computed = make(body)
        if self.counters.corrupt > 0:
            self.counters.corrupt -= 1
            computed = make(bytes([body[0] ^ 0xFF]) + body[1:] if body else b"\x00")
        if base64.b64encode(computed.digest()).decode("ascii") != digest.strip():
            self.counters.mismatches += 1
            await answer(send, 460, b"checksum mismatch")
            return
        self.counters.checksums += 1
        handed = False

        async def buffered_receive():
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, buffered_receive, send)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not is_tus_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        for name, value in scope.get("headers", []):
            if name.lower() == b"x-http-method-override":
                method = value.decode("latin-1").strip().upper()
        if method == "OPTIONS" and scope["path"] == PREFIX:
            # The router answers OPTIONS on /files/ only; /files would be a 405.
            scope = dict(scope, path=PREFIX + "/", raw_path=(PREFIX + "/").encode())
        if method == "POST" and not self.strict_metadata:
            scope = dict(scope)
            scope["headers"] = with_default_metadata(scope.get("headers", []))
        if self.checksum and method == "OPTIONS":
            send = self.offering_checksums(send)
        checksum = header(scope, b"upload-checksum")
        if self.checksum and method == "PATCH" and checksum is not None:
            await self.checked_patch(scope, receive, send, checksum)
            return
        counters = self.counters

        async def counting_receive():
            message = await receive()
            if message.get("type") == "http.request":
                size = len(message.get("body", b""))
                if method == "PATCH":
                    counters.patch += size
                elif method == "POST":
                    counters.post += size
            return message

        await self.app(scope, counting_receive, send)


def upload_entries(files_dir):
    entries = []
    try:
        names = sorted(os.listdir(files_dir))
    except FileNotFoundError:
        return entries
    for name in names:
        if len(name) != 32 or not os.path.exists(os.path.join(files_dir, name + ".info")):
            continue
        try:
            with open(os.path.join(files_dir, name + ".info")) as f:
                info = json.load(f)
            digest = hashlib.sha256()
            stored = 0
            with open(os.path.join(files_dir, name), "rb") as f:
                while True:
                    block = f.read(1 << 20)
                    if not block:
                        break
                    digest.update(block)
                    stored += len(block)
        except (OSError, ValueError):
            continue  # removed (DELETE) or being replaced while we looked
        length = info.get("size")
        offset = info.get("offset", 0)
        entries.append({
            "id": name,
            "offset": offset,
            "length": length,
            "stored": stored,
            "sha256": digest.hexdigest(),
            "complete": length is not None and offset == length,
            "metadata": info.get("metadata", {}),
        })
    return entries


def make_app(files_dir, counters, strict_metadata, checksum):
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    app.include_router(create_tus_router(prefix="files", files_dir=files_dir))

    @app.get("/_uploads")
    def uploads():
        return JSONResponse(upload_entries(files_dir))

    @app.get("/_received")
    async def received():  # async: reads the counters on the loop thread that writes them
        return JSONResponse({"bytes": counters.patch + counters.post,
                             "patch": counters.patch, "post": counters.post,
                             "checksums": counters.checksums, "mismatches": counters.mismatches})

    @app.get("/_corrupt")
    async def corrupt(count: int = 1):
        counters.corrupt += count
        return JSONResponse({"corrupt": counters.corrupt})

    return TusWrapper(app, counters, strict_metadata, checksum)


class AnnouncingServer(uvicorn.Server):
    """A uvicorn server that prints ``PORT <n>`` once it serves on its socket."""

    def __init__(self, config, port):
        super().__init__(config)
        self.announced_port = port

    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        if not self.should_exit:
            sys.stdout.write("PORT %d\n" % self.announced_port)
            sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description="Ferry's tus 1.0 test server (127.0.0.1 only).")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--files", required=True, help="directory the uploads are stored in")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--strict-metadata", action="store_true",
                        help="do not add filename/filetype metadata to creation requests")
    parser.add_argument("--checksum", action="store_true",
                        help="offer the checksum extension and check each PATCH's Upload-Checksum")
    args = parser.parse_args()

    files_dir = os.path.abspath(args.files)
    os.makedirs(files_dir, exist_ok=True)
    if not args.verbose:
        logging.getLogger("tuspyserver").setLevel(logging.CRITICAL)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    port = listener.getsockname()[1]

    if args.exit_on_stdin_eof:
        def watch_stdin():
            try:
                while sys.stdin.buffer.read1(4096):
                    pass
            except (OSError, ValueError):
                pass
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()

    config = uvicorn.Config(
        make_app(files_dir, Counters(), args.strict_metadata, args.checksum),
        log_level="info" if args.verbose else "critical",
        access_log=args.verbose,
        lifespan="off",
        timeout_graceful_shutdown=2,
        server_header=False,
    )
    server = AnnouncingServer(config, port)
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    sys.stderr.flush()
    os._exit(0 if server.started else 1)


if __name__ == "__main__":
    main()
