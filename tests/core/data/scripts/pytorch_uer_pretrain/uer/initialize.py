# Source: https://github.com/dbiir/UER-py/blob/5743050cc41f0f21986c9f938db5ac1726052629/uer/initialize.py (copied unchanged below this line)
import torch


def init_env(args):
    if args.dist_train:
        # Initialize multiprocessing distributed training environment.
        args.global_rank = args.gpu_ranks[args.local_rank]
        torch.distributed.init_process_group(backend=args.backend,
                                init_method=args.master_ip,
                                world_size=args.world_size,
                                rank=args.global_rank)
    elif args.single_gpu:
        args.global_rank = None
    else:
        args.global_rank = None

    return None
