"""The trained learner: the bare model on open weights, whose LoRA adapters learn between rounds.

`TrainedLearner` plays exactly as [`BareModelLearner`][continual_arc_baselines.systems.bare.BareModelLearner]
does (the same prompts, calls and counts), against weights it holds in its own process:

* it loads the weights (`load_engine`), wraps them in LoRA
  adapters, and serves them with the ``serve`` command's own server on ``serve_port``;
* its calls go through the tracking proxy like any model learner's: the proxy at ``base_url``
  when one is given (start it with ``--upstream http://127.0.0.1:<serve_port>/v1``), else a
  proxy it starts in its own process in front of its server, whose counts the records then hold;
* in ``end_round`` it trains the adapters on what the round taught it, in one fixed format
  (`round_examples`): every demonstration bought, each as the test of a bare prompt showing
  the instance's other demonstrations, and every answer verified right, as the test of a prompt
  showing all of them; the reply learned is the grid in a fenced block.

The model's name (``model``) is what records, submissions and ``check`` show: ``org/name@commit``
for a repository in the local Hugging Face cache, or ``local/<folder>@sha256:<hex>`` for the folder
given as ``weights`` (checked against it). ``save_state``/``load_state`` write and read the
adapters (safetensors) and the optimizer's state; ``reset()`` returns to the base weights.
``training_resources()`` gives the training compute, counted apart from the calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from continual_arc.env import Action, Feedback, LearnerObservation, Submit, SubmitFeedback
from continual_arc.grids import Grid

from .. import prompts
from ..game_play import game_level
from ..keywords import settings_from
from ..proxy import ProxyConfig, ProxyHandle, serve_proxy
from ..serve import Engine, ModelNotFound, ServeHandle, load_engine, resolve_model
from ..systems.bare import BareModelLearner
from .lora import Adapter, Example, LoraSettings

__all__ = ["Serving", "Taught", "TrainedLearner", "round_examples"]

_LORA_FIELDS = ("rank", "alpha", "learning_rate", "epochs", "max_train_tokens", "seed")
_SERVING_FIELDS = ("serve_port", "batch_window")


@dataclass(frozen=True)
class Serving:
    """How the trained learner serves its weights (two of its keywords).

    Attributes:
        serve_port: the port its server listens on (0: a free one; give one with ``base_url``).
        batch_window: seconds the server waits to batch concurrent requests.
    """

    serve_port: int = 0
    batch_window: float = 0.01


@dataclass(frozen=True)
class Taught:
    """What one instance taught: the demonstrations bought, and the test answered right if it was."""

    demos: tuple[tuple[Grid, Grid], ...]
    solved: tuple[Grid, Grid] | None
    attempts: int


def _reply(grid: Grid) -> str:
    return f"```\n{prompts.grid_text(grid)}\n```"


def round_examples(taught: Sequence[Taught]) -> list[Example]:
    """The round's examples in the fixed format (see the module docstring), in the order played."""
    examples = []
    for t in taught:
        for n, (given, wanted) in enumerate(t.demos):
            others = t.demos[:n] + t.demos[n + 1 :]
            messages = prompts.bare_messages(others, given, t.attempts)
            examples.append(Example(tuple(messages), _reply(wanted)))
        if t.solved is not None:
            messages = prompts.bare_messages(t.demos, t.solved[0], t.attempts)
            examples.append(Example(tuple(messages), _reply(t.solved[1])))
    return examples


def _engine(model: str, weights: str | None) -> Engine:
    """The weights ``model`` names, loaded; a folder's name checked against its files."""
    ref = resolve_model(weights if weights is not None else model)
    if ref.name != model:
        raise ModelNotFound(f"the folder {weights} is {ref.name}, not the model named {model}")
    return load_engine(ref)


class TrainedLearner(BareModelLearner):
    """The bare model whose adapters train between rounds (see the module docstring).

    Args:
        model: the model's name (``org/name@commit`` or ``local/<folder>@sha256:<hex>``).
        weights: the folder of a ``local/`` model.
        demos: demonstrations bought before the first answer.
        **options: ``serve_port`` and ``batch_window`` go to its server (`Serving`); ``rank``,
            ``alpha``, ``learning_rate``, ``epochs``, ``max_train_tokens`` and ``seed`` go to the
            adapters (`LoraSettings`); the rest are the bare model's (``base_url``, ``max_tokens``,
            ``max_calls``, ...).

    Raises:
        ModelNotFound: the weights are not on this machine, or do not match ``model``.
        ValueError: a keyword of the server or the adapters of another type or out of range.
    """

    stateless = False

    def __init__(
        self,
        model: str,
        weights: str | None = None,
        demos: int = 3,
        **options: object,
    ) -> None:
        what = "the trained learner's"
        lora = settings_from(LoraSettings, {k: options.pop(k) for k in _LORA_FIELDS if k in options}, what)
        serving = settings_from(Serving, {k: options.pop(k) for k in _SERVING_FIELDS if k in options}, what)
        self.engine = _engine(model, weights)
        self.adapter = Adapter(self.engine, lora)
        self.server = ServeHandle(self.engine, port=serving.serve_port, window=serving.batch_window)
        self.proxy: ProxyHandle | None = None
        if options.get("base_url") is None:
            # The weights are here: the proxy counts each prompt with the model's own tokenizer.
            counters = {model: self.engine.prompt_tokens}
            self.proxy = serve_proxy(ProxyConfig(self.server.url, (model,), prompt_counters=counters))
            options["base_url"] = self.proxy.url
        super().__init__(model, demos, **options)
        self._taught: list[Taught] = []

    def begin_round(self) -> None:
        """Start a round with nothing taught yet."""
        super().begin_round()
        self._taught.clear()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """The bare model's notes; at an instance's end, what it taught is kept for the round's training."""
        super().observe(obs, action, feedback)
        if not feedback.done or game_level(obs) is not None:
            return  # a game level teaches nothing in this format
        right = isinstance(feedback, SubmitFeedback) and feedback.correct and isinstance(action, Submit)
        solved = (obs.input, tuple(map(tuple, action.grid))) if right and isinstance(action, Submit) else None
        self._taught.append(Taught(tuple(obs.demos), solved, obs.attempt_cap))

    def end_round(self) -> None:
        """Settle the round's counts, then train the adapters on what it taught."""
        super().end_round()
        examples = round_examples(self._taught)
        if examples:
            self.adapter.train(examples)
        self._taught.clear()

    def reset(self) -> None:
        """Back to the base weights, with a fresh optimizer."""
        super().reset()
        self.adapter.reset()

    def save_state(self, directory: Path) -> None:
        """Write the adapters, the optimizer's state and the training counters."""
        self.adapter.save(Path(directory))

    def load_state(self, directory: Path) -> None:
        """Read what `save_state` wrote."""
        self.adapter.load(Path(directory))

    def training_resources(self) -> Mapping[str, float]:
        """The training compute so far (device-seconds, tokens trained, peak memory), never the score's."""
        return dict(self.adapter.compute)

    def memory(self) -> dict[str, object]:
        """What it keeps, as JSON: the adapters' shape and the training counters."""
        return {
            "model": self.settings.model,
            "lora": asdict(self.adapter.settings),
            **self.training_resources(),
            "untrained_rounds": list(self.adapter.untrained),
        }

    def close(self) -> None:
        """Stop its proxy and server and release the connections."""
        self.session.close()
        if self.proxy is not None:
            self.proxy.close()
        self.server.close()
