"""The program-library learner and its program writers.

``ProgramLibraryLearner`` keeps, per task, the program that answered correctly and runs it first
when the task returns. Its writer proposes programs: the model-free :class:`DslWriter` searches a
grid DSL; a model writer asks a model. The policy and the memory are the same whatever writes.
"""

from .learner import KEEPS, LibraryMemory, ProgramLibraryLearner
from .writer import DslWriter, ProgramWriter, WriteRequest, WriterResult, WrittenProgram, group_by_prediction

__all__ = [
    "KEEPS",
    "DslWriter",
    "LibraryMemory",
    "ProgramLibraryLearner",
    "ProgramWriter",
    "WriteRequest",
    "WriterResult",
    "WrittenProgram",
    "group_by_prediction",
]
