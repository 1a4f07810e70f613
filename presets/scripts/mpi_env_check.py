"""Checks what Azure ML's MPI distribution gives each rank, without mpi4py (stdlib only).

Under `distribution: mpi` Azure ML starts `mpirun` itself; Open MPI gives every process
OMPI_COMM_WORLD_RANK / _SIZE / _LOCAL_RANK / _LOCAL_SIZE, and Azure ML adds AZ_BATCH_MASTER_NODE
(`address:port` of node 0). Horovod and DeepSpeed map these to RANK, WORLD_SIZE, MASTER_ADDR and
MASTER_PORT. This script prints the distributed variables it received as one line (`DTRAIN_ENV
NAME=value ...`), prints that mapping, then proves it works: rank 0 listens on AZ_BATCH_MASTER_NODE
and every other rank connects and reports its rank, as torch's TCP store would. Exits 1 when it
does not.
"""

import argparse
import os
import socket
import sys
import time

from dtrain_env import env_line


def dump_env() -> None:
    print(env_line(), flush=True)


def gather(addr: str, port: int, world: int, deadline: float) -> set[int]:
    """Rank 0: accept every other rank's hello, then tell them all it is done."""
    server = socket.create_server((addr, port))
    server.settimeout(max(0.1, deadline - time.monotonic()))
    conns, ranks = [], set()
    try:
        while len(ranks) < world - 1:
            conn, _ = server.accept()
            ranks.add(int(conn.makefile("r").readline()))
            conns.append(conn)
        for conn in conns:
            conn.sendall(f"ok {world}\n".encode())
    finally:
        for conn in conns:
            conn.close()
        server.close()
    return ranks


def report(addr: str, port: int, rank: int, deadline: float) -> str:
    """Any other rank: connect to rank 0 (retrying until it listens), say who we are."""
    while True:
        try:
            with socket.create_connection((addr, port), timeout=30) as conn:
                conn.sendall(f"{rank}\n".encode())
                return conn.makefile("r").readline().strip()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for all ranks")
    args, _ = parser.parse_known_args()
    dump_env()
    print(
        "MPI env check, not Horovod: it trains nothing; it shows what mpirun gives this rank "
        "and meets the others at AZ_BATCH_MASTER_NODE",
        flush=True,
    )
    try:
        rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
        world = int(os.environ["OMPI_COMM_WORLD_SIZE"])
        local_rank = int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])
        master = os.environ["AZ_BATCH_MASTER_NODE"]
    except KeyError as err:
        print(f"{err.args[0]} is not set: run this under mpirun with Azure ML's mpi distribution")
        return 1
    addr, _, port = master.rpartition(":")
    print(
        f"as Horovod/DeepSpeed map it: RANK={rank} WORLD_SIZE={world} LOCAL_RANK={local_rank} "
        f"MASTER_ADDR={addr} MASTER_PORT={port}",
        flush=True,
    )
    deadline = time.monotonic() + args.timeout
    try:
        if rank == 0:
            others = gather(addr, int(port), world, deadline)
            if others != set(range(1, world)):
                print(f"rank 0 heard from ranks {sorted(others)}, expected 1..{world - 1}")
                return 1
            print(f"rendezvous ok: all {world} ranks reached {master}", flush=True)
        else:
            answer = report(addr, int(port), rank, deadline)
            if answer != f"ok {world}":
                print(f"rank 0 answered {answer!r}, expected 'ok {world}'")
                return 1
            print(f"rendezvous ok: reached rank 0 at {master}", flush=True)
    except OSError as err:
        print(f"rendezvous at {master} failed: {err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
