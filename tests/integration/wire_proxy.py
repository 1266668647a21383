#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A ZeroMQ relay between `lockstep run` and one agent that can misbehave on the agent's behalf.

The coordinator's DEALER connects to our ROUTER (--listen); we relay each frame to the agent
through our own DEALER (--agent) and the agent's frames back to the coordinator's last peer.
Without CURVE: the messages are msgpack maps we can read (PROTOCOL.md section 3). A fault:

  --drop-done        drop every DONE the agent sends (it still answers PING, SYNC, ...)
  --seq-jump N       once the agent has sent N SAMPLEs, send a copy of the next one with its
                     seq raised by 100000, ahead of the real one (a faulty or lying agent)

Each fault applied is logged on stdout ("dropped done seq 41", "jumped sample seq 57 to
100057"), so a test can wait for it. Runs until killed.
"""
import argparse
import sys

import msgpack
import zmq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--drop-done", action="store_true")
    ap.add_argument("--seq-jump", type=int, default=-1)
    args = ap.parse_args()

    ctx = zmq.Context()
    front = ctx.socket(zmq.ROUTER)
    front.setsockopt(zmq.LINGER, 0)
    front.bind(args.listen)
    back = ctx.socket(zmq.DEALER)
    back.setsockopt(zmq.LINGER, 0)
    back.connect(args.agent)
    poller = zmq.Poller()
    poller.register(front, zmq.POLLIN)
    poller.register(back, zmq.POLLIN)
    peer = None
    samples = 0
    jumped = False
    print("relay up", flush=True)
    while True:
        for sock, _ in poller.poll():
            if sock is front:
                parts = front.recv_multipart()
                peer = parts[0]
                back.send_multipart(parts[1:])
                continue
            parts = back.recv_multipart()
            if peer is None:
                continue
            m = msgpack.unpackb(parts[-1], raw=False)
            kind = m.get("type") if isinstance(m, dict) else None
            if kind == "done" and args.drop_done:
                print(f"dropped done seq {m['seq']}", flush=True)
                continue
            if kind == "sample":
                if args.seq_jump >= 0 and samples == args.seq_jump and not jumped:
                    jumped = True
                    bad = dict(m)
                    bad["seq"] = m["seq"] + 100000
                    front.send_multipart([peer, msgpack.packb(bad, use_bin_type=True)])
                    print(f"jumped sample seq {m['seq']} to {bad['seq']}", flush=True)
                samples += 1
            front.send_multipart([peer] + parts)


if __name__ == "__main__":
    sys.exit(main())
