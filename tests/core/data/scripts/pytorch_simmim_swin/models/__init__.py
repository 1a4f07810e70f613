# Source: https://github.com/microsoft/SimMIM/blob/d3e29bcac950b83edc34ca33fe4404f38309052c/models/__init__.py (copied unchanged below this line)
from .build import build_model