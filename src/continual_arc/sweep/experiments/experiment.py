"""The experiments the project reports: each table recomputed from its stored runs, and compared.

An experiment is a folder (``experiments/NAME/``) holding ``experiment.toml``, which names its
tables, and ``tables.md``, the tables as they were last written, each between markers naming it
so that a page can include it alone. Each table reads protocol directories (the repository's
``runs/``, or the experiment's own, given relative to its folder) and is one of:

* ``plane``: one protocol's numbers as the README shows them (the share saved on each test with
  its 95 % interval, T, U and P of learner and reset, the share learned over the stream), read
  from its records as ``continual-arc protocol`` reads them
  ([`plane_point`][continual_arc.protocol.plane.plane_point]);
* ``printed``: one protocol's summary as ``continual-arc protocol`` printed it, recomputed
  ([`printed_summary`][continual_arc.sweep.experiments.tables.printed_summary]);
* ``pooled``: the sweep's table over the runs, each learner's seeds pooled
  ([`rows`][continual_arc.sweep.collect.rows], [`markdown`][continual_arc.sweep.table.markdown]); its
  optional ``names`` (a learner's import path to a name) labels rows as the sweep that played the
  runs did (``library keep=demos``, not ``ProgramLibraryLearner keep=demos``);
* ``by-run``: the same columns, one row per protocol in the order given
  ([`by_run_table`][continual_arc.sweep.experiments.tables.by_run_table]);
* ``verify``: ``continual-arc verify`` reruns side by side, a row each, with the flags on the reset
  reference ([`verify_table`][continual_arc.sweep.experiments.verify.verify_table]);
* ``curve`` and ``users``: figures, their numbers as tables and drawn by ``--write``
  ([`charts`][continual_arc.sweep.experiments.charts]).

[`figures`][continual_arc.sweep.experiments.experiment.figures] recomputes ``tables.md`` and
[`differences`][continual_arc.sweep.experiments.experiment.differences] says, one sentence a line, where
it departs from the stored one. Everything is read from records, meta and summaries: stored runs need
no trajectories.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import ContinualArcError
from ..collect import collect, rows
from ..table import markdown
from .charts import FIGURE_KINDS, FIGURES_DIR, entry_problem, figure_clash, figure_file, figure_section
from .tables import RESAMPLES, by_run_table, plane_table, printed_summary
from .verify import verify_table

__all__ = [
    "EXPERIMENT_FILE",
    "TABLES_FILE",
    "Experiment",
    "ExperimentError",
    "Table",
    "differences",
    "figures",
    "load_experiment",
    "remove_stray_figures",
    "stored_figure_problems",
]

EXPERIMENT_FILE = "experiment.toml"
"""The file that makes a folder an experiment."""

TABLES_FILE = "tables.md"
"""The stored tables of an experiment, beside its ``experiment.toml``."""

KINDS = ("plane", "printed", "pooled", "by-run", "verify", *FIGURE_KINDS)
"""The kinds of table (or figure) an experiment may hold."""

ONE_RUN = ("plane", "printed")
"""The kinds that read exactly one protocol directory."""

NAMED = ("pooled", "by-run")
"""The kinds whose rows may carry ``names``."""

NAME = re.compile(r"[a-z][-_0-9a-z]*")
"""A table's name: what a page includes it by (``--8<-- "experiments/X/tables.md:NAME"``)."""


class ExperimentError(ContinualArcError):
    """A folder that is not an experiment, or an ``experiment.toml`` that cannot be read."""


@dataclass(frozen=True)
class Table:
    """One table of an experiment: its heading, its kind and the directories it reads.

    ``name`` is what a page includes the table by (``table-N``, N from 1, unless given);
    ``names`` (a pooled or by-run table's): pairs of a learner's import path and the name its rows
    carry.
    ``floors`` (a curve's): the protocol or run directories drawn as its floors.
    """

    title: str
    kind: str
    runs: tuple[Path, ...]
    names: tuple[tuple[str, str], ...] = ()
    name: str = ""
    floors: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Experiment:
    """An experiment: its folder, its title and its tables, in order."""

    folder: Path
    title: str
    tables: tuple[Table, ...]


def _table(entry: object, folder: Path, where: Path, number: int) -> Table:
    if not isinstance(entry, dict):
        raise ExperimentError(f"{where}: each [[tables]] entry must be a table of keys")
    kind, runs = entry.get("kind"), entry.get("runs")
    if kind not in KINDS:
        raise ExperimentError(f"{where}: table kind {kind!r} is not one of {', '.join(KINDS)}")
    if not isinstance(runs, list) or not runs or not all(isinstance(r, str) for r in runs):
        raise ExperimentError(f"{where}: a table's runs must be a non-empty list of folders")
    if kind in ONE_RUN and len(runs) != 1:
        raise ExperimentError(f"{where}: a {kind} table reads exactly one protocol directory")
    missing = [r for r in runs if not (folder / r).is_dir()]
    if missing:
        raise ExperimentError(f"{where}: the run {missing[0]} does not exist (relative to {folder})")
    names = _names(entry.get("names", {}), kind, where)
    problem = entry_problem(kind, entry, folder)
    if problem is not None:
        raise ExperimentError(f"{where}: {problem}")
    floors = tuple(folder / f for f in entry.get("floors", ()))
    name = entry.get("name", f"table-{number}")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ExperimentError(
            f"{where}: a table's name must be lower-case letters, digits, - and _, "
            f"starting with a letter (not {name!r})"
        )
    runs_in = tuple(folder / r for r in runs)
    return Table(str(entry.get("title") or kind), kind, runs_in, names, name, floors)


