"""The model-free program writer: the DSL search, under a prior, with a shared cache of results."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..dsl import DEFAULT_BUDGET, Prior, ProgramError, execute, parse, search
from ..dsl import __version__ as DSL_VERSION
from ..dsl.grid import Grid
from ..dsl.ops import DEFAULT
from ..dsl.ops import catalogue as named_catalogue
from ..options import search_cache_allowed
from .search_cache import SearchCache, default_cache_dir
from .writer import WriteRequest, WriterResult, WrittenProgram

__all__ = ["DslWriter"]


class DslWriter:
    """The model-free writer: an enumerative search over the grid DSL.

    The search is bounded by a count of primitive applications, so that the same call gives the
    same programs on any machine. It searches under `prior`, which a learner may replace
    between rounds (the empty prior by default).

    A result is served from the search cache when an entry for the same inputs exists (the DSL's
    version, catalogue, budget, candidates kept, prior, demonstrations and test input); the work reported is
    the search's own either way (the applications it spent when it ran), so that a play's
    counters read the same with the cache, without it, and whichever play ran a search first.
    Cache hits are counted apart
    ([`cache_stats`][continual_arc_baselines.library.dsl_writer.DslWriter.cache_stats]).

    Args:
        budget: primitive applications per search.
        max_candidates: fitting programs kept per search.
        time_cap: CPU seconds of the searching thread; a safety net only (logged in the result's
            note when it fires; such a result, which depends on the machine, is never cached).
        cache: whether to use the search cache.
        cache_dir: where it lives (default: ``search-cache/`` in the data directory).
        catalogue: the name of the steps the search may take (`ops.CATALOGUES`; `ops.DEFAULT`'s unless named).
    """

    name = "dsl"

    def __init__(
        self,
        budget: int | None = None,
        max_candidates: int = 16,
        time_cap: float = 30.0,
        cache: bool = True,
        cache_dir: str | Path | None = None,
        catalogue: str = DEFAULT.name,
    ) -> None:
        self.catalogue = named_catalogue(catalogue)
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.max_candidates = max_candidates
        self.time_cap = time_cap
        # Off too where the command line says --no-search-cache (the core's switch, for every learner).
        use_cache = cache and search_cache_allowed()
        self.cache = SearchCache(cache_dir if cache_dir else default_cache_dir()) if use_cache else None
        self.prior = Prior.empty()
        self.searches = 0
        self.applications = 0
        self.cache_hits = 0
        self.last_served = False

    def _search(self, request: WriteRequest) -> WriterResult:
        result = search(
            list(request.demos),
            request.test_input,
            budget=self.budget,
            prior=self.prior,
            time_cap=self.time_cap,
            max_candidates=self.max_candidates,
            catalogue=self.catalogue,
        )
        programs = tuple(WrittenProgram(c.program.text, c.prediction, c.cost) for c in result.candidates)
        note = "the search's time cap fired" if result.hit_time_cap else None
        return WriterResult(programs, result.applications, note)

    def _key(self, request: WriteRequest) -> str:
        settings = [DSL_VERSION, self.catalogue.name, self.budget, self.max_candidates]
        settings.append(self.prior.fingerprint())
        return SearchCache.key(settings, request.demos, request.test_input)

    def write(self, request: WriteRequest) -> WriterResult:
        """Search the DSL for programs that fit every demonstration (or serve a cached search)."""
        self.searches += 1
        result = self._search(request) if self.cache is None else self._cached(self.cache, request)
        self.applications += result.work
        return result

    def _cached(self, cache: SearchCache, request: WriteRequest) -> WriterResult:
        """Serve the search from ``cache``, or run it under a claim and store it."""
        key = self._key(request)
        entry = cache.read(key)
        if entry is None:
            with cache.claim(key):
                # Another process may have stored it while this one waited for the claim.
                entry = cache.read(key)
                if entry is None:
                    self.last_served = False
                    result = self._search(request)
                    if result.note is None:  # a time-capped result depends on the machine
                        stored = [(p.text, p.prediction, p.weight) for p in result.programs]
                        cache.write(key, stored, result.work)
                    return result
        self.last_served = True
        self.cache_hits += 1
        programs = (WrittenProgram(p["text"], p["prediction"], p["weight"]) for p in entry["programs"])
        return WriterResult(tuple(programs), entry["work"])

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        """Run a kept DSL program on a fresh input."""
        try:
            return execute(parse(text), grid)
        except ProgramError:
            return None

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run's searches and applications from ``counts`` (its last record's)."""
        self.searches = int(counts.get("searches", 0))
        self.applications = int(counts.get("applications", 0))

    def resources(self) -> dict[str, float]:
        """Searches and primitive applications so far (a cached search counts what it cost)."""
        return {"searches": float(self.searches), "applications": float(self.applications)}

    def cache_stats(self) -> dict[str, int]:
        """Searches so far and how many of them the cache served."""
        return {"searches": self.searches, "cache_hits": self.cache_hits}
