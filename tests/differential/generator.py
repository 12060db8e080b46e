"""Seeded command lines for the differential test: a small grammar of the constructs where a
parser and bash can disagree (quotes, escapes, heredocs with odd delimiters, CR/LF/backslash,
control characters, substitutions, redirections, separators, comments, functions, keywords),
and a mutator that breaks generated lines the way attackers do (insert, delete, duplicate,
swap a blank for another byte).

Words never contain `/` except in the fixed `/dev/null` redirections, so whatever bash runs is
looked up in the stub directory: a bypass found here runs a logging stub, never a real program.
"""

from __future__ import annotations

import random

# Programs the gate's rules allow in the test, and others that must never run unlisted.
ALLOWED = ("echo", "ls", "cat", "printf", "true")
OTHERS = ("id", "hidden", "rm", "curl", "sh", "env", "eval", "alias", "x")
ARGS = ("a", "b", "-l", "--x", "status", "EOF", "E", "then", "fi", "done", "{", "}", "%s")
QUOTED = ("'a b'", '"a b"', "a'b'c", '"a"b', "'a'\\''b'", '"a\\"b"', '"a\\b"', "''", '""')
ESCAPES = ("\\a", "\\ ", "\\\\", "\\'", '\\"', "\\$", "\\`", "\\#", "\\;", "\\|", "\\&", "\\<")
SPECIALS = (
    "$x", "${x}", "$(id)", "`id`", "$((1+2))", "<(id)", "{a,b}", "a{b{c},d}", "~", "~x", "*",
    "?", "[ab]", "a#b", "#c", "$'a\\nb'", "$", "$\"a\"", "a=b", "!", "--", "-", "\u00e9",
    "\ud55c", "\u00a0", "a\u2028b", "\u202e", "${x:-a}", "$'\\x41'", "\u3000", "\u2003",
    "a\\", "--x=~", "a=~b", "@(a)", "!(a)", "+(a)", "a\\\\", "'a'\"b\"c", "$\"a\"",
)  # fmt: skip
CONTROLS = ("\r", "\t", "\x0b", "\x0c", "\x01", "\x1b", "\x7f", "\r\n", "\\\r\n", "\\\n")
SEPARATORS = (" ; ", " && ", " || ", " | ", " & ", "\n", " |& ", ";", "&&", "|", "\r\n", ";\r")
REDIRECTS = (
    "> /dev/null", "2>&1", ">&2", "2>/dev/null", "&>/dev/null", "< x", "<<< w", "<<<'w w'",
    ">| /dev/null", "0<x", "1>/dev/null", ">/dev/null 2>&1", "2>&-", "<&0",
)  # fmt: skip
DELIMITERS = (
    "EOF", "'EOF'", '"EOF"', 'E"O"F', "\\EOF", "E\\OF", "$E", "'E'OF", "E'O'F", "-EOF", "E F",
    "EO\\\nF", "'E$F'", '"E\\"F"', "E`x`", "E;F", "END_1",
)  # fmt: skip


class LineGenerator:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def line(self) -> str:
        choice = self.random.random()
        if choice < 0.15:
            return self.heredoc()
        if choice < 0.25:
            return self.compound()
        if choice < 0.45:
            return self.mutate(self.simple_line())
        return self.simple_line()

    def simple_line(self) -> str:
        parts = [self.command()]
        for _ in range(self.random.choice((0, 0, 1, 1, 2, 3))):
            parts.append(self.random.choice(SEPARATORS))
            parts.append(self.command())
        if self.random.random() < 0.1:
            parts.append(" # " + self.command())
        return "".join(parts)

    def command(self) -> str:
        pick = self.random
        name = pick.choice(ALLOWED) if pick.random() < 0.8 else pick.choice(OTHERS)
        if name == "git" or pick.random() < 0.1:
            name = "git status"
        words = [name]
        for _ in range(pick.choice((0, 1, 1, 2, 3))):
            words.append(self.word())
        if pick.random() < 0.2:
            words.append(pick.choice(REDIRECTS))
        blank = pick.choice((" ", " ", " ", "\t", "  "))
        return blank.join(words)

    def word(self) -> str:
        pick = self.random
        kind = pick.random()
        if kind < 0.4:
            return pick.choice(ARGS)
        if kind < 0.55:
            return pick.choice(QUOTED)
        if kind < 0.7:
            return pick.choice(ARGS) + pick.choice(ESCAPES) + pick.choice(("", "b"))
        if kind < 0.85:
            return pick.choice(SPECIALS)
        return pick.choice(ARGS) + pick.choice(CONTROLS) + pick.choice(ARGS + ALLOWED + OTHERS)

    def heredoc(self) -> str:
        pick = self.random
        delimiter = pick.choice(DELIMITERS)
        closing = pick.choice((_unquoted(delimiter), delimiter, "EOF", "E", _unquoted(delimiter)))
        operator = pick.choice(("<<", "<<", "<<-"))
        head = f"{pick.choice(ALLOWED)} {operator}{delimiter}"
        if pick.random() < 0.3:
            head += pick.choice(SEPARATORS[:5]) + self.command()
        body = [
            pick.choice(("a", "$x", "`id`", "$(id)", "\t" + closing, closing + " ", "b", "a\\"))
        ]
        if pick.random() < 0.5:
            body += [closing + pick.choice(("", "\r", " ")), self.command()]
        body.append(closing)
        tail = pick.choice(("", "\n" + self.command(), "\n"))
        return head + "\n" + "\n".join(body) + tail

    def compound(self) -> str:
        pick = self.random
        inner = self.command()
        return pick.choice(
            (
                f"( {inner} )", f"{{ {inner}; }}", f"{{{inner};}}", f"if true; then {inner}; fi",
                f"f() {{ {inner}; }}; f", f"! {inner}", f"time {inner}",
                f"case a in a) {inner};; esac", f"for i in a; do {inner}; done",
                f"[[ -n a ]] && {inner}", f"(( 1 )) && {inner}", f"{inner} $( {self.command()} )",
                f"coproc {inner}", f"{{ {inner} ; }} > /dev/null", f"until false; do {inner}; done",
                f"function f {{ {inner}; }}; f", f"{{ {inner}; }} &",
                f"echo $(cat <<E\n{inner}\nE\n)", f"select i in a; do {inner}; done",
            )
        )  # fmt: skip

    def mutate(self, line: str) -> str:
        pick = self.random
        for _ in range(pick.choice((1, 1, 2, 3))):
            if not line:
                return line
            at = pick.randrange(len(line) + 1)
            action = pick.random()
            if action < 0.4:
                token = pick.choice((*CONTROLS, *ESCAPES, "'", '"', "\\", "#", "$", "`", "\n"))
                line = line[:at] + token + line[at:]
            elif action < 0.55:
                line = line[:at] + line[at + 1 :]
            elif action < 0.7:
                end = min(len(line), at + pick.randrange(1, 6))
                line = line[:end] + line[at:end] + line[end:]
            elif action < 0.8:
                line = line.replace(" ", pick.choice((*CONTROLS, "\t", "\u00a0")), 1)
            elif action < 0.9:
                line = line[:at] + "\\" + line[at:]  # a backslash before anything
            else:
                line = line[:at] + pick.choice(SEPARATORS) + self.command() + line[at:]
        return line


def _unquoted(delimiter: str) -> str:
    return "".join(char for char in delimiter if char not in "'\"\\")
