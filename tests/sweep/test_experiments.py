"""``continual-arc figures``: an experiment's tables recomputed from stored runs, and every change caught.

The numbers the tables must show are read from the protocol's own ``protocol.json``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.protocol.play import ProtocolOptions, play_protocol
from continual_arc.submit.rebuild import store_run
from continual_arc.sweep.experiments import ExperimentError, differences, load_experiment

SPEC = """title = "toy"

[[tables]]
title = "the toy rule learner, seed 0"
kind = "plane"
runs = ["../../runs/toy-rules-seed0"]

[[tables]]
title = "pooled"
kind = "pooled"
runs = ["../../runs/toy-rules-seed0"]
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository in small: one stored toy-smoke protocol under runs/, one experiment reading it."""
    root = tmp_path_factory.mktemp("repo")
    played = root / "played"
    play_protocol(
        ProtocolOptions(
            out=played, learner="continual_arc.testing:ToyRuleLearner", config="toy-smoke", jobs=1
        )
    )
    store_run(played, root / "runs" / "toy-rules-seed0")
    (root / "experiments" / "toy").mkdir(parents=True)
    (root / "experiments" / "toy" / "experiment.toml").write_text(SPEC)
    return root


def test_written_tables_hold_the_protocols_numbers_and_check_equal(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = repo / "experiments" / "toy"
    assert main(["figures", str(folder), "--write"]) == 0
    text = (folder / "tables.md").read_text()
    plane = read_json(repo / "played" / "protocol.json")["plane"]
    seen = plane["seen"]
    saved = seen["share_saved"]
    row = (
        f"| seen test (memorization) | {saved['value']:.2f} [{saved['low']:.2f}, {saved['high']:.2f}] | "
        f"{seen['saving']['value']:.1f} | {seen['learner']['budget_used']:.1f} / "
        f"{seen['learner']['share_solved']:.1f} | {seen['reset']['budget_used']:.1f} / "
        f"{seen['reset']['share_solved']:.1f} |"
    )
    assert row in text.splitlines()
    learned = plane["learned"]
    assert f"learnable budget {learned['learnable_budget']:.1f} |" in text
    assert "| 1 | ToyRuleLearner | toy-smoke, 1 user | 0 |" in text
    capsys.readouterr()
    assert main(["figures", str(folder)]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"{folder / 'tables.md'}: every table and figure is what its runs give"
    )


def test_a_changed_stored_number_fails_with_one_sentence(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = repo / "experiments" / "toy"
    assert main(["figures", str(folder), "--write"]) == 0
    path = folder / "tables.md"
    lines = path.read_text().splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if line.startswith("| held-out test"))
    changed = lines[n].replace(" | ", " | 9", 2)  # the share saved, typed by hand
    path.write_text("".join([*lines[:n], changed, *lines[n + 1 :]]))
    capsys.readouterr()
    assert main(["figures", str(folder)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"{path}, line {n + 1}: stored {changed.rstrip()!r}, but the runs give {lines[n].rstrip()!r}"
    ]


def test_a_folder_that_is_not_an_experiment_gets_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["figures", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"continual-arc: error: {tmp_path} is not an experiment: it holds no experiment.toml"
    (tmp_path / "experiment.toml").write_text('[[tables]]\nkind = "plane"\nruns = ["nowhere"]\n')
    with pytest.raises(ExperimentError, match="the run nowhere does not exist"):
        load_experiment(tmp_path)


@given(st.lists(st.text(alphabet="ab| 0.1", min_size=1, max_size=8), min_size=1, max_size=12), st.data())
def test_each_changed_line_is_one_sentence(lines: list[str], data: st.DataObject) -> None:
    text = "\n".join(lines)
    assert differences(text, text, "t.md") == []
    i = data.draw(st.integers(0, len(lines) - 1))
    edited = [*lines[:i], lines[i] + "x", *lines[i + 1 :]]
    assert differences("\n".join(edited), text, "t.md") == [
        f"t.md, line {i + 1}: stored {edited[i]!r}, but the runs give {lines[i]!r}"
    ]


def test_a_pooled_table_labels_its_rows_with_the_names_given(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = repo / "experiments" / "named"
    folder.mkdir()
    (folder / "experiment.toml").write_text(
        '[[tables]]\nkind = "pooled"\nruns = ["../../runs/toy-rules-seed0"]\n'
        'names = {"continual_arc.testing:ToyRuleLearner" = "rules"}\n'
    )
    assert main(["figures", str(folder), "--write"]) == 0
    text = (folder / "tables.md").read_text()
    # the name as a sweep's spec gives it, where the class name stood (see the toy test above)
    assert "| 1 | rules | toy-smoke, 1 user | 0 |" in text and "ToyRuleLearner" not in text


@pytest.mark.parametrize(
    ("kind", "names", "message"),
    [
        ("pooled", '"rules"', "names must map a learner's import path to a name"),
        ("pooled", '{"a:B" = 1}', "names must map a learner's import path to a name"),
        ("plane", '{"a:B" = "b"}', "only a pooled table names its learners"),
    ],
)
def test_names_that_cannot_label_rows_are_refused(repo: Path, kind: str, names: str, message: str) -> None:
    folder = repo / "experiments" / f"bad-{kind}-{len(names)}"
    folder.mkdir()
    (folder / "experiment.toml").write_text(
        f'[[tables]]\nkind = "{kind}"\nruns = ["../../runs/toy-rules-seed0"]\nnames = {names}\n'
    )
    with pytest.raises(ExperimentError, match=message):
        load_experiment(folder)
