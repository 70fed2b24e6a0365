"""The mmjudge leaderboard Space: start-up in ``mmjudge.leaderboard.app.space``, layout in ``mmjudge.leaderboard.app.ui``.

Configured by environment variables (the README's table, ``mmjudge.leaderboard.app.space.VARIABLES``).
``mmjudge space build`` copies this file into the Space folder with a wheel of mmjudge in ``wheels/``,
which goes on ``sys.path`` first: Spaces install ``requirements.txt`` (mmjudge's dependencies) before
the repo's files are copied in, so the wheel cannot be named there.
"""

from __future__ import annotations

import sys
from pathlib import Path

_wheels = sorted(Path(__file__).resolve().parent.glob("wheels/mmjudge-*.whl"))
if _wheels:
    sys.path.insert(0, str(_wheels[-1]))

from mmjudge.leaderboard.app.space import start  # noqa: E402 (after the wheel is on the path)

board, app = start()  # a configuration problem exits here with one line saying what to set
demo = app.blocks  # the Blocks, under the name gradio's reload mode looks for

if __name__ == "__main__":
    app.launch(max_file_size=board.settings.max_bytes)  # closes in order (waits for running handlers)
