"""The site builds with ``mkdocs build --strict``: a broken link, anchor or reference fails it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs comes with the docs extra: pip install -e '.[docs]'")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    command = [str(mkdocs)] if mkdocs.exists() else [shutil.which("mkdocs") or "mkdocs"]
    done = subprocess.run(
        [*command, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(mkdocs.parent)},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text()
    assert "continual-arc protocol" in cli and "--resamples" in cli  # the hook ran
    env = (tmp_path / "site" / "reference" / "env" / "index.html").read_text()
    assert 'id="continual_arc.env.Submit"' in env  # mkdocstrings rendered the stable path
