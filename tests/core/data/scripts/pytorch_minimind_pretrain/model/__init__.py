# Source: https://github.com/jingyaogong/minimind/blob/d65ef2c00ebc6082f9df11541e1b191655eddb00/model/__init__.py (copied unchanged below this line)
