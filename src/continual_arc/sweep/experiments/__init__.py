"""The experiments the project reports, each table recomputed from its stored runs and compared.

Modules: [`experiment`][continual_arc.sweep.experiments.experiment] (an experiment's folder read,
its tables recomputed and compared with the stored ones),
[`tables`][continual_arc.sweep.experiments.tables] (the plane, printed and by-run kinds),
[`verify`][continual_arc.sweep.experiments.verify] (verify reruns side by side) and
[`charts`][continual_arc.sweep.experiments.charts] (the figures: curve, users and cost, their
numbers as tables, drawn).
"""

from __future__ import annotations

from .experiment import (
    EXPERIMENT_FILE,
    TABLES_FILE,
    Experiment,
    ExperimentError,
    Table,
    differences,
    figures,
    load_experiment,
    remove_stray_figures,
    stored_figure_problems,
)

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
