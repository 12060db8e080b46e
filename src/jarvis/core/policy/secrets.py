"""Secret-looking words: a remembered rule must never hold one (rule files are plain text,
listed in the HUD and copied between machines).

API (pure):
- `looks_secret(word, program="") -> bool`: a password flag with its value (`--password=x`,
  `--token=x`, `-pSecret` for the mysql family), a `key=value` whose key names a secret
  (`token=`, `api_key=`, `AWS_SECRET_ACCESS_KEY=`), an `Authorization:`-style header with a
  value, a URL with `user:password@`, `user:password` after `-u` (see `secret_in`), a token with
  a well-known prefix (`ghp_`, `sk-`, `xoxb-`, `AKIA`, JWTs) or a long high-entropy string.
- `secret_in(words) -> str | None`: the first secret-looking word of an argv (its program gives
  `-p` its meaning; `-u user:pass` and `--password secret` look at the next word).
- `secret_words(words) -> list[str]`: every such word (what a displayed command must hide).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence

# A key names a secret when its last `_`/`-`/`.` segment(s) do: `token`, `GITHUB_TOKEN`,
# `AWS_SECRET_ACCESS_KEY`, `--api-key`; not `--author` or `--token-file`.
_SECRET_KEY = re.compile(
    r"(?:^|[_.-])(?:pass(?:word|wd|phrase)?|pwd|token|secret|api[_-]?key|apikey|auth"
    r"|credentials?|private[_-]?key|access[_-]?key|session[_-]?key|bearer|cookie)\Z",
    re.IGNORECASE,
)
_HEADER = re.compile(
    r"(?:authorization|proxy-authorization|cookie|x-[a-z0-9-]*(?:key|token|secret|auth)[a-z0-9-]*)\s*:\s*\S",
    re.I,
)
_URL_CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@", re.I)
_KNOWN_TOKEN = re.compile(
    r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}"
    r"|sk-[A-Za-z0-9_-]{16,}|sk_live_[A-Za-z0-9]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.)"
)
_OPAQUE = re.compile(r"[A-Za-z0-9_\-+/=]{32,}")
_PASSWORD_FLAGS = frozenset(
    {"--password", "--passwd", "--pass", "--token", "--api-key", "--apikey", "--secret",
     "--auth-token", "--access-token", "--client-secret", "--oauth2-bearer"}
)  # fmt: skip
_USER_FLAGS = frozenset({"-u", "--user", "--proxy-user"})
_MYSQL_FAMILY = frozenset(
    {"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mariadb",
     "mariadb-dump", "mariadb-admin", "mysqlpump", "mysqlsh"}
)  # fmt: skip


def looks_secret(word: str, program: str = "") -> bool:
    if len(word) < 6 and not word.startswith("-p"):
        return False
    if program in _MYSQL_FAMILY and word.startswith("-p") and len(word) > 2:
        return True
    key, equals, value = word.partition("=")
    if equals and value and _SECRET_KEY.search(key.lstrip("-")):
        return True
    return bool(
        _HEADER.match(word)
        or _URL_CREDENTIALS.search(word)
        or _KNOWN_TOKEN.search(word)
        or _high_entropy(word)
    )


def secret_in(words: Sequence[str]) -> str | None:
    return next(_secrets(words), None)


def secret_words(words: Sequence[str]) -> list[str]:
    return list(_secrets(words))


def _secrets(words: Sequence[str]) -> Iterator[str]:
    program = words[0].rpartition("/")[2] if words else ""
    for index, word in enumerate(words):
        after = words[index - 1] if index else ""
        if (
            (index and looks_secret(word, program))
            or after in _PASSWORD_FLAGS
            or (after in _USER_FLAGS and ":" in word)
            or (program == "sshpass" and after == "-p")
        ):
            yield word


def _high_entropy(word: str) -> bool:
    """A long opaque string with upper, lower case and digits, of at least 4 bits per
    character: API keys do, git hashes (lower-case hex) and file names do not."""
    if _OPAQUE.fullmatch(word) is None:
        return False
    if not (any(c.isupper() for c in word) and any(c.islower() for c in word)):
        return False
    if not any(c.isdigit() for c in word):
        return False
    counts = Counter(word)
    entropy = -sum(n / len(word) * math.log2(n / len(word)) for n in counts.values())
    return entropy >= 4.0
