"""The board model, without gradio: a :class:`~mmjudge.leaderboard.board.grid.Table` of rows and typed columns,
ranking and paired significance with the rank cells kept current in the store (:mod:`~mmjudge.leaderboard.board.ranks`),
facets, plots and the exports. Reads the store and the core's board columns and paired data; knows nothing of
the UI."""
