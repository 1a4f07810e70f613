# Source: https://github.com/sx-aurora-dev/tf-samples/blob/b058927affad7923d3da417c195ced894d867a1f/multi-ve/multi.py (copied unchanged below this line)
import os
import json

import tensorflow as tf
import mnist

ve = int(os.environ['VE_NODE_NUMBER'])

# we use two VEs
index = 0 if ve == 0 else 1

tf_config = {
    'cluster': {
        'worker': ['localhost:12345', 'localhost:23456']
    },
    'task': {'type': 'worker', 'index': index}
}

os.environ['TF_CONFIG'] = json.dumps(tf_config)

per_worker_batch_size = 64
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])

# strategy = tf.distribute.MultiWorkerMirroredStrategy()
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()

global_batch_size = per_worker_batch_size * num_workers
multi_worker_dataset = mnist.mnist_dataset(global_batch_size)

with strategy.scope():
    # Model building/compiling need to be within `strategy.scope()`.
    multi_worker_model = mnist.build_and_compile_cnn_model()


multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)
