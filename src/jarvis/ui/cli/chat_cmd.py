"""`jarvis chat`: build the assembly, open or create the session, run the REPL."""

from __future__ import annotations

import asyncio
import logging

from jarvis.app.infra import AppAssembly
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.settings import SettingsError
from jarvis.common.i18n import t
from jarvis.ui.cli.chat import ChatRepl
from jarvis.ui.cli.main import assemble, fail


def run_chat(*, demo: bool, session_id: str | None) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    assembly = assemble(demo=demo)
    asyncio.run(_chat(assembly, session_id))


async def _chat(assembly: AppAssembly, session_id: str | None) -> None:
    builder = SessionBuilder(assembly)
    try:
        await assembly.start()
    except SettingsError as exc:
        raise fail(str(exc)) from None
    try:
        if session_id:
            found = await builder.open(session_id)
            if found is None:
                lang = assembly.settings.language
                raise fail(t("terminal.session_missing_start", lang, session=session_id))
            session = found
        else:
            session = await builder.create()
        await ChatRepl(builder, session).run()
    finally:
        await assembly.aclose()
