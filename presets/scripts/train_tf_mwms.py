"""A tiny TensorFlow job: `MultiWorkerMirroredStrategy` reading `TF_CONFIG`, on synthetic data.

As the Azure ML guide shows for TensorFlow, Azure ML's tensorflow distribution sets TF_CONFIG on
every node: the list of workers and which one this node is. The strategy reads it, every worker
keeps a copy of the model, and gradients are all-reduced between workers after each step (a
custom training loop, as in TensorFlow's multi-worker guide; Keras 3's `fit` does not take this
strategy). Worker 0 is the chief: it alone prints the loss and keeps the saved model (the others
save to a scratch folder, as the guide asks, since saving is a collective).

The chief prints `epoch E loss L`. Once the strategy is up each task prints the distributed
variables it has as one line (`DTRAIN_ENV TF_CONFIG=...`), so a rehearsal can compare it with
dtrain-tui's plan.
"""

import argparse
import json
import os
import sys

import tensorflow as tf
from dtrain_env import env_line


class Regression(tf.Module):
    """A two-layer network fitting y = x·w; its variables are mirrored on every worker."""

    def __init__(self) -> None:
        super().__init__()
        self.w1 = tf.Variable(tf.random.stateless_normal((16, 32), seed=(1, 0)) * 0.25)
        self.b1 = tf.Variable(tf.zeros(32))
        self.w2 = tf.Variable(tf.random.stateless_normal((32, 1), seed=(2, 0)) * 0.25)

    def __call__(self, x: tf.Tensor) -> tf.Tensor:
        return tf.nn.relu(x @ self.w1 + self.b1) @ self.w2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=4, help="steps per epoch")
    parser.add_argument("--batch-size", type=int, default=16, help="per worker")
    args, _ = parser.parse_known_args()

    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # reads TF_CONFIG
    print(env_line(), flush=True)
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    chief = task["type"] == "chief" or (task["type"] == "worker" and task["index"] == 0)
    if chief:
        print(f"workers {strategy.num_replicas_in_sync}, chief {task}", flush=True)

    global_batch = args.batch_size * strategy.num_replicas_in_sync
    x = tf.random.stateless_normal((512, 16), seed=(0, 0))
    y = x @ tf.reshape(tf.linspace(-1.0, 1.0, 16), (16, 1))
    options = tf.data.Options()  # each worker takes every n-th batch of the same data
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    data = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(global_batch)
    batches = iter(strategy.experimental_distribute_dataset(data.with_options(options)))

    with strategy.scope():
        model = Regression()
        optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function
    def train_step(batch):
        def step(x, y):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_mean(tf.square(model(x) - y), axis=1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            # The gradients are all-reduced over the workers before they are applied.
            optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
            return loss

        losses = strategy.run(step, args=batch)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    for epoch in range(args.epochs):
        total = 0.0
        for _ in range(args.steps):
            total += float(train_step(next(batches)))
        if chief:
            print(f"epoch {epoch} loss {total / args.steps:.4f}", flush=True)

    folder = "outputs" if chief else f"/tmp/worker_{task['index']}"
    os.makedirs(folder, exist_ok=True)
    tf.saved_model.save(model, os.path.join(folder, "model"))  # a collective: every worker saves
    if chief:
        print("saved outputs/model", flush=True)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # TensorFlow's collective threads can keep a finished worker from exiting
