# Source: https://github.com/Spijkervet/SimCLR/blob/2738efae85b3ca1b70b7919c5d7a7837d9d75235/utils/__init__.py (copied unchanged below this line)
from .yaml_config_hook import yaml_config_hook
