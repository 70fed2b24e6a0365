"""The board model, without gradio: a :class:`~mmjudge.leaderboard.board.grid.Table` of rows and typed columns,
built by reading what the store holds (:mod:`~mmjudge.leaderboard.board.table`); ranking and paired significance,
whose rank cells the rank keeper computes and stores and the tables read (:mod:`~mmjudge.leaderboard.board.ranks`,
which owns the server's caches); facets, plots and the exports. Reads the store and the core's board columns and
paired data; knows nothing of the UI."""
