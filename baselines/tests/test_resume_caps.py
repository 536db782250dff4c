"""Every learner kind the baselines ship, cut short under a spend cap and resumed with ``--resume``.

Each is played twice against its own scripted fake server, every call billed ``COST`` by that
server: once straight through under the cap, once cut (stopped after some rounds, or SIGKILLed)
and resumed. The resumed run must spend at most the cap and one call (the fake server's own log
says what was spent), and its records, cumulative counters included, must be the straight run's.
The two harnesses run as their real adapters launch them, on ``fake_harness.py`` installed where
the real program would be (``harness_rig.fake_install``).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_learners import LEARNERS, MODEL, TOY, toy_model

from continual_arc.core.files import read_json
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import STOPPED
from continual_arc.runner import LearnerError, RunOptions, run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.harness.hermes import HermesLearner
from continual_arc_baselines.harness.openclaw import OpenClawLearner
from continual_arc_baselines.harness.system import SystemLearner
from continual_arc_baselines.library.carry import ProxyCountsError
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

sys.path.insert(0, str(Path(__file__).parent))
from harness_rig import MODEL as HARNESS_MODEL
from harness_rig import answers, fake_install, killed_and_resumed, play_smoke, records, scripted_model

COST = 0.25  # USD per call, exact in binary: spend and cap compare without rounding
CUT = 1  # rounds a model learner plays before it is stopped (ModelProgramLibrary calls in rounds 0, 1, 6)
TOY_STREAM = build_schedule(TOY, 0, epilogue=False)
SMOKE = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
HARNESSES: dict[str, type[SystemLearner]] = {"hermes": HermesLearner, "openclaw": OpenClawLearner}
HARNESS_CAP = 4.0  # the scripted harness makes 5 calls an instance: the cap binds in the 4th (16th call)
KILL_CAP = 8.0  # binds in the 7th instance: after the killed round and the one resumed after it


def billed(fake: FakeModelServer) -> float:
    """What the fake server itself reported spending: the truth the records are held to."""
    return sum(float(usage.get("cost", 0.0)) for usage in fake.usage_reported)


def priced(script: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    """``script``'s replies, each billed ``COST`` by the server."""

    def reply(body: dict[str, Any]) -> Any:
        answer = script(body)
        return {**(answer if isinstance(answer, dict) else {"text": answer}), "cost": COST}

    return reply


def proxy_on(fake: FakeModelServer, stack: ExitStack, cap: float, model: str) -> ProxyHandle:
    return stack.enter_context(serve_proxy(ProxyConfig(upstream=fake.url, models=(model,), spend_cap=cap)))


def timeless(played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in played]


@contextmanager
def server(script: Callable[[dict[str, Any]], Any]) -> Iterator[FakeModelServer]:
    fake = FakeModelServer(priced(script)).start()
    try:
        yield fake
    finally:
        fake.close()


