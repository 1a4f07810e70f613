# Source: https://github.com/Spijkervet/SimCLR/blob/2738efae85b3ca1b70b7919c5d7a7837d9d75235/simclr/modules/transformations/__init__.py (copied unchanged below this line)
from .simclr import TransformsSimCLR
