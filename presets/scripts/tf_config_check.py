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
import re
import shlex
import socket
import sys
import threading
import time

_SECRET = re.compile(
    r"SECRET|TOKEN|PASSW(OR)?D|(^|_)PASS($|_)|KEY|CREDENTIAL|(^|_)SAS|CONN(ECTION)?_?STR|(^|_)AUTH($|_)|PRIVATE",
    re.IGNORECASE,
)  # names that look like secrets are not printed

_DISTRIBUTED = re.compile(
    r"(RANK|LOCAL_RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|NODE_RANK|GROUP_RANK|GROUP_WORLD_SIZE"
    r"|ROLE_NAME|ROLE_RANK|ROLE_WORLD_SIZE|MASTER_ADDR|MASTER_PORT|TF_CONFIG|OMP_NUM_THREADS"
    r"|CUDA_VISIBLE_DEVICES|(AZ_BATCH|OMPI_COMM_WORLD|TORCHELASTIC|NCCL|ACCELERATE)_\w+)\Z"
)  # where this process sits in the job: what Azure ML and the launcher set, not the host's


def env_line() -> str:
    """`DTRAIN_ENV NAME=value ...`: the distributed-training variables this process has, or
    every variable with DTRAIN_ENV_DUMP=all (dtrain-tui's tests), never a name that looks
    secret. Names and quoted text, not numbers: a log reader takes no metric from it."""
    every = os.environ.get("DTRAIN_ENV_DUMP") == "all"
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (every or _DISTRIBUTED.match(k)) and not _SECRET.search(k)
    )
    pairs = (f"{k}={shlex.quote(' '.join(v.splitlines()))}" for k, v in env)  # one line
    return " ".join(["DTRAIN_ENV", *pairs])


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
