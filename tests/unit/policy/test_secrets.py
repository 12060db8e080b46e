"""Secret-looking words: never saved in a rule."""

from __future__ import annotations

import shlex

import pytest

from jarvis.core.policy.secrets import looks_secret, secret_in

SECRETS = [
    ("--password=hunter22", ""),
    ("--passwd=x1y2z3", ""),
    ("--token=abcdef", ""),
    ("--api-key=abcdef", ""),
    ("token=abcdef", ""),
    ("API_KEY=abcdef", ""),
    ("AWS_SECRET_ACCESS_KEY=abc/def", ""),
    ("GITHUB_TOKEN=abcdef", ""),
    ("client_secret=abcdef", ""),
    ("Authorization: Bearer abc", ""),
    ("authorization:basic YWJj", ""),
    ("X-Api-Key: abcdef", ""),
    ("Cookie: session=abc", ""),
    ("https://me:hunter22@example.com/x", ""),
    ("postgres://app:s3cret@db:5432/app", ""),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123", ""),
    ("github_pat_11ABCDEFG0123456789_abcdefghijkl", ""),
    ("glpat-abcdefghijklmnopqrst", ""),
    ("sk-proj-abcdefghijklmnopqrstuv", ""),
    ("xoxb-1234567890-abcdefghij", ""),
    ("AKIAIOSFODNN7EXAMPLE", ""),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", ""),
    ("Zx8Qp2Lm9Vb4Tn7Wk3Rj6Hy1Fd5Gs0Ac", ""),  # 32 opaque characters
    ("-pSecret123", "mysql"),
    ("-phunter2", "mariadb-dump"),
]

NOT_SECRETS = [
    ("--password", ""),  # the flag alone; its value is the next word (see `secret_in`)
    ("--author=me", ""),
    ("--token-file=tok.txt", ""),
    ("password_file=x", ""),
    ("-pSecret123", "pytest"),  # `-p` loads a plugin there
    ("-p", "mysql"),  # prompts for the password
    ("https://example.com/path?q=1", ""),
    ("git@github.com:org/repo.git", ""),
    ("0123456789abcdef0123456789abcdef01234567", ""),  # a git hash
    ("src/components/VeryLongComponentName2.tsx", ""),
    ("status", ""),
    ("Content-Type: application/json", ""),
]


@pytest.mark.parametrize(("word", "program"), SECRETS)
def test_secrets(word: str, program: str) -> None:
    assert looks_secret(word, program)


@pytest.mark.parametrize(("word", "program"), NOT_SECRETS)
def test_not_secrets(word: str, program: str) -> None:
    assert not looks_secret(word, program)


@pytest.mark.parametrize(
    ("command", "secret"),
    [
        ("psql --password hunter22", "hunter22"),
        ("curl -u me:hunter22 https://x", "me:hunter22"),
        ("sshpass -p hunter22 ssh h", "hunter22"),
        ("mysql -uroot -pSecret db", "-pSecret"),
        ("curl -H 'Authorization: Bearer x' https://h", "Authorization: Bearer x"),
        ("git status", None),
        ("curl -u me https://x", None),
        ("mysql -p db", None),
    ],
)
def test_secret_in_an_argv(command: str, secret: str | None) -> None:
    assert secret_in(shlex.split(command)) == secret
