# Source: https://github.com/krasserm/perceiver-io/blob/46c63250d93eb351bcd8ff8ba9113f5025941dd9/perceiver/model/core/__init__.py (copied unchanged below this line)
from perceiver.model.core.adapter import *
from perceiver.model.core.config import *
from perceiver.model.core.modules import *
from perceiver.model.core.position import *
