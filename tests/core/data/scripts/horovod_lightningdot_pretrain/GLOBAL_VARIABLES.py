# Source: https://github.com/intersun/LightningDOT/blob/a597f3f9da3d8923402f8294d1b58e734412aec0/GLOBAL_VARIABLES.py (copied unchanged below this line)
import os


PROJECT_FOLDER = os.path.dirname(__file__)

N_EXAMPLES_TEACHER = 10
