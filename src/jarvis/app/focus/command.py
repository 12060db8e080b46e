"""`/focus <objective>` in chat (the terminal and the HUD): starts a Focus task for the person.
The server's ticker plans it and runs its steps; `/focus` alone lists the person's tasks."""

from __future__ import annotations

from jarvis.app.focus.tasks import FocusTasks
from jarvis.app.infra import AppAssembly
from jarvis.common.i18n import t
from jarvis.core.commands import Argument, Command, CommandContext, Outcome, Reply


def focus_command(app: AppAssembly) -> Command:
    async def handle(ctx: CommandContext) -> Outcome:
        tasks = FocusTasks(app.settings.home, app.clock.now_ms, ctx.lang)
        if not ctx.args:
            rows = [
                f"{task.id} [{task.status}] "
                f"{sum(1 for s in task.steps if s.status == 'done')}/{len(task.steps)} "
                f"{task.objective}"
                for task in tasks.list(ctx.user_id)
            ]
            return Reply("\n".join(rows) or t("focus.none", ctx.lang))
        task = tasks.start(ctx.args, owner=ctx.user_id)
        return Reply(t("focus.created", ctx.lang, task=task.id, objective=task.objective))

    return Command(
        name="focus",
        handler=handle,
        help_key="commands.help.focus",
        args=(Argument("OBJECTIVE", optional=True),),
        origin="focus",
    )
