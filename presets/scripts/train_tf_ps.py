"""A tiny TensorFlow parameter-server job: `ParameterServerStrategy`, a coordinator, workers, ps.

Azure ML's tensorflow distribution with parameter servers sets TF_CONFIG on every node with a
"worker" and a "ps" list and this node's task. TensorFlow 2's ParameterServerStrategy also needs a
coordinator ("chief") that holds the training loop, and Azure ML's TF_CONFIG has none; so, as the
Azure ML guide asks, the script creates it: worker 0 becomes the coordinator, the other workers
run the steps it schedules, and the ps tasks hold the variables. Workers and ps serve until the
coordinator tells them it has finished (it writes a marker file on each task's own disk through
TensorFlow, as the last thing it runs there) and has gone, then exit, so the job completes. A
coordinator that came and went without saying so, or never came, is a failure.

The coordinator prints `epoch E loss L`. Each task prints the distributed variables it has as one
line (`DTRAIN_ENV TF_CONFIG=...`) once TensorFlow is set up, so a rehearsal can compare it with the
plan.
"""

import argparse
import json
import os
import socket
import sys
import tempfile
import time

import tensorflow as tf
from dtrain_env import env_line


def dump_env() -> None:
    print(env_line(), flush=True)


def with_coordinator(config: dict) -> tuple[dict, str, int]:
    """Azure ML's cluster with worker 0 as the coordinator ("chief"); this task's new name."""
    workers = config["cluster"]["worker"]
    cluster = {"chief": workers[:1], "worker": workers[1:], "ps": config["cluster"]["ps"]}
    kind, index = config["task"]["type"], config["task"]["index"]
    if kind == "worker":
        kind, index = ("chief", 0) if index == 0 else ("worker", index - 1)
    return cluster, kind, index


def reachable(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except OSError:
        return False


def done_marker(kind: str, index: int, address: str) -> str:
    """Where the coordinator marks a task done: on that task's disk, named by its address."""
    name = f"dtrain-tf-{kind}-{index}-{address.rpartition(':')[2]}.done"
    return os.path.join(tempfile.gettempdir(), name)


def serve_until_coordinator_done(cluster: dict, kind: str, index: int, timeout: float) -> int:
    """A worker or ps: run a TensorFlow server until the coordinator says it has finished."""
    tf.distribute.Server(
        tf.train.ClusterSpec(cluster), job_name=kind, task_index=index, protocol="grpc"
    )
    dump_env()
    print(f"{kind} {index} serving", flush=True)
    chief, marker = cluster["chief"][0], done_marker(kind, index, cluster[kind][index])
    deadline, seen = time.monotonic() + timeout, False
    while True:
        up = reachable(chief)  # before looking for the marker: it is written before the exit
        if os.path.exists(marker):
            break
        if seen and not up:
            print(f"the coordinator at {chief} went away before it finished", flush=True)
            return 1
        seen = seen or up
        if not seen and time.monotonic() > deadline:
            print(f"the coordinator at {chief} never came up", flush=True)
            return 1
        time.sleep(0.5)
    # The coordinator reads the marker back through this task's server right after writing it:
    # serve on until it has gone (a minute at most), so that read is answered (a task that left
    # at once reset it, and the coordinator failed on a loaded machine).
    until = time.monotonic() + 60
    while reachable(chief) and time.monotonic() < until:
        time.sleep(0.5)
    os.remove(marker)
    print(f"{kind} {index}: the coordinator has finished", flush=True)
    return 0


def tell_tasks_done(cluster: dict) -> None:
    """Write each worker's and ps's done marker on its own disk, through TensorFlow."""
    for kind in ("worker", "ps"):
        for index, address in enumerate(cluster[kind]):
            marker = done_marker(kind, index, address)
            with tf.device(f"/job:{kind}/replica:0/task:{index}"):
                tf.io.write_file(marker, "")
                tf.io.read_file(marker).numpy()  # waits until the write has happened there


def coordinate(cluster: dict, epochs: int, steps: int, batch_size: int) -> int:
    """The coordinator: create the variables on the ps tasks, schedule steps on the workers."""
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(cluster), task_type="chief", task_id=0, rpc_layer="grpc"
    )
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
    dump_env()
    print(f"coordinator: {len(cluster['worker'])} workers, {len(cluster['ps'])} ps", flush=True)

    with strategy.scope():
        w1 = tf.Variable(tf.random.stateless_normal((16, 32), seed=(1, 0)) * 0.25)
        w2 = tf.Variable(tf.random.stateless_normal((32, 1), seed=(2, 0)) * 0.25)
        optimizer = tf.keras.optimizers.SGD(0.05)
    variables = [w1, w2]

    def dataset_fn():
        x = tf.random.stateless_normal((512, 16), seed=(0, 0))
        y = x @ tf.reshape(tf.linspace(-1.0, 1.0, 16), (16, 1))
        return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(batch_size)

    batches = iter(coordinator.create_per_worker_dataset(dataset_fn))

    @tf.function
    def train_step(iterator):
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.nn.relu(x @ w1) @ w2 - y))
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables, strict=True))
            return loss

        return strategy.run(step, args=next(iterator))

    for epoch in range(epochs):
        results = [coordinator.schedule(train_step, args=(batches,)) for _ in range(steps)]
        coordinator.join()
        losses = [float(r.fetch()) for r in results]
        print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}", flush=True)
    tell_tasks_done(cluster)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=4, help="steps per epoch")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for tasks")
    args, _ = parser.parse_known_args()
    cluster, kind, index = with_coordinator(json.loads(os.environ["TF_CONFIG"]))
    if kind == "chief":
        return coordinate(cluster, args.epochs, args.steps, args.batch_size)
    return serve_until_coordinator_done(cluster, kind, index, args.timeout)


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # TensorFlow's server threads would keep the process alive
