"""The thinking layer's agent-side parts (seed 004): the thought router, the inner thought engine.

The model only proposes (a thought frame); pure functions decide (route, fallbacks).
"""

from jarvis.agent_layer.thought.features import FEATURE_NAMES, RouteInput, features
from jarvis.agent_layer.thought.router import (
    Route,
    RouterWeights,
    load_weights,
    route,
)

__all__ = [
    "FEATURE_NAMES",
    "Route",
    "RouteInput",
    "RouterWeights",
    "features",
    "load_weights",
    "route",
]
