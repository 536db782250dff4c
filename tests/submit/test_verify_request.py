"""``verify-request``: an issue's form served end to end, on packs/demo, with a throwaway key.

The learner lives in a git repository of the test's own (a ``file://`` URL), installed at its
commit with pip into a folder of the test's, without any index: nothing leaves the machine.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.submit.signing import SIGNATURE, new_key_pair
from continual_arc.submit.standing import StandingKind, load_trusted, standing_of
from continual_arc.submit.verify_request import VerifyRequestError, parse_form

DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"

LEARNER = '''
from continual_arc.play.toy_learners import DemoBuyerLearner


class Buyer(DemoBuyerLearner):
    """Buys every demonstration, then gives up."""
'''

PYPROJECT = """
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "tiny-buyer"
version = "0.3.0"

[tool.setuptools]
packages = ["tiny_buyer"]
"""


def _form(repository: str, commit: str, *, budget: str = "5") -> str:
    fields = {"Track": "arc1", "Repository": repository, "Commit": commit, "Learner": "tiny_buyer:Buyer",
              "Models": "none", "Budget": budget}  # fmt: skip
    return "".join(f"### {label}\n\n{value}\n\n" for label, value in fields.items())


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(repo)}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip


@pytest.fixture
def repository(tmp_path: Path) -> tuple[str, str]:
    """A learner's repository: its URL and the commit to install."""
    repo = tmp_path / "tiny-buyer"
    (repo / "tiny_buyer").mkdir(parents=True)
    (repo / "tiny_buyer" / "__init__.py").write_text(LEARNER)
    (repo / "pyproject.toml").write_text(PYPROJECT)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "the learner")
    return f"file://{repo}", _git(repo, "rev-parse", "HEAD")


def test_a_form_is_read_field_by_field() -> None:
    commit = "ab" * 20
    request = parse_form(
        _form("https://github.com/you/tiny", commit).replace("none", "- openai/a\n- openai/b")
    )
    assert (request.track, request.commit, request.learner, request.budget) == (
        "arc1",
        commit,
        "tiny_buyer:Buyer",
        5,
    )
    assert request.models == ("openai/a", "openai/b")
    with pytest.raises(VerifyRequestError, match="the request's Commit is 'main', but must be a commit's 40"):
        parse_form(_form("https://github.com/you/tiny", "main"))
    with pytest.raises(VerifyRequestError, match="the request's Budget is '4000'"):
        parse_form(_form("https://github.com/you/tiny", commit, budget="4000"))
    with pytest.raises(VerifyRequestError, match="the request's Learner is missing"):
        parse_form(_form("https://github.com/you/tiny", commit).replace("tiny_buyer:Buyer", "_No response_"))


@pytest.mark.slow
def test_a_request_is_installed_verified_signed_and_answered(
    tmp_path: Path, repository: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    url, commit = repository
    keys = tmp_path / "secrets"
    new_key_pair(keys / "verifier", "verifier")
    (tmp_path / "issue.md").write_text(_form(url, commit))
    site = tmp_path / "site"
    tmp_path.chmod(0o755)  # the learner's processes run as nobody when the tests run as root
    out = tmp_path / "verification"
    argv = ["verify-request", str(tmp_path / "issue.md"), "--pack", str(DEMO),
            "--key", str(keys / "verifier"),
            "--out", str(out), "--comment", str(tmp_path / "comment.md"), "--target", str(site),
            "--pip-arg=--no-index", "--pip-arg=--no-deps", "--pip-arg=--no-build-isolation",
            "--seed", "3", "--resamples", "100"]  # fmt: skip
    assert main(argv) == 0
    comment = (tmp_path / "comment.md").read_text()
    assert comment == capsys.readouterr().out
    assert (
        "Standing: **verified** (verified by verifier (a verify rerun), signed over every file)." in comment
    )
    assert "| held-out |" in comment and str(DEMO) not in comment  # the pack's folder is never posted
    statement = read_json(out / SIGNATURE)["signatures"][0]["statement"]
    code = statement["learner"]["code"]
    assert (code["repository"], code["commit"], code["installed_commit"]) == (url, commit, commit)
    assert code["distribution"] == "tiny-buyer" and code["version"] == "0.3.0"
    assert statement["seed"] == 3 and statement["mode"] == "verified"
    standing = standing_of(out, load_trusted([keys / "verifier.pub"], folder=None))
    assert standing.kind is StandingKind.VERIFIED and standing.learner_code == code["sources_sha256"]
    assert f"`{code['sources_sha256']}`" in comment
