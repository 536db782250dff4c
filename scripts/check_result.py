"""Check a submitted result: ``python scripts/check_result.py results/<track>/<name>``.

The same as ``continual-arc check``; see continual_arc.check for what is checked.
"""

import sys

from continual_arc.cli.check import main

if __name__ == "__main__":
    sys.exit(main())
