"""The script reader: what a training script does, read from its source without running it (its
parsed arguments, flow, rank values, files and places). Names no framework; `tui.frameworks` reads
scripts through it."""
