"""`jarvis chat` at a terminal edits lines with prompt_toolkit: ↑ recalls earlier lines (kept
across chats in a file only the person can read), Tab completes slash commands, and output that
arrives meanwhile (answers, approvals) lands above the input line without breaking what is typed."""

from __future__ import annotations

import stat
from pathlib import Path

import pexpect

from tests.integration.cli.test_chat_pty import finish, spawn

UP = "\x1b[A"  # what the ↑ key sends
CTRL_C = "\x03"


def _denied(child: pexpect.spawn, command: str) -> None:
    child.expect("⚡ Approval needed · bash")
    child.expect(f"command: {command}")
    child.expect(r"answer in words\] \(\d+s\) › ")
    child.sendline("d")
    child.expect("Approval was denied, so bash did not run")
    child.expect("› ")


def test_up_recalls_the_previous_line_across_a_restart(tmp_path: Path) -> None:
    history = tmp_path / "logs" / "chat_history"
    history.parent.mkdir()
    history.write_text("\n# from an older chat\n+/help\n", encoding="utf-8")
    history.chmod(0o644)  # made readable by others (a copied home): closed again at start
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.sendline("!echo recalled-ok")
    _denied(child, "echo recalled-ok")
    child.send(UP)  # the line itself comes back (before: `^[[A` went to the model)
    child.sendline("")
    _denied(child, "echo recalled-ok")
    finish(child)

    assert stat.S_IMODE(history.stat().st_mode) == 0o600  # the person's prompts are private
    kept = [line for line in history.read_text(encoding="utf-8").splitlines() if line[:1] == "+"]
    assert kept == ["+/help", "+!echo recalled-ok", "+/exit"]  # the answers ("d") are not kept

    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.send(UP + UP)  # past `/exit` to the line before it
    child.sendline("")
    child.expect("command: echo recalled-ok")
    child.expect(r"\(\d+s\) › ")
    child.sendline("a")
    child.expect("✓ bash · allowed once")
    child.expect("recalled-ok")
    finish(child)
    assert "\x1b[A" not in history.read_text(encoding="utf-8")


def test_without_a_history_file_up_still_recalls_this_chats_lines(tmp_path: Path) -> None:
    (tmp_path / "logs" / "chat_history").mkdir(parents=True)  # cannot be opened as a file
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.sendline("!echo in-memory")
    _denied(child, "echo in-memory")
    child.send(UP)  # the prompt, not the answer "d"
    child.sendline("")
    _denied(child, "echo in-memory")
    finish(child)


def test_tab_completes_a_slash_command(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.send("/proc\t")
    child.expect("edures")  # drawn once completed (the rest of the line is not redrawn)
    child.sendline("")
    child.expect("No learned procedures.")  # not "Unknown command: /proc"
    child.expect("› ")
    child.send("/he\t")
    child.expect("lp")
    child.sendline("")
    child.expect("Commands:")
    finish(child)


def test_tab_lists_the_commands_with_their_help(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.send("/s\t")  # /sessions, /stop, /status: a menu, each with its one-line help
    child.expect("the model answering")
    child.send("\x03")  # Ctrl-C: the line is dropped, the chat goes on
    child.expect("to quit")
    finish(child)


def test_approvals_are_answered_at_the_input_line(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.sendline("!touch denied-file")
    _denied(child, "touch denied-file")
    child.sendline("!touch allowed-file")
    child.expect(r"\(\d+s\) › ")
    child.sendline("a")
    child.expect("✓ bash · allowed once")
    child.expect("› ")
    finish(child)
    assert (tmp_path / "allowed-file").exists()
    assert not (tmp_path / "denied-file").exists()


def test_ctrl_c_stops_the_running_turn_and_the_chat_goes_on(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--demo", JARVIS_LANGUAGE="en")
    child.expect("› ")
    child.sendline("!sleep 600")
    child.expect(r"\(\d+s\) › ")
    child.sendline("a")
    child.expect("✓ allowed")
    child.send(CTRL_C)  # a key to prompt_toolkit: the chat stops the turn, as on SIGINT
    child.expect(r"\(stopping\)")
    child.expect("› ")
    child.send(CTRL_C)  # when idle: the hint to quit, and the chat stays
    child.expect(r"\(Ctrl-D or /exit to quit\)")
    child.sendline("!echo still-here")
    child.expect("command: echo still-here")
    child.expect(r"\(\d+s\) › ")
    child.sendline("a")
    child.expect("still-here")
    child.expect("› ")
    child.sendeof()  # Ctrl-D on an empty line ends the chat
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
