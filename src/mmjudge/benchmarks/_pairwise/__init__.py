"""The layer VideoGen-RewardBench, GenAI-Bench (video) and MJ-Bench-Video share: a prompt, two clips, a human
preference with ties on one or more aspects.

Modules: :mod:`.scoring` (human labels and score differences -> per-unit outcomes, the tie rules, result keys),
:mod:`.build` (checked pairs -> ``pairs`` and ``clips`` configs), :mod:`.judging` (clip queries, pair records,
the scorers' long-format inputs), :mod:`.sample` (tiny generated clips) and :mod:`.present` (report and board).
Each benchmark keeps its release reader, its official rules and its keys in its own package.
"""
