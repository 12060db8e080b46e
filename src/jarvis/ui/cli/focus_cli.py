"""`jarvis focus start "<objective>" | list | show <id> | pause | resume | stop <id>`.

The task's files in `~/.jarvis/focus/<id>/`; a running `jarvis serve` (its scheduler on) plans
the task and runs its steps on the durable engine. `show --area log|references|analysis|plan`.
A change made here reaches the owner's open windows through the focus outbox
(`jarvis.app.focus.outbox`): the serving process sends it on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from jarvis.app.focus.tasks import Action, FocusTasks
    from jarvis.core.focus.state import FocusTask

T = TypeVar("T")

focus = typer.Typer(help="Focus tasks: long work that survives restarts.", no_args_is_help=True)
_User = Annotated[str, typer.Option("--user", help="Who asks (the terminal user: local).")]


def _tasks(send: Any = None) -> FocusTasks:
    from jarvis.app.focus.tasks import FocusTasks
    from jarvis.app.settings import SettingsError, load_settings
    from jarvis.common.clock import now_ms
    from jarvis.ui.cli.assembly import fail

    try:
        settings = load_settings()
    except SettingsError as exc:
        raise fail(str(exc)) from None
    return FocusTasks(settings.home, now_ms, settings.language, send)


def _told(work: Callable[[FocusTasks], Coroutine[Any, Any, T]]) -> T:
    """Run `work` on the tasks; what it tells the owner's windows goes to the outbox, for
    the serving processes to send on."""
    from jarvis.app.focus.outbox import post

    told: list[tuple[str, dict[str, Any]]] = []

    async def collect(user: str, event: dict[str, Any]) -> None:
        told.append((user, event))

    tasks = _tasks(collect)
    result = asyncio.run(work(tasks))
    post(tasks.home, told)
    return result


@focus.command("start")
def start(
    objective: str,
    user: _User = "local",
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=1, help="Model turns in all (plan, steps, retries).")
    ] = 20,
) -> None:
    """Start a Focus task: a served Jarvis plans it and runs its steps."""
    from jarvis.common.i18n import t

    async def begin(tasks: FocusTasks) -> tuple[FocusTasks, FocusTask]:
        task = tasks.start(objective, owner=user, max_turns=max_turns)
        await tasks.announce(task, "")
        return tasks, task

    tasks, task = _told(begin)
    typer.echo(t("focus.created", tasks.lang, task=task.id, objective=task.objective))
    typer.echo(task.id)


@focus.command("list")
def listing() -> None:
    """Every Focus task: id, status, steps done, objective."""
    rows = _tasks().list()
    if not rows:
        typer.echo("(no focus tasks in ~/.jarvis/focus/)")
    for task in rows:
        done = sum(1 for s in task.steps if s.status == "done")
        typer.echo(f"{task.id} [{task.status}] {done}/{len(task.steps)} {task.objective}")


@focus.command("show")
def show(
    task_id: str,
    area: Annotated[str, typer.Option("--area", help="plan, log, references or analysis")] = "plan",
) -> None:
    """One task's area as Markdown (default: the plan)."""
    from jarvis.app.focus.panel import area_markdown
    from jarvis.core.focus.render import AREAS
    from jarvis.ui.cli.assembly import fail

    if area not in AREAS:
        raise fail(f"unknown area {area!r}: {', '.join(AREAS)}")
    tasks = _tasks()
    try:
        task = tasks.get(task_id)
    except (LookupError, ValueError) as exc:
        raise fail(str(exc)) from None
    typer.echo(area_markdown(tasks.store, task, area))


def _act(task_id: str, action: Action, user: str) -> None:
    from jarvis.ui.cli.assembly import fail

    try:
        task = _told(lambda tasks: tasks.act(task_id, action, user))
    except (LookupError, PermissionError, ValueError) as exc:
        raise fail(str(exc)) from None
    typer.echo(f"{task.id} [{task.status}]")


@focus.command("pause")
def pause(task_id: str, user: _User = "local") -> None:
    """Pause: no new step starts (one under way finishes)."""
    _act(task_id, "pause", user)


@focus.command("resume")
def resume(task_id: str, user: _User = "local") -> None:
    """Continue from the first step not done (an interrupted step runs again)."""
    _act(task_id, "resume", user)


@focus.command("stop")
def stop(task_id: str, user: _User = "local") -> None:
    """Cancel the task for good (its files stay)."""
    _act(task_id, "stop", user)
