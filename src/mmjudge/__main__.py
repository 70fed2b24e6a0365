import sys

from mmjudge.cli import main

sys.exit(main())
