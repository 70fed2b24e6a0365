"""Results where people look for them: Hub eval-result entries and lmms-eval task folders.

* :mod:`mmjudge.export.eval_results` -- ``.eval_results/mmjudge_<benchmark>.yaml`` from a run folder,
  written with ``huggingface_hub``'s own ``EvalResultEntry`` / ``eval_result_entries_to_yaml``, and the
  pull request that adds them to a model repo (planned offline, opened with one call);
* :mod:`mmjudge.export.lmms_eval` -- one lmms-eval task folder per benchmark, whose ``utils.py`` calls
  :mod:`mmjudge.export.lmms_runtime` (mmjudge's items and scorer).

Both read what the benchmark declares in ``Benchmark.present.exports`` and name no benchmark.
"""
