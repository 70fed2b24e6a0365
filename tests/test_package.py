"""Package-level guarantees: light import, CLI help, registry behaviour."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mmjudge
from mmjudge import registry
from mmjudge.benchmarks import get_benchmark
from mmjudge.cli import build_parser, main
from mmjudge.errors import UnknownNameError

HEAVY = ("torch", "transformers", "datasets", "gradio", "evaluate", "accelerate")


def test_import_does_not_pull_heavy_libraries():
    code = "import sys, mmjudge, mmjudge.cli, mmjudge.registry; print(','.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    loaded = set(out.strip().split(","))
    assert not [name for name in HEAVY if name in loaded]


def test_cli_help_lists_every_command_with_one_line(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert commands, "no subcommands registered"
    for name in commands:
        assert name in text


def test_console_script_runs_help():
    result = subprocess.run(
        [sys.executable, "-m", "mmjudge", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "commands" in result.stdout


def test_unknown_benchmark_lists_known_names():
    with pytest.raises(UnknownNameError) as info:
        get_benchmark("isovr")
    for name in mmjudge.BENCHMARK_IDS:
        assert name in str(info.value)


def test_register_judge_and_duplicate_name_rejected():
    reg = registry.Registry("judge")

    @reg.register("a")
    class A:
        pass

    assert reg.get("a") is A
    with pytest.raises(ValueError, match="already registered"):
        reg.register("a")(object())


def test_entry_point_judges_are_found(monkeypatch):
    class FakeEntryPoint:
        name = "external_judge"

        @staticmethod
        def load():
            return "loaded-object"

    def fake_entry_points(group):
        return [FakeEntryPoint()] if group == registry.JUDGE_ENTRY_POINT_GROUP else []

    monkeypatch.setattr(registry.metadata, "entry_points", fake_entry_points)
    reg = registry.Registry("judge", entry_point_group=registry.JUDGE_ENTRY_POINT_GROUP)
    assert "external_judge" in reg.names()
    assert reg.get("external_judge") == "loaded-object"


def test_cli_parser_loads_no_benchmark_package():
    code = (
        "import sys, mmjudge.cli; mmjudge.cli.build_parser(); "
        "print(','.join(m for m in sys.modules if m in ('pyarrow', 'pandas') or "
        "(m.startswith('mmjudge.benchmarks.') and not m.split('.')[2].startswith('_'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == ""
