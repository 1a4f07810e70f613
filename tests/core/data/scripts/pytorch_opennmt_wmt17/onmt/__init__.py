# Source: https://github.com/OpenNMT/OpenNMT-py/blob/97111d97551c24857076a4102eabdb468b35cff4/onmt/__init__.py (copied unchanged below this line)
""" Main entry point of the ONMT library """
import onmt.inputters
import onmt.encoders
import onmt.decoders
import onmt.models
import onmt.utils
import onmt.modules
import sys
import onmt.utils.optimizers

onmt.utils.optimizers.Optim = onmt.utils.optimizers.Optimizer
sys.modules["onmt.Optim"] = onmt.utils.optimizers

# For Flake
__all__ = [
    onmt.inputters,
    onmt.encoders,
    onmt.decoders,
    onmt.models,
    onmt.utils,
    onmt.modules,
]

__version__ = "3.5.1"
