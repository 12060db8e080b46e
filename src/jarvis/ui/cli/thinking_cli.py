"""`jarvis thinking route --json -`: the thought router on one message per line (for evaluation).

No settings, no storage, no model: the shipped weights and the pure router.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

thinking = typer.Typer(help="The thinking layer: the thought router.", no_args_is_help=True)


@thinking.command("route")
def route_command(
    source: Annotated[str, typer.Argument(help="'-' reads one message per line from stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    pending_approval: Annotated[
        bool, typer.Option("--pending-approval", help="Route as answers to a waiting approval.")
    ] = False,
) -> None:
    """Would the router think on each message? {"think", "p_think", "reason"} per line."""
    from jarvis.agent_layer.thought import RouteInput, load_weights, route
    from jarvis.common.jsonl import json_line

    weights = load_weights()
    lines = sys.stdin if source == "-" else [source]
    for raw in lines:
        text = raw.rstrip("\r\n")
        decided = route(RouteInput(text, pending_approval=pending_approval), weights)
        if as_json:
            out = {"think": decided.think, "p_think": decided.p_think, "reason": decided.reason}
            typer.echo(json_line(out))
        else:
            typer.echo(
                f"{'think' if decided.think else 'skip '}  {decided.p_think:.3f}  {decided.reason}"
            )
