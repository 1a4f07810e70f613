"""`python -m tui` is `dtrain-tui`."""

import sys

from tui.cli import main

sys.exit(main())