def _names(names: object, kind: str, where: Path) -> tuple[tuple[str, str], ...]:
    """A pooled table's ``names``: each learner's import path to the name its rows carry."""
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise ExperimentError(f"{where}: a table's names must map a learner's import path to a name")
    if names and kind not in NAMED:
        raise ExperimentError(f"{where}: only a pooled or by-run table names its learners")
    return tuple(names.items())


def load_experiment(folder: Path | str) -> Experiment:
    """Read ``folder/experiment.toml``.

    Raises:
        ExperimentError: the folder holds no ``experiment.toml``, or it names an unknown kind or a
            run that does not exist.
    """
    root = Path(folder)
    where = root / EXPERIMENT_FILE
    try:
        spec = tomllib.loads(where.read_text())
    except FileNotFoundError:
        raise ExperimentError(f"{root} is not an experiment: it holds no {EXPERIMENT_FILE}") from None
    except tomllib.TOMLDecodeError as err:
        raise ExperimentError(f"{where}: not TOML ({err})") from None
    entries = spec.get("tables")
    if not isinstance(entries, list) or not entries:
        raise ExperimentError(f"{where}: names no [[tables]]")
    tables = tuple(_table(entry, root, where, n) for n, entry in enumerate(entries, 1))
    twice = [name for name, count in Counter(t.name for t in tables).items() if count > 1]
    if twice:
        raise ExperimentError(f"{where}: two tables are named {twice[0]!r}: a page could not tell them apart")
    clash = figure_clash(t.title for t in tables if t.kind in FIGURE_KINDS)
    if clash is not None:
        raise ExperimentError(f"{where}: {clash}")
    return Experiment(root, str(spec.get("title") or root.name), tables)


def _compute(table: Table, draw_in: Path | None) -> str:
    if table.kind in FIGURE_KINDS:
        return figure_section(table.kind, table.title, table.runs, table.floors, draw_in, resamples=RESAMPLES)
    if table.kind == "plane":
        return plane_table(table.runs[0])
    if table.kind == "printed":
        return printed_summary(table.runs[0])
    if table.kind == "by-run":
        return by_run_table(table.runs, dict(table.names))
    if table.kind == "verify":
        return verify_table(table.runs, resamples=RESAMPLES)
    return markdown(rows(collect(table.runs, names=dict(table.names)), resamples=RESAMPLES))


def figures(experiment: Experiment, *, draw: bool = False) -> str:
    """The experiment's ``tables.md``, recomputed from its runs (``draw``: its figures drawn too)."""
    command = f"continual-arc figures experiments/{experiment.folder.name}"
    parts = [
        f"<!-- {experiment.title}: written by `{command} --write`, "
        "checked by `continual-arc figures`; do not edit by hand -->\n"
    ]
    for table in experiment.tables:
        # The markers let a page include this table alone; the snippets extension drops them.
        body = _compute(table, experiment.folder if draw else None)
        parts.append(
            f"\n## {table.title}\n\n<!-- --8<-- [start:{table.name}] -->\n{body}"
            f"<!-- --8<-- [end:{table.name}] -->\n"
        )
    return "".join(parts)


def differences(stored: str, recomputed: str, where: Path | str) -> list[str]:
    """Where the stored tables depart from the recomputed ones: one sentence per differing line."""
    old, new = stored.splitlines(), recomputed.splitlines()
    out = [
        f"{where}, line {n}: stored {a!r}, but the runs give {b!r}"
        for n, (a, b) in enumerate(zip(old, new, strict=False), 1)
        if a != b
    ]
    if len(old) > len(new):
        out.append(f"{where}: holds {len(old) - len(new)} line(s) past the {len(new)} the runs give")
    elif len(new) > len(old):
        out.append(f"{where}: lacks the last {len(new) - len(old)} line(s) of the {len(new)} the runs give")
    return out


def _figure_titles(experiment: Experiment) -> list[str]:
    return [table.title for table in experiment.tables if table.kind in FIGURE_KINDS]


def _stray(experiment: Experiment) -> list[Path]:
    """Drawings in the experiment's ``figures/`` that no figure of it names."""
    named = {experiment.folder / figure_file(title) for title in _figure_titles(experiment)}
    return sorted(p for p in (experiment.folder / FIGURES_DIR).glob("*.svg") if p not in named)


def stored_figure_problems(experiment: Experiment) -> list[str]:
    """One sentence per drawing missing from the experiment's folder, or there but named by no figure."""
    out = [
        f"{path} is missing: draw it with --write"
        for path in (experiment.folder / figure_file(title) for title in _figure_titles(experiment))
        if not path.is_file()
    ]
    out += [
        f"{path} is drawn by no figure of its experiment.toml: --write removes it"
        for path in _stray(experiment)
    ]
    return out


def remove_stray_figures(experiment: Experiment) -> list[Path]:
    """Delete the drawings no figure of the experiment names (a figure retitled or removed)."""
    stray = _stray(experiment)
    for path in stray:
        path.unlink()
    return stray
