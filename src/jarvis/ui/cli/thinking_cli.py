"""`jarvis thinking route --json -`: the thought router on one message per line (for evaluation);
`jarvis thinking learner [--agent A] [--json]` and `jarvis thinking learner reset`: what speaking
first has learned, and its resets.

`route` needs no settings, storage or model: the shipped weights and the pure router.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from jarvis.app.settings import Settings

thinking = typer.Typer(
    help="The thinking layer: the thought router, the feedback learner.", no_args_is_help=True
)


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


learner_app = typer.Typer(
    help="What speaking first has learned (per agent), and its resets.",
    invoke_without_command=True,
)
thinking.add_typer(learner_app, name="learner")


def _settings() -> Settings:
    from jarvis.app.settings import SettingsError, load_settings
    from jarvis.ui.cli.assembly import fail

    try:
        return load_settings()
    except SettingsError as exc:
        raise fail(str(exc)) from None


@learner_app.callback()
def learner_show(
    ctx: typer.Context,
    agent: Annotated[str, typer.Option("--agent", help="One agent (default: every one).")] = "",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per agent.")] = False,
) -> None:
    """Per kind: 👍, 👎, do it, replies, ignored, stop; the threshold and its moves; muted
    topics and until when."""
    if ctx.invoked_subcommand is not None:
        return
    from zoneinfo import ZoneInfo

    from jarvis.app.proactive.learned import agent_view
    from jarvis.common.i18n import t
    from jarvis.common.jsonl import json_line
    from jarvis.core.proactive.learner_view import lines
    from jarvis.core.proactive.store import ProactiveStore

    settings = _settings()
    store = ProactiveStore(settings.home)
    agents = [agent] if agent else sorted(p.stem for p in store.dir.glob("*.json"))
    now = int(time.time() * 1000)
    if not agents and not as_json:
        typer.echo(t("learner.empty", settings.language).strip())
    for agent_id in agents:
        view = agent_view(store, agent_id, now)
        if as_json:
            typer.echo(json_line(view))
            continue
        tz = ZoneInfo(settings.timezone)
        typer.echo("\n".join(lines(agent_id, view, settings.language, tz)))


@learner_app.command("reset")
def learner_reset(
    agent: Annotated[str, typer.Option("--agent", help="The agent (default: main).")] = "main",
    kind: Annotated[str, typer.Option("--kind", help="Only this kind.")] = "",
    topic: Annotated[str, typer.Option("--topic", help="Only this muted topic.")] = "",
) -> None:
    """Forget what was learned: everything, one kind (--kind) or one muted topic (--topic)."""
    from jarvis.app.proactive.learned import reset, reset_line
    from jarvis.core.proactive.store import ProactiveStore

    if kind and topic:
        raise typer.BadParameter("--kind or --topic, not both")
    settings = _settings()
    known = reset(ProactiveStore(settings.home), agent, kind, topic)
    typer.echo(reset_line(agent, kind, topic, known, settings.language))
    if not known:
        raise typer.Exit(1)
