"""Speaking first (seed 004's proactive core): the gate, the feedback learner, one pass.

Off by default and not yet wired to triggers (see docs/thinking.md); the parts are pure or take
their model call as a function, so they are tested without a model.
"""

from jarvis.core.proactive.core import PassResult, ProactiveCore, parse_candidates
from jarvis.core.proactive.gate import Candidate, Policy, Situation, Verdict, decide, fingerprint

__all__ = [
    "Candidate",
    "PassResult",
    "Policy",
    "ProactiveCore",
    "Situation",
    "Verdict",
    "decide",
    "fingerprint",
    "parse_candidates",
]
