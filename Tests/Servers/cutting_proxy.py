#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that cuts connections after a given number of uploaded bytes.

Start:  python3 cutting_proxy.py --port 0 --upstream HOST:PORT [--verbose] [--exit-on-stdin-eof]

Binds 127.0.0.1 only and forwards every connection to HOST:PORT, bytes both ways, half
closes included. The first line on stdout is ``PORT <n>`` (flushed), once it listens;
after that stdout carries only the answers to the commands below, one line each, in the
order of the commands. stderr stays quiet unless --verbose. SIGTERM (or SIGINT) stops it;
with --exit-on-stdin-eof it also stops when its standard input reaches end of file.

COMMANDS (one a line on standard input)
  cut-after N   Adds a cut point at N: the client->upstream bytes of all connections since
                the start are counted as one running total; when a connection's bytes
                would take the total past N, exactly the bytes up to N are forwarded (and
                delivered: the proxy waits, at most 2 s, until upstream has acknowledged
                them), then both sides of that connection are closed with a TCP reset
                (SO_LINGER 0). Several cut points queue; each is used once, lowest first.
                A cut point at or below the current total cuts the next connection that
                sends a byte, forwarding none. Answers ``OK``.
  stats         Answers ``STATS <client_to_upstream_total> <connections>`` (connections
                accepted since the start).
  Anything else answers ``ERR <text>``.
"""

import argparse
import asyncio
import fcntl
import logging
import os
import signal
import socket
import struct
import sys
import termios
import threading
import time

VERBOSE = False
CHUNK = 64 * 1024


def log(text):
    if VERBOSE:
        sys.stderr.write("cutting_proxy: %s\n" % text)
        sys.stderr.flush()


class State:
    """The running total, the connection count and the queued cut points: shared by the
    event loop and the stdin thread, always under ``lock``."""

    def __init__(self):
        self.lock = threading.Lock()
        self.total = 0
        self.connections = 0
        self.cuts = []

    def add_cut(self, at):
        with self.lock:
            self.cuts.append(at)
            self.cuts.sort()

    def take(self, size):
        """Reserves up to ``size`` bytes of the total; returns (allowed, cut)."""
        with self.lock:
            if self.cuts and self.total + size >= self.cuts[0]:
                allowed = max(0, self.cuts.pop(0) - self.total)
                self.total += allowed
                return allowed, True
            self.total += size
            return size, False

    def stats(self):
        with self.lock:
            return self.total, self.connections


def reset_on_close(writer):
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass


def unacknowledged(writer):
    """Bytes upstream's kernel has not acknowledged yet (SIOCOUTQ), 0 when unknown."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return 0
    try:
        buffer = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
        return struct.unpack("i", buffer)[0]
    except OSError:
        return 0


async def cut(client, upstream, number):
    """Delivers what was forwarded, then resets both sides."""
    deadline = time.monotonic() + 2.0
    try:
        await asyncio.wait_for(upstream.drain(), timeout=2.0)
    except (OSError, ConnectionError, asyncio.TimeoutError):
        pass
    while time.monotonic() < deadline and (
            upstream.transport.get_write_buffer_size() > 0 or unacknowledged(upstream) > 0):
        await asyncio.sleep(0.005)
    for writer in (client, upstream):
        reset_on_close(writer)
        writer.transport.abort()


async def pump(reader, writer, state, counted):
    """Copies reader to writer until end of file; returns 'eof' or 'cut'."""
    while True:
        data = await reader.read(CHUNK)
        if not data:
            if writer.can_write_eof():
                writer.write_eof()
            return "eof"
        if counted:
            allowed, cut_now = state.take(len(data))
            if allowed:
                writer.write(data[:allowed])
                await writer.drain()
            if cut_now:
                return "cut"
        else:
            writer.write(data)
            await writer.drain()


async def handle(client_reader, client_writer, state, upstream_address):
    with state.lock:
        state.connections += 1
        number = state.connections
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(*upstream_address)
    except OSError as error:
        log("connection %d: upstream: %s" % (number, error))
        reset_on_close(client_writer)
        client_writer.transport.abort()
        return
    log("connection %d open" % number)
    up = asyncio.ensure_future(pump(client_reader, upstream_writer, state, True))
    down = asyncio.ensure_future(pump(upstream_reader, client_writer, state, False))
    failed = False
    pending = {up, down}
    while pending and not failed:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task.exception() is not None:
                failed = True  # a reset or broken pipe on one side: drop the other too
            elif task.result() == "cut":
                for other in pending:
                    other.cancel()
                await cut(client_writer, upstream_writer, number)
                log("connection %d cut" % number)
                return
    for task in pending:
        task.cancel()
    for writer in (client_writer, upstream_writer):
        if failed:
            writer.transport.abort()
        else:
            writer.close()
    log("connection %d closed" % number)


def answer(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_commands(state, exit_on_eof):
    for raw in sys.stdin.buffer:
        words = raw.decode("utf-8", "replace").split()
        if not words:
            continue
        if words[0] == "cut-after" and len(words) == 2 and words[1].isdigit():
            state.add_cut(int(words[1]))
            answer("OK")
        elif words == ["stats"]:
            total, connections = state.stats()
            answer("STATS %d %d" % (total, connections))
        else:
            answer("ERR unknown command: %s" % " ".join(words))
    if exit_on_eof:
        os._exit(0)


def main():
    global VERBOSE
    parser = argparse.ArgumentParser(description="A TCP proxy that cuts connections (127.0.0.1 only).")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--upstream", required=True, help="HOST:PORT")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    VERBOSE = args.verbose
    host, _, port = args.upstream.rpartition(":")
    upstream_address = (host or "127.0.0.1", int(port))

    def stop(signum, frame):
        sys.stderr.flush()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    if not VERBOSE:
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    state = State()
    loop = asyncio.new_event_loop()
    if VERBOSE:
        loop.set_exception_handler(lambda loop, context: log(context.get("message", "error")))
    else:
        loop.set_exception_handler(lambda loop, context: None)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)

    async def serve():
        server = await asyncio.start_server(
            lambda r, w: handle(r, w, state, upstream_address), sock=listener, limit=CHUNK)
        answer("PORT %d" % listener.getsockname()[1])
        threading.Thread(target=read_commands, args=(state, args.exit_on_stdin_eof),
                         daemon=True).start()
        async with server:
            await server.serve_forever()

    try:
        loop.run_until_complete(serve())
    finally:
        sys.stderr.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
