"""A learned procedure approved in the HUD runs its plan with the bash step asking in the same
HUD; the memory card lists what is remembered, and 👎 marks the answer's turn failed."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from jarvis.memory import MemoryService, MemorySettings
from jarvis.memory.sqlite_store import SqliteItemStore
from tests.browser.test_hud_access_and_modal import open_hud, say
from tests.integration.procedures.test_live import call, save_draft
from tests.support.live_server import live_server


async def test_approve_a_learned_procedure_then_it_runs_with_bash_asking(
    browser: Browser, tmp_path: Path
) -> None:
    save_draft(tmp_path)  # as distillation writes it: a draft of JARVIS's list_dir kind
    script = [call("procedure_list_and_echo", dir="."), "done: listed and echoed"]
    with live_server(tmp_path, script) as server:
        page = await open_hud(browser, server.launch_url())
        row = page.locator("#procedure-list li[data-name=list-and-echo]")
        await expect(row.locator(".procedure-marks")).to_have_text("초안")  # before any session
        await say(page, "/procedures")  # typed in the chat: answered as a command
        await expect(page.locator("#messages .msg.system").last).to_contain_text(
            "list-and-echo  [초안]"
        )
        await row.locator("button[data-decision=approve]").click()
        await expect(row.locator(".procedure-marks")).to_have_text("승인")
        await expect(row.locator("button[data-decision=approve]")).to_have_count(0)
        await say(page, "목록 보고 끝났다고 알려줘")
        await expect(page.locator("#modal")).to_be_visible()
        await expect(page.locator("#modal-title")).to_contain_text("bash")
        await expect(page.locator("#modal-args")).to_contain_text("echo finished-.")
        await page.click("#modal-buttons [data-answer=allow]")
        await expect(page.locator("#modal")).to_be_hidden()
        last = page.locator("#messages .msg.assistant").last
        await expect(last).to_contain_text("done: listed and echoed")
        await expect(page.locator("#memory-list")).to_contain_text("목록 보고 끝났다고 알려줘")
        await expect(last).to_have_text("done: listed and echoed")  # the answer stays as said
        await page.locator("#messages button.wrong").click()
        await expect(page.locator("#messages button.wrong")).to_be_disabled()
    store = SqliteItemStore(tmp_path / "memory.db")
    (episode,) = await MemoryService(MemorySettings(), store).episodes("main", "local")
    await store.aclose()
    assert (episode.outcome, episode.metadata["corrected"]) == ("failure", "👎")
    assert [call.name for call in episode.tool_calls] == ["procedure_list_and_echo"]
