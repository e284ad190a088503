#!/usr/bin/env python3
"""Runs a command and stops it when the watchdog's standard input reaches end of file.

Usage: python3 watchdog.py [--grace SECONDS] -- COMMAND [ARG...]

Test helpers start long-running servers (nginx) through this, keeping the write end of
the watchdog's stdin open. The kernel closes that end when the test process dies, however
it dies, so a crashed or killed test run does not leave servers behind.

SIGTERM and SIGINT sent to the watchdog are forwarded to the command as SIGTERM. After a
SIGTERM the command has --grace seconds (default 5) to exit before it gets SIGKILL. The
command inherits stdout and stderr; its stdin is /dev/null. The watchdog exits with the
command's status (128 + signal number when a signal ended it).
"""

import os
import signal
import subprocess
import sys
import threading


def main():
    args = sys.argv[1:]
    grace = 5.0
    if args[:1] == ["--grace"] and len(args) >= 2:
        grace = float(args[1])
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.stderr.write(__doc__)
        return 2

    child = subprocess.Popen(args, stdin=subprocess.DEVNULL)
    stopping = threading.Event()

    def stop():
        if stopping.is_set():
            return
        stopping.set()
        try:
            child.send_signal(signal.SIGTERM)
        except (ProcessLookupError, OSError):
            return

        def kill_later():
            try:
                child.wait(grace)
            except subprocess.TimeoutExpired:
                try:
                    child.kill()
                except (ProcessLookupError, OSError):
                    pass

        threading.Thread(target=kill_later, daemon=True).start()

    signal.signal(signal.SIGTERM, lambda signum, frame: stop())
    signal.signal(signal.SIGINT, lambda signum, frame: stop())

    def watch_stdin():
        try:
            while sys.stdin.buffer.read1(4096):
                pass
        except (OSError, ValueError):
            pass
        stop()

    threading.Thread(target=watch_stdin, daemon=True).start()

    code = child.wait()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main())
