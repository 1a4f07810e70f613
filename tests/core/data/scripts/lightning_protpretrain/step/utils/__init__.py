# Source: https://github.com/kalininalab/ProtPreTrain/blob/69960b4f4383f79455700aac0bc0bc80d837f014/step/utils/__init__.py (copied unchanged below this line)
from .checkpoint import WandbArtifactModelCheckpoint
from .cli import IterDict, add_arg_prefix, read_config, recursive_apply, remove_arg_prefix, write_config, str_to_bool
from .math import minmax_normalise, split_random, to_prob
from .optim import WarmUpCosineLR
from .vis import plot_aa_tsne, plot_confmat, plot_loss_count_dist, plot_node_embeddings, plot_noise_pred
