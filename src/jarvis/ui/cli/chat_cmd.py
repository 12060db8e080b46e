"""`jarvis chat`: build the assembly, open or create the session, run the REPL."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any

from jarvis.app.agent_commands import unknown_agent
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import AppAssembly
from jarvis.app.settings import SettingsError, default_home
from jarvis.app.unattended.service import Unattended
from jarvis.common.i18n import Language, t
from jarvis.ui.cli.assembly import assemble, env_language, fail
from jarvis.ui.cli.chat import ChatRepl
from jarvis.ui.cli.chat_log import NoticeHandler, route_logs


def run_chat(*, demo: bool, session_id: str | None, agent: str | None = None) -> None:
    try:
        notice = route_logs(default_home(), env_language())
    except OSError:  # no writable data dir: start-up says so in one line below
        notice = None
    assembly = assemble(demo=demo)
    if notice is not None:
        notice.lang = assembly.settings.language
    asyncio.run(_chat(assembly, session_id, agent, notice))


async def _chat(
    assembly: AppAssembly,
    session_id: str | None,
    agent: str | None,
    notice: NoticeHandler | None,
) -> None:
    agents = AgentRegistry(assembly)
    try:
        await assembly.start()
    except SettingsError as exc:
        raise fail(str(exc)) from None
    try:
        lang = assembly.settings.language
        if session_id:
            found = await agents.open(session_id)
            if found is None:
                raise fail(t("terminal.session_missing_start", lang, session=session_id))
            session = found
        else:
            builder = agents.get(agent)
            if builder is None:
                raise fail(unknown_agent(agents, agent or "", lang))
            session = await builder.create()
        repl = ChatRepl(agents, session)
        if notice is not None:
            notice.attach(repl.render.line)
        # Reminders and unattended results reach the terminal too (seed 001, issue 19).
        unattended = Unattended(assembly, agents.builders())
        unattended.hub.terminal = None
        unattended.hub.attach(session.info.user_id, lambda event: _show(repl, event, lang))
        # In the background: the REPL is usable at once, the engine joins when it is up. A
        # piped, scripted chat lives for seconds: it runs no unattended work of its own.
        interactive = sys.stdin.isatty()
        starting = asyncio.create_task(unattended.start() if interactive else asyncio.sleep(0))
        try:
            await repl.run()
        finally:
            if not starting.done():
                starting.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await starting
            await unattended.aclose()
    finally:
        await assembly.aclose()


def _show(repl: ChatRepl, event: dict[str, Any], lang: Language) -> None:
    """A hub message in the terminal; a speaking-first one says how to answer it."""
    if event.get("type") != "proactive_message":
        return  # the HUD's other events (passes, Focus panels) are not lines here
    text = str(event["text"])
    if str(event.get("message_id", "")).startswith("proactive:"):
        text = f"{text}  {t('proactive.terminal_hint', lang)}"
    repl.render.line(text)
