#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A TCP relay that delays each direction by a random time, for the clock bench on a kernel
without netem: every chunk read is written out MIN_US..MAX_US (uniform) later, never before the
chunk ahead of it, so a stream stays in order. One listener per LPORT=HOST:PORT, on 127.0.0.1;
each accepted connection gets its own upstream connection and two delaying pumps.
    delay_relay.py MIN_US MAX_US LPORT=HOST:PORT...
"""
import queue
import random
import socket
import sys
import threading
import time


def pump(src, dst, lo, hi):
    """Read from src, write to dst after the delay; two threads so reading never waits."""
    q = queue.Queue()

    def reader():
        due = 0.0
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            due = max(time.monotonic() + random.uniform(lo, hi), due)
            q.put((due, data))
            if not data:
                return

    def writer():
        while True:
            due, data = q.get()
            left = due - time.monotonic()
            if left > 0:
                time.sleep(left)
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            try:
                dst.sendall(data)
            except OSError:
                return

    for fn in (reader, writer):
        threading.Thread(target=fn, daemon=True).start()


def serve(lport, host, port, lo, hi):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", lport))
    ls.listen(64)
    while True:
        c, _ = ls.accept()
        try:
            u = socket.create_connection((host, port))
        except OSError:
            c.close()
            continue
        for s in (c, u):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        pump(c, u, lo, hi)
        pump(u, c, lo, hi)


def main():
    lo, hi = float(sys.argv[1]) / 1e6, float(sys.argv[2]) / 1e6
    for spec in sys.argv[3:]:
        lport, target = spec.split("=")
        host, port = target.rsplit(":", 1)
        threading.Thread(target=serve, args=(int(lport), host, int(port), lo, hi),
                         daemon=True).start()
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
