"""The environment of an instance, as a learner author meets it (a stable import path).

Actions (``Submit``, ``RequestDemos``, ``GiveUp``), their feedback, the learner's observation, the
rules (``EnvSettings``) and how an instance ends (``InstanceResult``) are defined in
`continual_arc.core`; the environment itself (``InstanceEnv``, the cost rules) in
[`continual_arc.tracks.grid_env`][continual_arc.tracks.grid_env]. A game level (arc3) is played with
``GameAction`` (and ``RequestDemos``, ``GiveUp``) on a ``GameObservation``
([`continual_arc.core.games`][continual_arc.core.games]); its environment, ``GameEnv``, needs the arc3 extra
(Python 3.12).
"""

from .core.actions import (
    Action,
    DemosFeedback,
    Feedback,
    GiveUp,
    GiveUpFeedback,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
    action_to_json,
    feedback_to_json,
)
from .core.environment import (
    Environment,
    EnvSettings,
    InstanceClosedError,
    InstanceResult,
    InvalidActionError,
)
from .core.games import (
    GameAction,
    GameDemo,
    GameDemosFeedback,
    GameFeedback,
    GameMove,
    GameObservation,
    GameReply,
    decode_frame,
    encode_frame,
)
from .tracks.grid_env import GridEnv

InstanceEnv = GridEnv
"""The environment of one grid instance ([`GridEnv`][continual_arc.tracks.grid_env.GridEnv])."""

__all__ = [
    "Action",
    "DemosFeedback",
    "EnvSettings",
    "Environment",
    "Feedback",
    "GameAction",
    "GameDemo",
    "GameDemosFeedback",
    "GameFeedback",
    "GameMove",
    "GameObservation",
    "GameReply",
    "GiveUp",
    "GiveUpFeedback",
    "GridEnv",
    "InstanceClosedError",
    "InstanceEnv",
    "InstanceResult",
    "InvalidActionError",
    "LearnerObservation",
    "RequestDemos",
    "Submit",
    "SubmitFeedback",
    "action_to_json",
    "decode_frame",
    "encode_frame",
    "feedback_to_json",
]
