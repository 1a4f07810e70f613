# Source: https://github.com/shivangraval50/distributed-training-lab/blob/6ac3b7d309cffd97232b7cf953a7fe224d285dca/src/__init__.py (copied unchanged below this line)
