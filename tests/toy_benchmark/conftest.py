"""The toy benchmark's package and metric are installed by the test into a temporary folder, not collected."""

collect_ignore_glob = ["toybench/*", "metrics/*"]
