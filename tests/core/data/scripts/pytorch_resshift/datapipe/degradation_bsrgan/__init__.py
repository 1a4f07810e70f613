# Source: https://github.com/zsyOAOA/ResShift/blob/3ce1d81e8402fd50083809ae288a3977f6921bdd/datapipe/degradation_bsrgan/__init__.py (copied unchanged below this line)
