"""The site builds with ``mkdocs build --strict``: a broken link, anchor or reference fails it."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STABLE = ["env", "grids", "learner", "runner", "sandbox", "schedule", "addons", "testing"]


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
    roles = re.compile(r":(class|func|mod|data|meth|attr|exc|obj|const):(<code>|`)")
    printed = [
        f"{page.relative_to(tmp_path / 'site')}: {match.group(0)}"
        for page in sorted((tmp_path / "site").rglob("*.html"))
        for match in roles.finditer(page.read_text())
    ]
    assert printed == [], f"{len(printed)} Sphinx roles printed as text, the first: {printed[:5]}"
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text()
    assert "continual-arc protocol" in cli and "--resamples" in cli  # the hook ran
    for module in STABLE:  # every public name of a stable path has its entry on the built page
        page = (tmp_path / "site" / "reference" / module / "index.html").read_text()
        names = importlib.import_module(f"continual_arc.{module}").__all__
        assert [n for n in names if f'id="continual_arc.{module}.{n}"' not in page] == [], module
