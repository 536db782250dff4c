"""``continual-arc figures``: an experiment's tables recomputed from stored runs, and every change caught.

The numbers the tables must show are read from the protocol's own ``protocol.json``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
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
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke"),
        ProtocolOptions(out=played, jobs=1),
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
        ("plane", '{"a:B" = "b"}', "only a pooled or by-run table names its learners"),
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


def _spec(folder: Path, body: str) -> Path:
    folder.mkdir()
    (folder / "experiment.toml").write_text(body)
    return folder


def test_a_printed_table_is_what_the_protocol_printed_when_it_finished(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _spec(
        repo / "experiments" / "printed",
        '[[tables]]\nname = "summary"\nkind = "printed"\nruns = ["../../runs/toy-rules-seed0"]\n',
    )
    assert main(["figures", str(folder), "--write"]) == 0
    text = (folder / "tables.md").read_text()
    # What the command prints: `protocol` on the finished directory plays nothing more and prints
    # its summary again; the recomputed table must be those lines, but where it wrote them.
    capsys.readouterr()
    argv = ["protocol", "--config", "toy-smoke", "--learner", "continual_arc.testing:ToyRuleLearner"]
    assert main([*argv, "--out", str(repo / "played"), "--no-plots"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("written to ")
    section = text.split("<!-- --8<-- [start:summary] -->\n")[1].split("<!-- --8<-- [end:summary] -->")[0]
    assert section == "```\n" + "\n".join(printed[:-2]) + "\n```\n"
    assert printed[0].startswith("continual_arc.testing:ToyRuleLearner on toy-smoke, seed 0, 1 user(s)")


def test_a_by_run_table_has_a_row_per_protocol_in_the_order_given(repo: Path) -> None:
    second = repo / "played-seed1"
    play_protocol(
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke", seed=1),
        ProtocolOptions(out=second, jobs=1),
    )
    store_run(second, repo / "runs" / "toy-rules-seed1")
    runs = '["../../runs/toy-rules-seed1", "../../runs/toy-rules-seed0"]'
    folder = _spec(repo / "experiments" / "by-run", f'[[tables]]\nkind = "by-run"\nruns = {runs}\n')
    assert main(["figures", str(folder), "--write"]) == 0
    rows = [line for line in (folder / "tables.md").read_text().splitlines() if line.startswith("| ToyRule")]
    assert [row.split(" | ")[2] for row in rows] == ["1", "0"]  # the order given, not ranked
    for row, played in zip(rows, (second, repo / "played"), strict=True):
        stream = read_records(played / "stream")
        u = 100 * sum(r["charge"] for r in stream) / sum(r["max_cost"] for r in stream)
        assert row.split(" | ")[3].split(" ± ")[0] == f"{u:.1f}"
        seen = read_json(played / "protocol.json")["plane"]["seen"]["share_saved"]
        assert row.split(" | ")[6] == f"{seen['value']:.2f} [{seen['low']:.2f}, {seen['high']:.2f}]"


def test_each_table_is_marked_so_a_page_can_include_it_alone(repo: Path) -> None:
    folder = repo / "experiments" / "toy"
    assert main(["figures", str(folder), "--write"]) == 0
    lines = (folder / "tables.md").read_text().splitlines()
    for n in (1, 2):  # unnamed tables are table-1, table-2, each marked once, start before end
        start, end = (lines.index(f"<!-- --8<-- [{edge}:table-{n}] -->") for edge in ("start", "end"))
        assert start < end and lines[start + 1].startswith("|")


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ('name = "Seed 0"', "a table's name must be lower-case letters"),
        ('name = "0seed"', "a table's name must be lower-case letters"),
        (
            'name = "a"\n\n[[tables]]\nname = "a"\nkind = "plane"\nruns = ["../../runs/toy-rules-seed0"]',
            "two tables are named 'a'",
        ),
    ],
)
def test_a_name_a_page_cannot_include_is_refused(repo: Path, tables: str, message: str) -> None:
    folder = _spec(
        repo / "experiments" / f"bad-name-{len(tables)}",
        f'[[tables]]\nkind = "plane"\nruns = ["../../runs/toy-rules-seed0"]\n{tables}\n',
    )
    with pytest.raises(ExperimentError, match=message):
        load_experiment(folder)


def test_a_printed_table_reads_one_protocol(repo: Path) -> None:
    runs = '["../../runs/toy-rules-seed0", "../../runs/toy-rules-seed0"]'
    folder = _spec(repo / "experiments" / "printed-two", f'[[tables]]\nkind = "printed"\nruns = {runs}\n')
    with pytest.raises(ExperimentError, match="a printed table reads exactly one protocol directory"):
        load_experiment(folder)


def test_a_by_run_table_of_games_adds_each_plays_level_score(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A game's records carry ARC-AGI-3's level score; here the toy protocol's records are given one,
    # the learner's a quarter step by step and the reset's none, so the means are known. (Not under
    # tmp_path, whose summaries the suite holds to their records: these no longer match.)
    games = tmp_path_factory.mktemp("games")
    run = games / "run"
    shutil.copytree(repo / "runs" / "toy-rules-seed0", run)
    means = {}
    for play_dir in sorted(p for p in run.iterdir() if (p / "records.jsonl").is_file()):
        lines = (play_dir / "records.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        for i, record in enumerate(records):
            record["level_score"] = 0.0 if play_dir.name.endswith("-reset") else (i % 4) / 4
        means[play_dir.name] = sum(r["level_score"] for r in records) / len(records)
        (play_dir / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    folder = _spec(games / "exp", '[[tables]]\nkind = "by-run"\nruns = ["../run"]\n')
    assert main(["figures", str(folder), "--write"]) == 0
    lines = (folder / "tables.md").read_text().splitlines()
    header = next(line for line in lines if line.startswith("| learner"))
    assert header.endswith(
        "| seen: level score, learner / reset | held-out: level score | stream: level score |"
    )
    row = next(line for line in lines if line.startswith("| ToyRule")).strip("| ").split(" | ")
    assert row[-3:] == [f"{means[play]:.2f} / 0.00" for play in ("seen", "held-out", "stream")]


@pytest.mark.parametrize("kind", ["plane", "printed", "verify", "curve"])
def test_a_play_without_records_is_one_sentence(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    # (Not under tmp_path, whose summaries the suite holds to their records: this one no longer matches.)
    root = tmp_path_factory.mktemp("emptied")
    shutil.copytree(repo / "runs" / "toy-rules-seed0", root / "run")
    (root / "run" / "stream" / "records.jsonl").write_text("")
    if kind == "verify":  # a rerun's marker, so that the table reaches the records
        (root / "run" / "verification.json").write_text('{"mode": "reproduced"}')
    folder = _spec(root / "exp", f'[[tables]]\nkind = "{kind}"\nruns = ["../run"]\n')
    capsys.readouterr()
    assert main(["figures", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "/run/stream holds no" in err[0] and "the protocol is unfinished" in err[0]
    # A by-run table shows such a protocol as the sweep's table shows an unfinished seed: dashes.
    (folder / "experiment.toml").write_text('[[tables]]\nkind = "by-run"\nruns = ["../run"]\n')
    assert main(["figures", str(folder), "--write"]) == 0
    row = next(line for line in (folder / "tables.md").read_text().splitlines() if line.startswith("| Toy"))
    assert row.split(" | ")[3:6] == ["-", "-", "-"]  # U, P and the share learned
