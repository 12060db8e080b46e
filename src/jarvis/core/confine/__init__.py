"""The second lock under the tool gate: an OS sandbox (bubblewrap, Linux) around what tools
start — `bash`, user tools' subprocesses, stdio MCP servers (docs/security.md).

Not `core/policy/sandbox.py`: that is the gate (`Sandbox.decide`), which judges a call before
it runs; this confines the process after the gate let it run, so a gate miss cannot touch
what the person never exposed.

- `plan.py` (pure): the bwrap command line and the limits.
- `hidden.py`: the gate's secret locations made concrete (what the sandbox covers).
- `probe.py`: does bubblewrap work here (once per process).
- `pids.py`: the process limit for root (a pids cgroup).
- `confiner.py`: `Confiner`, the configured sandbox the tools use.
- `judge.py` (pure): network need, leaving the sandbox, network granted by the approval.
- `auto_allow.py` (pure): the opt-in "no prompt for a confined command" judgement.
"""

from jarvis.core.confine.confiner import Confiner
from jarvis.core.confine.plan import Confinement, Limits

__all__ = ["Confinement", "Confiner", "Limits"]
