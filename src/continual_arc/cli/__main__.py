"""``python -m continual_arc.cli``: the same as ``continual-arc``."""

import sys

from . import main

sys.exit(main())
