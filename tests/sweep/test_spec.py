from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.core.config import ScheduleError
from continual_arc.sweep.spec import SpecError, load_spec, parse_spec

LEARNER = {"class": "continual_arc.testing:ToyRuleLearner"}


def test_a_spec_expands_into_protocols(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text(
        'configs = ["toy-smoke", "arc1-small"]\nseeds = [0, 1]\nusers = [1, 2]\n'
        "[run]\nresamples = 500\nplots = false\n"
        '[[learners]]\nname = "toy"\nclass = "continual_arc.testing:ToyRuleLearner"\n'
        "axes = {keep = [true, false]}\ncpus = 0.5\n"
        '[[learners]]\nclass = "continual_arc.testing:GiveUpLearner"\ngpus = 1\n'
    )
    spec = load_spec(path)
    assert spec.name == "two" and spec.configs == ("toy-smoke", "arc1") and spec.run.resamples == 500
    assert [v.label for v in spec.variants] == ["toy keep=true", "toy keep=false", "GiveUpLearner"]
    assert spec.variants[1].kwargs == {"keep": False} and spec.variants[1].cpus == 0.5
    assert spec.variants[2].gpus == 1.0 and not spec.run.plots
    runs = spec.protocols()
    assert len(runs) == 3 * 2 * 2 * 2
    assert runs[0].directory == Path("protocols/toy-keep=true/toy-smoke-users1-seed0")
    assert runs[2].setting == "toy-smoke, 2 users" and runs[0].setting == "toy-smoke, 1 user"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"learners": [LEARNER], "colour": 1}, "^the spec: field colour is not one this document holds$"),
        (
            {"learners": [{**LEARNER, "cpus": "2"}]},
            r"^the spec: field learners\[0\]\.cpus should be a valid number, not '2'$",
        ),
        (
            {"learners": [LEARNER], "seeds": [True]},
            r"^the spec: field seeds\[0\] should be a valid integer, not True$",
        ),
        ({"learners": []}, "at least one"),
        ({"learners": [{"class": "nocolon"}]}, "module:Class"),
        ({"learners": [LEARNER], "seeds": [-1]}, "seeds must be"),
        ({"learners": [LEARNER], "users": []}, "users must be"),
        ({"learners": [LEARNER, LEARNER]}, "share a name"),
        ({"learners": [{**LEARNER, "axes": {"keep": []}}]}, "non-empty list"),
        ({"learners": [{**LEARNER, "cpus": -1}]}, "at least 0"),
        ({"learners": [LEARNER], "run": {"alias_style": "x"}}, "alias_style"),
        ({"learners": [LEARNER], "run": {"speed": 1}}, "field run.speed is not one this document holds"),
        ({"learners": [LEARNER], "run": {"plots": "yes"}}, "field run.plots should be a valid boolean"),
        ({"learners": [LEARNER], "config": "toy-smoke", "configs": ["toy-smoke"]}, "not both"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(document: dict[str, object], message: str) -> None:
    document.setdefault("configs", ["toy-smoke"]) if "config" not in document else None
    with pytest.raises(SpecError, match=message):
        parse_spec(document)


def test_an_unknown_configuration_or_file(tmp_path: Path) -> None:
    with pytest.raises(ScheduleError, match="no configuration named 'nope'"):
        parse_spec({"configs": ["nope"], "learners": [LEARNER]})
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("configs = [")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_spec(tmp_path / "bad.toml")