# -- the model learners ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_a_model_learner_resumed_under_a_cap_spends_and_counts_as_a_straight_run(
    cls: Any, tmp_path: Path
) -> None:
    def play(fake: FakeModelServer, stack: ExitStack, out: Path, cut: int | None) -> None:
        proxy = proxy_on(fake, stack, cap, MODEL)
        kwargs = {"model": MODEL, "base_url": proxy.url, "max_retries": 0}
        if cut is not None:
            run(cls(**kwargs), TOY_STREAM.first_rounds(cut), out)
            proxy = proxy_on(fake, stack, cap, MODEL)  # a new proxy: only the records carry the spend
            kwargs["base_url"] = proxy.url
        stopped = run(cls(**kwargs), TOY_STREAM, out, RunOptions(resume=cut is not None)).stopped
        assert stopped is not None and "spend cap" in stopped["message"]

    # The cap, from the fake server's bill of an uncapped probe: the first CUT rounds' spend and
    # half of what the rest would cost (at least one call), so that it binds after the cut.
    with server(toy_model) as fake:
        probe = {"model": MODEL, "proxy_counts": False, "base_url": fake.url}
        run(cls(**probe), TOY_STREAM.first_rounds(CUT), tmp_path / "probe")
        before = billed(fake)
        run(cls(**probe), TOY_STREAM, tmp_path / "probe", RunOptions(resume=True))
        rest = round((billed(fake) - before) / COST)
    assert rest >= 2, f"{cls.__name__} makes too few calls after round {CUT} for a cap to bind there"
    cap = before + max(1, rest // 2) * COST
    with server(toy_model) as fake, ExitStack() as stack:
        play(fake, stack, tmp_path / "straight", None)
        straight, straight_spend = records(tmp_path / "straight"), billed(fake)
    (tmp_path / "cut").mkdir()
    shutil.copy(tmp_path / "straight" / "alias-salt", tmp_path / "cut")  # the same task names
    with server(toy_model) as fake, ExitStack() as stack:
        play(fake, stack, tmp_path / "cut", CUT)
        resumed_spend = billed(fake)
    assert straight_spend == pytest.approx(cap)  # the cap bound the straight run
    assert resumed_spend <= cap + COST
    assert resumed_spend == pytest.approx(straight_spend)
    assert timeless(records(tmp_path / "cut")) == timeless(straight)


# -- the harnesses -----------------------------------------------------------------------------


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory holding the fake harness where each real harness would be installed."""
    data = tmp_path / "data"
    for name in HARNESSES:
        fake_install(name, data)
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(data))
    return data


@pytest.mark.parametrize("harness", sorted(HARNESSES))
def test_a_harness_stopped_and_resumed_under_a_cap_spends_and_counts_as_a_straight_run(
    harness: str, installed: Path, tmp_path: Path
) -> None:
    spent = stopped_and_resumed(HARNESSES[harness], scripted_model(answers(SMOKE)), tmp_path)
    assert spent == (HARNESS_CAP, HARNESS_CAP, 2 * 5 * COST)  # two instances of five calls at the cut
    played = records(tmp_path / "cut")
    assert timeless(played) == timeless(records(tmp_path / "straight"))
    # The first refusal for the cap stopped both runs cleanly, at the same round.
    stops = [read_json(tmp_path / name / STOPPED) for name in ("straight", "cut")]
    assert [{k: v for k, v in stop.items() if k != "message"} for stop in stops] == [
        {
            "by": "spend_cap",
            "round": stops[0]["round"],
            "slots_done": len(played),
            "slots_total": len(SMOKE.slots),
        }
    ] * 2
    assert len(played) == stops[0]["slots_done"] < stops[0]["slots_total"]


def stopped_and_resumed(
    cls: type[SystemLearner], script: Callable[[dict[str, Any]], Any], tmp_path: Path
) -> tuple[float, float, float]:
    """Play arc1-smoke under ``HARNESS_CAP`` straight into ``tmp_path/straight``, and into
    ``tmp_path/cut`` stopped after two rounds and resumed on a new proxy (only the records carry
    the run's spend); what the fake server billed: straight, in all when resumed, at the cut."""
    straight, cut = tmp_path / "straight", tmp_path / "cut"
    with server(script) as fake, ExitStack() as stack:
        play_smoke(cls, proxy_on(fake, stack, HARNESS_CAP, HARNESS_MODEL).url, straight)
        straight_spend = billed(fake)
    cut.mkdir()
    shutil.copy(straight / "alias-salt", cut)
    with server(script) as fake, ExitStack() as stack:
        play_smoke(cls, proxy_on(fake, stack, HARNESS_CAP, HARNESS_MODEL).url, cut, rounds=2)
        at_cut = billed(fake)
        play_smoke(cls, proxy_on(fake, stack, HARNESS_CAP, HARNESS_MODEL).url, cut, resume=True)
        resumed_spend = billed(fake)
    # The resumed run spends what the straight one did, within the cap and one call.
    assert resumed_spend <= HARNESS_CAP + COST
    return straight_spend, resumed_spend, at_cut


@pytest.mark.parametrize("harness", sorted(HARNESSES))
def test_a_harness_killed_and_resumed_under_a_cap_stays_within_it(
    harness: str, installed: Path, tmp_path: Path
) -> None:
    cls, script = HARNESSES[harness], scripted_model(answers(SMOKE), shell="terminal")
    straight, cut = tmp_path / "straight", tmp_path / "cut"
    named = {"run_id": f"capped-{harness}"}  # a proxy kept running counts the killed round under it
    with server(script) as fake, ExitStack() as stack:
        play_smoke(cls, proxy_on(fake, stack, KILL_CAP, HARNESS_MODEL).url, straight, **named)
    cut.mkdir()
    shutil.copy(straight / "alias-salt", cut)
    with server(script) as fake, ExitStack() as stack:
        url = proxy_on(fake, stack, KILL_CAP, HARNESS_MODEL).url
        at_kill = killed_and_resumed(cls, url, None, cut, rounds=2, seconds=300, **named)
        resumed_spend = billed(fake)
    assert 2 <= at_kill <= 4  # the cap binds in the 6th instance at the earliest
    assert resumed_spend <= KILL_CAP + COST
    # Up to the round after the resume the cap has not bound: every record, cumulative counters
    # included, is the straight run's (the killed round's calls are in no record).
    assert timeless(records(cut))[: at_kill + 1] == timeless(records(straight))[: at_kill + 1]


def test_a_harness_whose_proxy_cannot_take_the_carried_spend_stops_the_resume(
    installed: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with server(scripted_model(answers(SMOKE), shell="terminal")) as fake, ExitStack() as stack:
        url = proxy_on(fake, stack, HARNESS_CAP, HARNESS_MODEL).url
        play_smoke(HermesLearner, url, out, rounds=1)
    # The proxy is gone: resuming would start the spend cap again, so it is refused at once.
    with pytest.raises(LearnerError, match="resume_from") as caught:
        play_smoke(HermesLearner, url, out, resume=True)
    assert isinstance(caught.value.__cause__, ProxyCountsError)
    assert "spend cap would start again" in str(caught.value.__cause__)
