"""Checks TF_CONFIG the way tf.distribute reads it, without TensorFlow (stdlib only).

Azure ML's tensorflow distribution sets TF_CONFIG on every node: the whole cluster (`{"worker":
[...], "ps": [...]}`) and which task this node is. This script prints the distributed variables it
received as one line (`DTRAIN_ENV NAME=value ...`), then proves the cluster is consistent the way a
real TensorFlow server would need it: it listens on its own address from the cluster, connects to
every other task at theirs, and checks each answers with the role and index TF_CONFIG says it has.
It exits 1 with a readable message if anything does not match.
"""

import argparse
import json
import os
import socket
import sys
import threading
import time

from dtrain_env import env_line


def dump_env() -> None:
    print(env_line(), flush=True)


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host, int(port)


def serve(server: socket.socket, me: str, seen: set[str], lock: threading.Lock) -> None:
    """Answer every task that connects with who we are; remember who it said it was."""
    while True:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(10)
            peer = conn.makefile("r").readline().strip()
            conn.sendall(f"{me}\n".encode())
        with lock:
            seen.add(peer)


def ask(address: str, me: str, deadline: float) -> str:
    """Connect to a task (retrying until it listens) and return who it says it is."""
    while True:
        try:
            with socket.create_connection(split_address(address), timeout=5) as conn:
                conn.sendall(f"{me}\n".encode())
                return conn.makefile("r").readline().strip()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for all tasks")
    args, _ = parser.parse_known_args()
    dump_env()
    if "TF_CONFIG" not in os.environ:
        print("TF_CONFIG is not set: run this under Azure ML's tensorflow distribution")
        return 1
    config = json.loads(os.environ["TF_CONFIG"])
    cluster: dict[str, list[str]] = config["cluster"]
    role, index = config["task"]["type"], int(config["task"]["index"])
    me = f"{role}:{index}"
    if role not in cluster or index >= len(cluster[role]):
        print(f"task {me} is not in the cluster {cluster}")
        return 1
    address = cluster[role][index]
    peers = {f"{r}:{i}": a for r, addrs in cluster.items() for i, a in enumerate(addrs)}
    peers.pop(me)
    chief = " (chief: worker 0 saves checkpoints)" if me == "worker:0" else ""
    print(f"task {me} at {address}{chief}; {len(peers)} other task(s): {peers}", flush=True)

    seen: set[str] = set()
    lock = threading.Lock()
    server = socket.create_server(split_address(address))
    threading.Thread(target=serve, args=(server, me, seen, lock), daemon=True).start()
    deadline = time.monotonic() + args.timeout
    try:
        for name, peer_address in sorted(peers.items()):
            answer = ask(peer_address, me, deadline)
            if answer != name:
                print(f"{peer_address} answered {answer!r}, but TF_CONFIG says it is {name}")
                return 1
            print(f"reached {name} at {peer_address}", flush=True)
    except OSError as err:
        print(f"could not reach every task before the timeout: {err}")
        return 1
    while time.monotonic() < deadline:  # stay up until every other task has reached us
        with lock:
            if set(peers) <= seen:
                break
        time.sleep(0.05)
    else:
        print(f"only {sorted(seen)} of {sorted(peers)} reached this task")
        return 1
    server.close()
    print(f"TF_CONFIG ok: {len(peers) + 1} tasks agree on the cluster", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
