"""Caption ranking, shared by TemporalBench and TempCompass: a video, two or more captions, one right; a judge
that rates a clip against a text answers by the caption it scores highest (ties wrong).

Modules: :mod:`.build` (questions -> the dataset folder), :mod:`.queries` and :mod:`.records` (captions -> judge
queries -> one record per question), :mod:`.scoring` (the rule, the official counts and their intervals) and
:mod:`.present` (report and leaderboard). Each benchmark's package reads its own release and names its categories.
"""
