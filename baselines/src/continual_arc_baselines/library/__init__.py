"""The program-library learner and its program writers.

``ProgramLibraryLearner`` keeps, per task, the program that answered correctly and runs it first
when the task returns. Its writer proposes programs: the model-free
[`DslWriter`][continual_arc_baselines.library.dsl_writer.DslWriter] searches a grid DSL; a model writer asks a
model. The policy and the memory are the same whatever writes.
"""

from .dsl_writer import DslWriter
from .learner import KEEPS, LibraryMemory, PriorLibraryLearner, PriorOnlyLearner, ProgramLibraryLearner
from .search_cache import SearchCache, default_cache_dir
from .writer import ProgramWriter, WriteRequest, WriterResult, WrittenProgram, group_by_prediction

__all__ = [
    "KEEPS",
    "DslWriter",
    "LibraryMemory",
    "PriorLibraryLearner",
    "PriorOnlyLearner",
    "ProgramLibraryLearner",
    "ProgramWriter",
    "SearchCache",
    "WriteRequest",
    "WriterResult",
    "WrittenProgram",
    "default_cache_dir",
    "group_by_prediction",
]
